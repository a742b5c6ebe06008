"""Shithead (Palace) rules: positions, moves, legality, the exact core's `Game`, and its endgame adapter.

The rules are docs/rules/shithead.md (the digest of ../shared/rules/shithead.md with the
project's decisions). In short: cards go on an equal or higher card (4 low … A high); 2 resets,
3 is transparent, 10 burns, 7 forces 7-or-under next, each 8 skips a player; four of a rank on
top burns; a burn gives the same player another turn; the stock refills hands to 3; then
face-up cards, then face-down ones (blind); whoever is left holding cards is the shithead.
Interruptions (out-of-turn plays) are not implemented: the default rule set plays without them.

Suits never matter in Shithead, so moves name ranks, not cards (`7x2` plays two 7s: the lowest
suits the hand holds), and the solver's key counts ranks: positions that differ only in suits
are one position to the solver.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, NamedTuple, Sequence

from dealcodes import DEAL_COUNT, Card, CardError, DealCode, SplitMix64, parse_card, parse_code
from dealcodes.cards import RANKS
from dealcodes.shithead import MAX_PLAYERS, MIN_PLAYERS, deal_shithead
from solver.core.endgame import Ask
from solver.core.game import GameError, IllegalMoveError, Outcome, WinLoss, avoid_last

TWO, THREE, SEVEN, EIGHT, TEN = 2, 3, 7, 8, 10
HAND_SIZE = 3
ANYWHERE = frozenset({TWO, THREE, TEN})  # may go on any card
STRENGTH = {1: 14} | {r: r for r in range(2, 14)}  # A high; 2 and 3 never compared


class ShitheadError(GameError):
    """Base class for Shithead errors (a ValueError)."""


class PositionError(ShitheadError):
    """A position (JSON or built by hand) that breaks the rules' invariants; says which field."""


class MoveError(ShitheadError):
    """A move that cannot be read."""


class IllegalShitheadMove(IllegalMoveError, ShitheadError):
    """A move that cannot be played in this position."""


class LineError(ShitheadError):
    """A move of a line that could not be read or played; carries its 1-based index."""

    def __init__(self, index: int, token: str, reason: str) -> None:
        super().__init__(f"move {index} ({token!r}): {reason}")
        self.index = index


# -- moves -------------------------------------------------------------------------------------


class Move(NamedTuple):
    """One turn. `kind` is ``play`` (`count` hand cards of `rank`, plus `extra_up` face-up cards
    of that rank when they are the last hand cards), ``up`` (lift the face-up card of `rank`),
    ``down`` (turn face-down card number `slot`, 0-based among those left) or ``pickup``."""

    kind: str
    rank: int = 0
    count: int = 0
    extra_up: int = 0
    slot: int = 0

    def __str__(self) -> str:
        if self.kind == "play":
            text = RANKS[self.rank - 1] + (f"x{self.count}" if self.count > 1 else "")
            return text + (f"+up{self.extra_up}" if self.extra_up else "")
        if self.kind == "up":
            return f"up:{RANKS[self.rank - 1]}"
        if self.kind == "down":
            return f"down:{self.slot + 1}"
        return "pickup"


PICKUP = Move("pickup")

_PLAY_RE = re.compile(r"^(10|[A2-9TJQK])(?:X(\d+))?(?:\+UP(\d+))?$")
_UP_RE = re.compile(r"^UP:(10|[A2-9TJQK])$")
_DOWN_RE = re.compile(r"^DOWN:(\d+)$")


def _rank_of(text: str) -> int:
    return RANKS.index("T" if text == "10" else text) + 1


def parse_move(text: str) -> Move:
    """Read ``7``, ``7x2``, ``7x2+up1``, ``up:7``, ``down:2`` or ``pickup`` (any case)."""
    token = text.strip().upper()
    if token in ("PICKUP", "PICK", "P"):
        return PICKUP
    if match := _PLAY_RE.match(token):
        count = int(match.group(2) or 1)
        extra = int(match.group(3) or 0)
        if not 1 <= count <= 4 or extra > 3 or count + extra > 4:
            raise MoveError(f"move {text.strip()!r}: a play puts down 1-4 cards of one rank")
        return Move("play", _rank_of(match.group(1)), count, extra)
    if match := _UP_RE.match(token):
        return Move("up", _rank_of(match.group(1)), 1)
    if match := _DOWN_RE.match(token):
        slot = int(match.group(1))
        if not 1 <= slot <= 3:
            raise MoveError(f"move {text.strip()!r}: face-down cards are numbered 1-3")
        return Move("down", 0, 1, 0, slot - 1)
    raise MoveError(
        f"unknown move {text.strip()!r}: expected a rank with an optional count (7, 7x2, 7x2+up1), "
        "up:RANK, down:N or pickup"
    )


def split_line(text: str) -> list[str]:
    return [t for t in re.split(r"[,\s]+", text.strip()) if t]


# -- positions ---------------------------------------------------------------------------------


def _sorted(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards))


def _cards(data: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(data, list):
        raise PositionError(f"{where}: expected a list of cards such as [\"7H\", \"TD\"]")
    out = []
    for i, item in enumerate(data):
        if not isinstance(item, str):
            raise PositionError(f"{where}[{i}]: expected a card such as \"7H\", got {item!r}")
        try:
            out.append(parse_card(item))
        except CardError as error:
            raise PositionError(f"{where}[{i}]: {error}") from None
    return tuple(out)


class Position(NamedTuple):
    """A whole table. Per seat: `hands` (sorted), `face_up` and `face_down` (slot order, cards
    still there); `stock` top first; `pile` bottom → top; `burned` (out of the game, kept for
    display only); `to_move` the seat to act. Immutable; equal tables are equal values."""

    hands: tuple[tuple[Card, ...], ...]
    face_up: tuple[tuple[Card, ...], ...]
    face_down: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...]
    burned: tuple[Card, ...]
    to_move: int

    @property
    def players(self) -> int:
        return len(self.hands)

    def cards_of(self, seat: int) -> int:
        return len(self.hands[seat]) + len(self.face_up[seat]) + len(self.face_down[seat])

    def active(self) -> list[int]:
        return [s for s in range(len(self.hands)) if self.cards_of(s)]

    @classmethod
    def from_deal_code(cls, code: str) -> Position:
        parsed = parse_code(code, expect_game="SH")
        deal = deal_shithead(parsed.number, int(parsed.variant))
        return cls(tuple(_sorted(h) for h in deal.hands), deal.face_up, deal.face_down, deal.stock, (), (),
                   deal.starting_seat)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "to_move": self.to_move,
            "hands": [[str(c) for c in cards] for cards in self.hands],
            "face_up": [[str(c) for c in cards] for cards in self.face_up],
            "face_down": [[str(c) for c in cards] for cards in self.face_down],
            "stock": [str(c) for c in self.stock],
            "pile": [str(c) for c in self.pile],
            "burned": [str(c) for c in self.burned],
        }

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read the documented JSON shape (docs/endgames.md); every error names its field."""
        if not isinstance(data, dict):
            raise PositionError("position: expected a JSON object with hands, face_up, face_down, pile, …")
        known = {"players", "to_move", "hands", "face_up", "face_down", "stock", "pile", "burned", "code", "number"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise PositionError(f"position: unknown field(s) {', '.join(unknown)}; expected {', '.join(sorted(known))}")
        if "hands" not in data:
            raise PositionError("position: missing field 'hands' (one list of cards per player)")
        hands_data = data["hands"]
        if not isinstance(hands_data, list) or not MIN_PLAYERS <= len(hands_data) <= MAX_PLAYERS:
            raise PositionError(f"position.hands: expected one card list per player, {MIN_PLAYERS}-{MAX_PLAYERS} players")
        n = len(hands_data)
        if "players" in data and data["players"] != n:
            raise PositionError(f"position.players is {data['players']!r} but hands has {n} lists")

        def per_seat(name: str) -> tuple[tuple[Card, ...], ...]:
            value = data.get(name, [[] for _ in range(n)])
            if not isinstance(value, list) or len(value) != n:
                raise PositionError(f"position.{name}: expected {n} card lists, one per player")
            return tuple(_cards(v, f"position.{name}[{i}]") for i, v in enumerate(value))

        hands = tuple(_sorted(h) for h in per_seat("hands"))
        face_up, face_down = per_seat("face_up"), per_seat("face_down")
        stock = _cards(data.get("stock", []), "position.stock")
        pile = _cards(data.get("pile", []), "position.pile")
        burned = _cards(data.get("burned", []), "position.burned")
        to_move = data.get("to_move", 0)
        if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < n:
            raise PositionError(f"position.to_move: expected a seat 0-{n - 1}, got {to_move!r}")
        position = cls(hands, face_up, face_down, stock, pile, burned, to_move)
        check_position(position)
        return position


def check_position(position: Position) -> None:
    """The invariants every reachable table keeps; raises PositionError naming the break."""
    seen: dict[Card, str] = {}
    n = position.players
    places = [(f"hands[{s}]", position.hands[s]) for s in range(n)]
    places += [(f"face_up[{s}]", position.face_up[s]) for s in range(n)]
    places += [(f"face_down[{s}]", position.face_down[s]) for s in range(n)]
    places += [("stock", position.stock), ("pile", position.pile), ("burned", position.burned)]
    for where, cards in places:
        for card in cards:
            if card in seen:
                raise PositionError(f"card {card} is in position.{seen[card]} and position.{where}: one deck has one of each")
            seen[card] = where
    for s in range(n):
        if len(position.face_up[s]) > HAND_SIZE or len(position.face_down[s]) > HAND_SIZE:
            raise PositionError(f"player {s}: at most {HAND_SIZE} face-up and {HAND_SIZE} face-down cards")
        if position.stock and position.cards_of(s) and len(position.hands[s]) < HAND_SIZE:
            raise PositionError(
                f"position.hands[{s}] holds {len(position.hands[s])} cards while the stock has "
                f"{len(position.stock)}: hands are refilled to {HAND_SIZE} while the stock lasts"
            )
    active = position.active()
    if len(active) >= 2 and position.to_move not in active:
        raise PositionError(f"position.to_move: player {position.to_move} has no cards left (out of the game)")


# -- the rules ---------------------------------------------------------------------------------


def pile_state(pile: Sequence[Card]) -> tuple[int, int, int]:
    """(effective top rank or 0, top run rank, top run length): 3s are transparent for the
    effective top; the run counts equal ranks on top for four-of-a-kind."""
    top = 0
    for card in reversed(pile):
        if card.rank != THREE:
            top = card.rank
            break
    if not pile:
        return 0, 0, 0
    run_rank = pile[-1].rank
    run = 0
    for card in reversed(pile):
        if card.rank != run_rank:
            break
        run += 1
    return top, run_rank, run


def can_play(rank: int, top: int) -> bool:
    """May a card of `rank` go on a pile whose effective top rank is `top` (0: empty/all 3s)?"""
    if rank in ANYWHERE or top == 0 or top == TWO:
        return True
    if top == SEVEN:
        return STRENGTH[rank] <= SEVEN
    return STRENGTH[rank] >= STRENGTH[top]


def _next_active(position_cards: Sequence[int], seat: int, steps: int) -> int:
    n = len(position_cards)
    for _ in range(steps):
        seat = (seat + 1) % n
        while not position_cards[seat]:
            seat = (seat + 1) % n
    return seat


def _remove(cards: tuple[Card, ...], rank: int, count: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """(the first `count` cards of `rank` in order, the rest)."""
    taken: list[Card] = []
    rest: list[Card] = []
    for card in cards:
        if card.rank == rank and len(taken) < count:
            taken.append(card)
        else:
            rest.append(card)
    return tuple(taken), tuple(rest)


def legal_moves(position: Position) -> list[Move]:
    """Every legal move, in a fixed order: plays by rank strength and count, then table cards, then pickup."""
    seat = position.to_move
    hand = position.hands[seat]
    top = pile_state(position.pile)[0]
    moves: list[Move] = []
    if hand:
        counts: dict[int, int] = {}
        for card in hand:
            counts[card.rank] = counts.get(card.rank, 0) + 1
        last_rank = len(counts) == 1 and not position.stock
        ups = sum(1 for c in position.face_up[seat] if c.rank in counts) if last_rank else 0
        for rank in sorted(counts, key=STRENGTH.__getitem__):
            if not can_play(rank, top):
                continue
            for count in range(1, counts[rank] + 1):
                moves.append(Move("play", rank, count))
            for extra in range(1, ups + 1):
                moves.append(Move("play", rank, counts[rank], extra))
    elif not position.stock:
        if position.face_up[seat]:
            for rank in sorted({c.rank for c in position.face_up[seat]}, key=STRENGTH.__getitem__):
                moves.append(Move("up", rank, 1))
        else:
            for slot in range(len(position.face_down[seat])):
                moves.append(Move("down", 0, 1, 0, slot))
    if position.pile and position.cards_of(seat):
        moves.append(PICKUP)
    return moves


def apply(position: Position, move: Move) -> Position:
    """The table after `move` (pure). Raises IllegalShitheadMove if it is not legal here."""
    if move not in legal_moves(position):
        raise IllegalShitheadMove(
            f"{move} is not legal for player {position.to_move} here: {_why_illegal(position, move)}"
        )
    return _apply(position, move)


def _apply(position: Position, move: Move) -> Position:
    """`apply` without the legality check, for moves that come from `legal_moves`."""
    hands, face_up, face_down, stock, pile, burned, seat = position
    hand, up, down = hands[seat], face_up[seat], face_down[seat]
    if move.kind == "pickup":
        return _after(position, seat, _sorted(hand + pile), up, down, stock, (), burned, 1, False)
    if move.kind == "play":
        played, hand = _remove(hand, move.rank, move.count)
        if move.extra_up:
            extra, up = _remove(up, move.rank, move.extra_up)
            played += extra
        while len(hand) < HAND_SIZE and stock:
            hand, stock = _sorted(hand + stock[:1]), stock[1:]
    elif move.kind == "up":
        played, up = _remove(up, move.rank, 1)
    else:  # down: turned blind; if it cannot go on the pile the player takes pile and card
        played = (down[move.slot],)
        down = down[: move.slot] + down[move.slot + 1 :]
        if not can_play(played[0].rank, pile_state(pile)[0]):
            return _after(position, seat, _sorted(hand + pile + played), up, down, stock, (), burned, 1, False)
    if move.kind == "up" and not can_play(move.rank, pile_state(pile)[0]):
        return _after(position, seat, _sorted(hand + pile + played), up, down, stock, (), burned, 1, False)
    pile = pile + played
    rank = played[0].rank
    _, run_rank, run = pile_state(pile)
    if rank == TEN or run >= 4:
        return _after(position, seat, hand, up, down, stock, (), burned + pile, 0, True)
    skips = len(played) if rank == EIGHT else 0
    return _after(position, seat, hand, up, down, stock, pile, burned, 1 + skips, False)


def _after(position: Position, seat: int, hand, up, down, stock, pile, burned, steps: int, again: bool) -> Position:
    hands, face_up, face_down = list(position.hands), list(position.face_up), list(position.face_down)
    hands[seat], face_up[seat], face_down[seat] = hand, up, down
    cards = [len(hands[s]) + len(face_up[s]) + len(face_down[s]) for s in range(len(hands))]
    if sum(1 for c in cards if c) <= 1:
        to_move = seat  # play is over; keep the last mover
    elif again and cards[seat]:
        to_move = seat
    else:
        to_move = _next_active(cards, seat, max(steps, 1))
    return Position(tuple(hands), tuple(face_up), tuple(face_down), stock, pile, burned, to_move)


def _why_illegal(position: Position, move: Move) -> str:
    seat = position.to_move
    hand = position.hands[seat]
    if position.cards_of(seat) == 0:
        return "that player has no cards (the game is over)"
    if move.kind == "pickup":
        return "the pile is empty"
    if move.kind == "play":
        if not hand:
            return "the hand is empty: play from the table (up:RANK or down:N)"
        have = sum(1 for c in hand if c.rank == move.rank)
        if have < move.count:
            return f"the hand holds {have} card(s) of rank {RANKS[move.rank - 1]}"
        if move.extra_up:
            return "face-up cards go down with hand cards only with the last hand cards, of the same rank, once the stock is empty"
        top = pile_state(position.pile)[0]
        return f"a {RANKS[move.rank - 1]} cannot go on the pile's {RANKS[top - 1]}"
    if hand or position.stock:
        return "table cards are played only once the stock and the hand are empty"
    if move.kind == "up":
        if not position.face_up[seat]:
            return "no face-up cards left: turn a face-down card (down:N)"
        return f"no face-up card of rank {RANKS[move.rank - 1]}"
    if position.face_up[seat]:
        return "face-up cards are played before face-down ones"
    return f"there are only {len(position.face_down[seat])} face-down card(s)"


def outcome(position: Position) -> Outcome | None:
    """Play is over when at most one player holds cards; that player is the shithead (place 1)."""
    hands, face_up, face_down = position.hands, position.face_up, position.face_down
    if sum(1 for s in range(len(hands)) if hands[s] or face_up[s] or face_down[s]) >= 2:
        return None
    active = position.active()
    places = tuple(1 if s in active else 0 for s in range(position.players))
    note = f"player {active[0]} is the shithead" if active else "nobody holds cards"
    return Outcome(places, note=note)


# -- the solver's view -------------------------------------------------------------------------

_W = {Card(r, s): 1 << (3 * (r - 1)) for r in range(1, 14) for s in range(4)}
_BITS = 39  # 13 ranks × 3 bits of count (≤ 4 of a rank)


_weight = _W.__getitem__


def _ms(cards: Sequence[Card]) -> int:
    return sum(map(_weight, cards))


# Layout of the packed key (least significant bits first):
#   0-2 seat to move | 3-6 effective top rank (0: none) | 7-10 top run rank | 11-13 top run length
#   14-52 pile rank counts | per seat s: hand, face-up, face-down rank counts (39 bits each) from
#   bit 53 + 117 s | then the stock: 6 bits of length, 4 bits per card, top card lowest.
_TOP, _RUNR, _RUNL, _PILE, _SEATS = 3, 7, 11, 14, 53
_SEAT_BITS = 3 * _BITS
_M39 = (1 << _BITS) - 1


def _hand_off(seat: int) -> int:
    return _SEATS + _SEAT_BITS * seat


def position_key(position: Position) -> int:
    """A packed int: the rank counts of every hand, face-up and face-down set and of the pile, the
    pile's effective top and top run, the stock's ranks in order, and the seat to move. Suits and
    burned cards never change what can happen, so they are left out. `ShitheadKernel` plays on
    these ints directly."""
    hands, face_up, face_down, stock, pile, _, to_move = position
    top, run_rank, run = pile_state(pile)
    k = to_move | top << _TOP | run_rank << _RUNR | run << _RUNL | _ms(pile) << _PILE
    off = _SEATS
    for s in range(len(hands)):
        k |= (_ms(hands[s]) | _ms(face_up[s]) << _BITS | _ms(face_down[s]) << (2 * _BITS)) << off
        off += _SEAT_BITS
    seq = 0
    for card in reversed(stock):
        seq = seq << 4 | card.rank
    return k | (len(stock) | seq << 6) << off


_CAN = [[can_play(r, t) for t in range(14)] if r else [False] * 14 for r in range(14)]
_ORDERED_RANKS = sorted(range(1, 14), key=STRENGTH.__getitem__)  # 2 3 4 … K A
_W3 = [0] + [1 << (3 * (r - 1)) for r in range(1, 14)]
_RANK_SHIFTS = [(r, 3 * (r - 1)) for r in _ORDERED_RANKS]


class ShitheadKernel:
    """The rules again, on packed keys: the core's hot loop for Shithead (make-only, no objects).

    Positions are `position_key` ints; `successors` returns the keys of the positions every legal
    move leads to (moves that lead to the same key, e.g. two face-down cards of one rank, give
    one key). Tests check it against `legal_moves` + `apply` on random playouts.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.stock_off = _SEATS + _SEAT_BITS * players
        self.low_mask = (1 << self.stock_off) - 1
        self.seat_masks = [((1 << _SEAT_BITS) - 1) << (_SEATS + _SEAT_BITS * s) for s in range(players)]

    def to_move(self, k: int) -> int:
        return k & 7

    def _active(self, k: int) -> list[bool]:
        return [k & m != 0 for m in self.seat_masks]

    def terminal(self, k: int) -> Outcome | None:
        live = 0
        for m in self.seat_masks:
            if k & m:
                live += 1
                if live == 2:
                    return None
        active = self._active(k)
        places = tuple(1 if a else 0 for a in active)
        holders = [s for s, a in enumerate(active) if a]
        return Outcome(places, note=f"player {holders[0]} is the shithead" if holders else "nobody holds cards")

    def _finish(self, k: int, seat: int, steps: int, again: bool) -> int:
        """Set the seat to move after a move by `seat` (k has the new cards, seat bits cleared)."""
        active = [k & m != 0 for m in self.seat_masks]
        n = self.players
        if active.count(True) <= 1:
            return k | seat
        if again and active[seat]:
            return k | seat
        s = seat
        for _ in range(max(steps, 1)):
            s = (s + 1) % n
            while not active[s]:
                s = (s + 1) % n
        return k | s

    def successors(self, k: int) -> list[int]:
        seat = k & 7
        top = (k >> _TOP) & 15
        run_rank = (k >> _RUNR) & 15
        run = (k >> _RUNL) & 7
        hoff = _SEATS + _SEAT_BITS * seat
        uoff = hoff + _BITS
        doff = uoff + _BITS
        hand = (k >> hoff) & _M39
        pile = (k >> _PILE) & _M39
        stock_len = (k >> self.stock_off) & 63
        base = k & ~0x3FFF  # clear seat and pile state, keep pile counts and the rest
        out: list[int] = []
        can = _CAN
        if hand:
            ranks = [(r, c) for r, sh in _RANK_SHIFTS if (c := (hand >> sh) & 7)]
            ups = 0
            up = (k >> uoff) & _M39
            if len(ranks) == 1 and not stock_len and up:
                ups = (up >> (3 * (ranks[0][0] - 1))) & 7
            for r, c in ranks:
                if not can[r][top]:
                    continue
                w = _W3[r]
                for cnt in range(1, c + 1):
                    out.append(self._play(base - (cnt * w << hoff), r, cnt, top, run_rank, run, seat, stock_len))
                for extra in range(1, ups + 1):
                    out.append(self._play(base - ((c * w) << hoff) - ((extra * w) << uoff), r, c + extra, top,
                                          run_rank, run, seat, 0))
        elif not stock_len:
            up = (k >> uoff) & _M39
            if up:
                source, soff = up, uoff
            else:
                source, soff = (k >> doff) & _M39, doff
            for r in _ORDERED_RANKS:
                if (source >> (3 * (r - 1))) & 7:
                    w = _W3[r]
                    if can[r][top]:
                        out.append(self._play(base - (w << soff), r, 1, top, run_rank, run, seat, 0))
                    else:  # taken into the hand with the pile
                        child = (base - (w << soff) + ((pile + w) << hoff)) & ~(_M39 << _PILE)
                        out.append(self._finish(child, seat, 1, False))
        if pile:
            child = (base + (pile << hoff)) & ~(_M39 << _PILE)
            out.append(self._finish(child, seat, 1, False))
        return out

    def _play(self, k: int, r: int, cnt: int, top: int, run_rank: int, run: int, seat: int, stock_len: int) -> int:
        """`k` with the cards already out of the player's hand/table (pile state cleared): put `cnt`
        cards of rank `r` on the pile, refill the hand, burn or pass the turn."""
        if stock_len:
            k = self._refill(k, seat)
        new_run = run + cnt if r == run_rank else cnt
        if r == TEN or new_run >= 4:
            k &= ~(_M39 << _PILE)
            return self._finish(k, seat, 0, True)
        k += (cnt * _W3[r]) << _PILE
        k |= (top if r == THREE else r) << _TOP | r << _RUNR | new_run << _RUNL
        return self._finish(k, seat, 1 + (cnt if r == EIGHT else 0), False)

    def _refill(self, k: int, seat: int) -> int:
        hoff = _SEATS + _SEAT_BITS * seat
        hand = (k >> hoff) & _M39
        size = sum((hand >> (3 * i)) & 7 for i in range(13))
        stock_val = k >> self.stock_off
        length, seq = stock_val & 63, stock_val >> 6
        while size < HAND_SIZE and length:
            rank = seq & 15
            seq >>= 4
            length -= 1
            k += _W3[rank] << hoff
            size += 1
        return (k & self.low_mask) | (length | seq << 6) << self.stock_off


class ShitheadGame:
    """`solver.core.game.Game` for Shithead. Cyclic (picking up the pile can repeat positions)."""

    name = "shithead"
    acyclic = False

    def players(self, position: Position) -> int:
        return position.players

    def to_move(self, position: Position) -> int:
        return position.to_move

    def legal_moves(self, position: Position) -> Sequence[Move]:
        if outcome(position) is not None:
            return ()
        return legal_moves(position)

    def apply(self, position: Position, move: Move) -> Position:
        if outcome(position) is not None:
            raise IllegalShitheadMove(f"{move}: the game is over ({outcome(position).note})")
        return apply(position, move)

    def successors(self, position: Position) -> list[tuple[Move, Position]]:
        """Every legal move with its result, checked once."""
        return [(move, _apply(position, move)) for move in legal_moves(position)]

    def kernel(self, position: Position) -> ShitheadKernel:
        """The packed-key hot loop the core explores with (see `solver.core.game.Game`)."""
        return ShitheadKernel(position.players)

    def terminal(self, position: Position) -> Outcome | None:
        return outcome(position)

    def key(self, position: Position) -> int:
        return position_key(position)


GAME = ShitheadGame()


def replay(position: Position, line: str | Sequence[str]) -> tuple[Position, list[Move]]:
    """Play a line of moves (text); errors name the move's 1-based index."""
    tokens = split_line(line) if isinstance(line, str) else list(line)
    moves: list[Move] = []
    for index, token in enumerate(tokens, start=1):
        try:
            move = parse_move(token)
            position = GAME.apply(position, move)
        except ShitheadError as error:
            raise LineError(index, token, str(error)) from None
        moves.append(move)
    return position, moves


# -- a fixed seeded policy to reach the endgame ---------------------------------------------------


def policy_move(position: Position, rng: SplitMix64) -> Move:
    """The project's fixed playing policy (documented in docs/endgames.md): one time in four a
    uniformly random legal play; otherwise all cards of the weakest playable ordinary rank, else
    one special card (3, then 2, then 10); pick up only when nothing can be played."""
    moves = [m for m in legal_moves(position) if m.kind != "pickup"]
    if not moves:
        return PICKUP
    if rng.below(4) == 0:
        return moves[rng.below(len(moves))]
    ordinary = [m for m in moves if m.kind != "play" or m.rank not in ANYWHERE]
    if ordinary:
        weakest = ordinary[0]
        same = [m for m in ordinary if m.kind == weakest.kind and m.rank == weakest.rank]
        return max(same, key=lambda m: (m.count + m.extra_up))
    special_order = {THREE: 0, TWO: 1, TEN: 2}
    return min(moves, key=lambda m: (special_order.get(m.rank, 3), m.count))


def play_until_endgame(position: Position, seed: int, max_moves: int = 2000) -> tuple[Position, list[Move]]:
    """Play the policy from `position` until the stock is empty (or play ends)."""
    rng = SplitMix64(seed ^ 0x5348_454E_4447_414D)  # "SHENDGAM": a fixed salt
    moves: list[Move] = []
    while position.stock and outcome(position) is None:
        if len(moves) >= max_moves:
            raise ShitheadError(f"the policy did not empty the stock within {max_moves} moves")
        move = policy_move(position, rng)
        position = _apply(position, move)
        moves.append(move)
    return position, moves


# -- the endgame adapter -----------------------------------------------------------------------


class ShitheadAdapter:
    """Plugs Shithead into `halfmoon endgame shithead` (see solver.core.endgame)."""

    name = "shithead"
    title = "Shithead"
    game = GAME

    def position_from_json(self, data: Any) -> Position:
        return Position.from_json(data)

    def position_to_json(self, position: Position) -> dict[str, Any]:
        return position.to_json()

    def position_from_code(self, code: str, moves: str = "") -> Position:
        position = Position.from_deal_code(code)
        return replay(position, moves)[0] if moves.strip() else position

    def until_endgame(self, position: Position, seed: int = 0) -> tuple[Position, list[Move]]:
        return play_until_endgame(position, seed)

    def asks(self, position: Position) -> list[Ask]:
        n = position.players
        if n == 2:
            me = position.to_move
            return [Ask("win-loss", f"Player {me} to move: win (player {1 - me} is the shithead), loss or draw (endless play)?",
                        WinLoss(me), {1: "win", 0: "draw", -1: "loss"}, me)]
        return [
            Ask(f"player-{s}-shithead", f"Can player {s} be forced to be the shithead by all the others together?",
                avoid_last(s), {1: "no, can avoid it", 0: "yes, can be forced"}, s)
            for s in range(n)
        ]

    def format_move(self, position: Position, move: Move) -> str:
        return str(move)

    def move_note(self, position: Position, move: Move) -> str:
        seat = position.to_move
        if move.kind == "down":
            card = position.face_down[seat][move.slot]
            fits = can_play(card.rank, pile_state(position.pile)[0])
            return f"face-down card is {card}" + ("" if fits else ": it does not fit, so the pile is picked up with it")
        if move.kind == "up" and not can_play(move.rank, pile_state(position.pile)[0]):
            return "does not fit: the pile is picked up with it"
        if move.kind == "play":
            after = apply(position, move)
            if not after.pile and after.burned != position.burned:
                return "burns the pile: same player again"
            if move.rank == EIGHT:
                return f"skips {move.count + move.extra_up} player(s)"
        return ""

    def describe(self, position: Position) -> str:
        lines = []
        for s in range(position.players):
            mark = "→" if s == position.to_move and outcome(position) is None else " "
            lines.append(
                f"{mark} player {s}: hand {' '.join(map(str, position.hands[s])) or '-'} | "
                f"up {' '.join(map(str, position.face_up[s])) or '-'} | "
                f"down {' '.join(map(str, position.face_down[s])) or '-'}"
            )
        lines.append(f"  pile (bottom→top): {' '.join(map(str, position.pile)) or '-'}")
        lines.append(f"  stock (top first): {' '.join(map(str, position.stock)) or '-'}")
        lines.append(f"  burned: {len(position.burned)} card(s)")
        return "\n".join(lines)

    def notes(self, position: Position) -> list[str]:
        notes = ["Double dummy: the solver knows every card, face-down cards and the stock order included; "
                 "a face-down card is really turned blind, so each down:N move is shown with the card it turns "
                 "and its own value."]
        if position.players > 2:
            notes.append("More than two players: each question sets one player against all the others together "
                         "(a guarantee, not a prediction of how the others will play); endless play counts as avoided.")
        return notes

    def sample_positions(self, seed: int, count: int) -> Iterator[Position]:
        rng = SplitMix64(seed)
        for i in range(count):
            players = MIN_PLAYERS + i % (MAX_PLAYERS - MIN_PLAYERS + 1)
            yield Position.from_deal_code(str(DealCode("SH", 1, str(players), rng.below(DEAL_COUNT))))


ENDGAME_ADAPTERS = [ShitheadAdapter()]
