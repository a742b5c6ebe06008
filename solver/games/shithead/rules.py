"""Shithead (Palace) rules: positions, moves, legality, replaying a line.

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
from typing import Any, NamedTuple, Sequence

from halfmoon.dealcodes import Card, CardError, parse_card, parse_code
from halfmoon.dealcodes.cards import RANKS
from halfmoon.dealcodes.shithead import MAX_PLAYERS, MIN_PLAYERS, deal_shithead
from halfmoon.solver.core.game import Outcome
from halfmoon.solver.errors import (
    IllegalMoveError,
    MoveError,
    PositionError,
)
from halfmoon.solver.games import notation

TWO, THREE, SEVEN, EIGHT, TEN = 2, 3, 7, 8, 10
HAND_SIZE = 3
ANYWHERE = frozenset({TWO, THREE, TEN})  # may go on any card
STRENGTH = {1: 14} | {r: r for r in range(2, 14)}  # A high; 2 and 3 never compared


# -- moves -------------------------------------------------------------------------------------


class Move(NamedTuple):
    """One turn. `kind` is ``play`` (`count` hand cards of `rank`, plus `extra_up` face-up cards
    of that rank when they are the last hand cards), ``up`` (lift the face-up card of `rank`),
    ``down`` (turn face-down card number `slot`, 0-based among those left) or ``pickup``."""

    kind: str
    rank: int = 0
    count: int = 0  # type: ignore[assignment]  # the field shadows tuple.count on purpose (cards played)
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
    """Every legal move, in a fixed order: plays by rank strength and count, then table cards, then pickup.

    Picking up is a move only with cards in hand (even with a legal play); at the table (hand and
    stock empty) the player lifts a card, which is played or, if it does not fit, taken with the pile."""
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
    if position.pile and hand:  # at the table a lifted card is played (or taken with the pile): no plain pick-up
        moves.append(PICKUP)
    return moves


def apply(position: Position, move: Move) -> Position:
    """The table after `move` (pure). Raises IllegalMoveError if it is not legal here."""
    over = outcome(position)
    if over is not None:
        raise IllegalMoveError(f"{move}: the game is over ({over.note})")
    if move not in legal_moves(position):
        raise IllegalMoveError(
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
        if not position.pile:
            return "the pile is empty"
        return ("playing from the table, a card is lifted and played (up:RANK or down:N); one that does not "
                "fit is taken with the pile: there is no plain pick-up")
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




def replay(position: Position, line: str | Sequence[str]) -> tuple[Position, tuple[Move, ...]]:
    """Play a line of moves (text); errors name the move's 1-based index."""
    return notation.play_line(position, line, parse_move, apply)