"""Six-card Golf rules (docs/rules/golf.md): positions, moves, scoring, match totals. No search.

A position is an immutable value (a NamedTuple, so building one in the solver's hot loop is
cheap): every seat's six cards and which are face up, the stock (next card first), the discard
pile (bottom → top), who moves, who went out first, and — because a repeated position ends the
round — the positions seen since the last irreversible move. Cards are ints 0…51 inside (the
standard deck index: suit × 13 + rank − 1) and two-character strings at the boundary.

Moves are atomic, because every card is known to a double-dummy solver: ``F1+5`` turns up
slots 1 and 5 at the set-up, ``D3`` takes the discard and swaps it into slot 3, ``S3`` takes
the stock card into slot 3, ``SX`` takes the stock card and discards it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from halfmoon.dealcodes import Card, CardError, parse_card
from halfmoon.dealcodes.golf import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    GolfDeal,
    golf_deal_from_code,
)
from halfmoon.solver.errors import InputError, MoveError, PositionError
from halfmoon.solver.games import notation

FULL_HAND = (1 << HAND_SIZE) - 1
NO_SEAT = -1
MATCH_ROUNDS = 9

ENDED_LAST_TURNS = "last turns played"
ENDED_STOCK = "stock exhausted"
ENDED_REPETITION = "repeated position"


# -- cards as ints ------------------------------------------------------------------------------


def card_code(card: Card) -> int:
    return card.suit * 13 + card.rank - 1


def code_card(code: int) -> Card:
    return Card(code % 13 + 1, code // 13)


def card_text(code: int) -> str:
    return str(code_card(code))


def card_value(code: int, minus_two: bool = False) -> int:
    """A single card's points: A 1, 2-10 face value (2 is -2 in the house variant), J/Q 10, K 0."""
    rank = code % 13 + 1
    if rank == 13:
        return 0
    if rank >= 10:
        return 10
    if rank == 2 and minus_two:
        return -2
    return rank


_VALUES = (tuple(card_value(c) for c in range(52)), tuple(card_value(c, True) for c in range(52)))
_RANKS = tuple(c % 13 for c in range(52))


def hand_score(cards: Sequence[int], minus_two: bool = False) -> int:
    """Six cards (slots 1-6) scored: each column (slots c, c+3) of equal ranks is 0, else the sum."""
    values = _VALUES[minus_two]
    total = 0
    for c in range(3):
        a, b = cards[c], cards[c + 3]
        if _RANKS[a] != _RANKS[b]:
            total += values[a] + values[b]
    return total


# -- moves --------------------------------------------------------------------------------------


class Move(NamedTuple):
    """``F`` (set-up: turn up slots a and b), ``D`` (discard into slot a), ``S`` (stock into
    slot a, or a = -1: discard the stock card). Slots are 0-based here, 1-based in text."""

    kind: str
    a: int
    b: int = -1

    def __str__(self) -> str:
        if self.kind == "F":
            return f"F{self.a + 1}+{self.b + 1}"
        if self.kind == "S" and self.a < 0:
            return "SX"
        return f"{self.kind}{self.a + 1}"

    @classmethod
    def parse(cls, text: str) -> Move:
        return parse_move(text)


_MOVE_RE = re.compile(r"^(?:(F)([1-6])\+?([1-6])|([DS])([1-6])|(S)X)$", re.IGNORECASE)


def parse_move(text: str) -> Move:
    """Read ``F1+5`` (or ``F15``), ``D3``, ``S3`` or ``SX`` in any case."""
    token = text.strip()
    match = _MOVE_RE.match(token)
    if not match:
        raise MoveError(
            f"unknown move {token!r}: expected F<slot>+<slot> (set-up), D<slot> (take the discard), "
            f"S<slot> (take the stock card) or SX (discard the stock card), slots 1-6"
        )
    if match.group(1):
        a, b = int(match.group(2)) - 1, int(match.group(3)) - 1
        if a == b:
            raise MoveError(f"move {token!r}: the two set-up cards must be different slots")
        return Move("F", min(a, b), max(a, b))
    if match.group(4):
        return Move(match.group(4).upper(), int(match.group(5)) - 1)
    return Move("S", -1)


SETUP_MOVES = tuple(Move("F", a, b) for a, b in combinations(range(HAND_SIZE), 2))
DISCARD_MOVES = tuple(Move("D", k) for k in range(HAND_SIZE))
STOCK_MOVES = tuple(Move("S", k) for k in range(HAND_SIZE)) + (Move("S", -1),)


# -- the result ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundResult:
    """How a round ended: every seat's score and finishing place (0 best; ties share a place).

    Shaped like the core's `Outcome` (places, scores, low_wins, note) so its questions apply.
    """

    scores: tuple[int, ...]
    reason: str

    @property
    def places(self) -> tuple[int, ...]:
        return tuple(sum(other < mine for other in self.scores) for mine in self.scores)

    @property
    def low_wins(self) -> bool:
        return True

    @property
    def note(self) -> str:
        return self.reason

    @property
    def last_place(self) -> int:
        return max(self.places)

    def to_json(self) -> dict[str, Any]:
        return {"places": list(self.places), "scores": list(self.scores), "low_wins": True, "note": self.reason}


# -- positions ------------------------------------------------------------------------------------


class Position(NamedTuple):
    """One moment of a round. Build from JSON, a deal, or `apply`; never mutate.

    `hands` is flat: seat p's slot k (0-based) is ``hands[6p + k]``; bit ``6p + k`` of `up` says it
    is face up. `seen` holds `component_key` of every position since the last irreversible move
    (a stock draw, a face-down card turned, a set-up move): only those can come back.
    """

    hands: tuple[int, ...]
    up: int
    stock: tuple[int, ...]
    discard: tuple[int, ...]
    to_move: int
    ender: int = NO_SEAT
    minus_two: bool = False
    seen: frozenset[bytes] = frozenset()
    repeated: bool = False

    # -- reading ------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.hands) // HAND_SIZE

    def hand(self, seat: int) -> tuple[int, ...]:
        return self.hands[HAND_SIZE * seat : HAND_SIZE * (seat + 1)]

    def up_mask(self, seat: int) -> int:
        return (self.up >> (HAND_SIZE * seat)) & FULL_HAND

    @property
    def in_setup(self) -> bool:
        """The set-up: the player to move has not turned up any card yet."""
        return self.up_mask(self.to_move) == 0

    def score(self, seat: int) -> int:
        return hand_score(self.hand(seat), self.minus_two)

    def scores(self) -> tuple[int, ...]:
        return tuple(self.score(seat) for seat in range(self.players))

    def component_key(self) -> bytes:
        """What can differ between positions that are not separated by an irreversible move:
        every seat's cards, the discard top and the player to move. The repetition test."""
        top = self.discard[-1] if self.discard else 255
        return bytes(self.hands) + bytes((top, self.to_move))

    def ended(self) -> str | None:
        """Why the round is over (one of the ENDED_* texts), or None while it goes on."""
        if self.repeated:
            return ENDED_REPETITION
        if not self.stock:
            return ENDED_STOCK
        if self.ender >= 0 and self.to_move == self.ender:
            return ENDED_LAST_TURNS
        return None

    def result(self) -> RoundResult | None:
        reason = self.ended()
        return None if reason is None else RoundResult(self.scores(), reason)

    # -- moves --------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move in canonical order: F (set-up) or D1-D6, S1-S6, SX."""
        if self.ended() is not None:
            return []
        if self.in_setup:
            return list(SETUP_MOVES)
        moves = list(DISCARD_MOVES) if self.discard else []
        return moves + list(STOCK_MOVES)

    def why_illegal(self, move: Move) -> str | None:
        reason = self.ended()
        if reason is not None:
            return f"the round is over ({reason})"
        if self.in_setup != (move.kind == "F"):
            if self.in_setup:
                return f"seat {self.to_move + 1} must first turn up two cards (F<slot>+<slot>)"
            return "the set-up is over: turning up cards without a swap is not a move"
        if move.kind == "D" and not self.discard:
            return "the discard pile is empty"
        return None

    def apply(self, move: Move) -> Position:
        """The position after `move`; raises MoveError if it is not legal here."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise MoveError(f"move {move}: {reason}")
        return self.play(move)

    def play(self, move: Move) -> Position:
        """`apply` without the legality check: the solver's hot path (moves from `legal_moves`)."""
        seat = self.to_move
        n = len(self.hands) // HAND_SIZE
        base = HAND_SIZE * seat
        hands, up, stock, discard = self.hands, self.up, self.stock, self.discard
        reversible = False
        kind = move.kind
        if kind == "F":
            up |= (1 << (base + move.a)) | (1 << (base + move.b))
        elif kind == "D":
            slot = base + move.a
            bit = 1 << slot
            reversible = bool(up & bit)
            old = hands[slot]
            hands = hands[:slot] + (discard[-1],) + hands[slot + 1 :]
            discard = discard[:-1] + (old,)
            up |= bit
        elif move.a < 0:
            discard = discard + (stock[0],)
            stock = stock[1:]
        else:
            slot = base + move.a
            old = hands[slot]
            hands = hands[:slot] + (stock[0],) + hands[slot + 1 :]
            stock = stock[1:]
            discard = discard + (old,)
            up |= 1 << slot
        ender = self.ender
        if ender < 0 and kind != "F" and (up >> base) & FULL_HAND == FULL_HAND:
            ender = seat
        nxt = seat + 1 if seat + 1 < n else 0
        if reversible:
            seen = self.seen | {self.component_key()}
            child = Position(hands, up, stock, discard, nxt, ender, self.minus_two, seen, False)
            if child.component_key() in seen:
                return child._replace(repeated=True)
            return child
        return Position(hands, up, stock, discard, nxt, ender, self.minus_two, frozenset(), False)

    def describe(self, move: Move) -> str:
        """The move with its cards, e.g. ``D3 (takes 5H, gives 9C)``."""
        seat = self.to_move
        if move.kind == "F":
            a, b = self.hands[6 * seat + move.a], self.hands[6 * seat + move.b]
            return f"{move} (turns up {card_text(a)} {card_text(b)})"
        taken = self.discard[-1] if move.kind == "D" else self.stock[0]
        if move.a < 0:
            return f"{move} (draws {card_text(taken)}, discards it)"
        given = self.hands[6 * seat + move.a]
        hidden = "" if self.up >> (6 * seat + move.a) & 1 else " face down"
        verb = "takes" if move.kind == "D" else "draws"
        return f"{move} ({verb} {card_text(taken)}, gives{hidden} {card_text(given)})"

    # -- JSON ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The documented position shape (docs/rules/golf.md); `from_json` reads it back."""
        return {
            "game": "golf",
            "minus_two": self.minus_two,
            "hands": [
                {
                    "cards": [card_text(c) for c in self.hand(seat)],
                    "up": [k + 1 for k in range(HAND_SIZE) if self.up_mask(seat) >> k & 1],
                }
                for seat in range(self.players)
            ],
            "stock": [card_text(c) for c in self.stock],
            "discard": [card_text(c) for c in self.discard],
            "to_move": self.to_move,
            "last_turn_from": None if self.ender < 0 else self.ender,
            "history": sorted(self._history_text(key) for key in self.seen),
            "repeated": self.repeated,
            "ended": self.ended(),
        }

    def _history_text(self, key: bytes) -> str:
        n = self.players
        hands = "/".join(
            "".join(card_text(c) for c in key[HAND_SIZE * p : HAND_SIZE * (p + 1)]) for p in range(n)
        )
        top = "--" if key[-2] == 255 else card_text(key[-2])
        return f"{key[-1]}:{top}:{hands}"

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read the documented shape; every inconsistency is a PositionError naming where."""
        return _position_from_json(data)

    # -- constructors -------------------------------------------------------------------------

    @classmethod
    def from_deal(cls, deal: GolfDeal, minus_two: bool = False) -> Position:
        """The set-up position of a dealt round: all cards face down, seat 0 to turn up two."""
        hands = tuple(card_code(card) for hand in deal.hands for card in hand)
        stock = tuple(card_code(card) for card in deal.stock)
        return cls(hands, 0, stock, (card_code(deal.discard),), 0, NO_SEAT, minus_two)

    @classmethod
    def from_code(cls, code: str, minus_two: bool = False) -> Position:
        return cls.from_deal(golf_deal_from_code(code), minus_two)

    def __str__(self) -> str:
        """A compact picture for logs: hands (face-down cards in lower case), discard top, stock."""
        parts = []
        for seat in range(self.players):
            mask = self.up_mask(seat)
            cards = [card_text(c) if mask >> k & 1 else card_text(c).lower() for k, c in enumerate(self.hand(seat))]
            mark = ">" if seat == self.to_move else " "
            parts.append(f"{mark}{seat}: {' '.join(cards[:3])} / {' '.join(cards[3:])}")
        top = card_text(self.discard[-1]) if self.discard else "--"
        return f"{' | '.join(parts)} | discard {top} | stock {len(self.stock)}"


def _position_from_json(data: Any) -> Position:
    if not isinstance(data, Mapping):
        raise PositionError("golf position: expected a JSON object with 'hands', 'stock', 'discard', 'to_move'")
    for key in ("hands", "stock", "discard", "to_move"):
        if key not in data:
            raise PositionError(f"golf position: missing key {key!r}")
    if data.get("game", "golf") != "golf":
        raise PositionError(f"golf position: 'game' is {data.get('game')!r}, expected 'golf'")
    minus_two = data.get("minus_two", False)
    if not isinstance(minus_two, bool):
        raise PositionError("golf position: 'minus_two' must be true or false")
    raw_hands = data["hands"]
    if not isinstance(raw_hands, list) or not MIN_PLAYERS <= len(raw_hands) <= MAX_PLAYERS:
        raise PositionError(f"golf position: 'hands' must be a list of {MIN_PLAYERS}-{MAX_PLAYERS} hands")
    hands: list[int] = []
    up = 0
    for seat, hand in enumerate(raw_hands):
        where = f"hands[{seat}]"
        if not isinstance(hand, Mapping) or "cards" not in hand or "up" not in hand:
            raise PositionError(f"{where}: expected an object with 'cards' (6 cards) and 'up' (slots 1-6 face up)")
        cards = hand["cards"]
        if not isinstance(cards, list) or len(cards) != HAND_SIZE:
            raise PositionError(f"{where}.cards: expected a list of {HAND_SIZE} cards (slots 1-6)")
        hands += [_json_card(c, f"{where}.cards[{k}]") for k, c in enumerate(cards)]
        slots = hand["up"]
        if not isinstance(slots, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in slots):
            raise PositionError(f"{where}.up: expected a list of slot numbers 1-6")
        for slot in slots:
            if not 1 <= slot <= HAND_SIZE:
                raise PositionError(f"{where}.up: slot {slot} is not 1-6")
            if up >> (HAND_SIZE * seat + slot - 1) & 1:
                raise PositionError(f"{where}.up: slot {slot} is listed twice")
            up |= 1 << (HAND_SIZE * seat + slot - 1)
    n = len(raw_hands)
    stock = _json_cards(data["stock"], "stock")
    discard = _json_cards(data["discard"], "discard")
    everything = hands + list(stock) + list(discard)
    if len(set(everything)) != len(everything):
        twice = sorted({card_text(c) for c in everything if everything.count(c) > 1})
        raise PositionError(f"golf position: card(s) {' '.join(twice)} appear more than once (one deck)")
    to_move = data["to_move"]
    if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < n:
        raise PositionError(f"golf position: 'to_move' must be a seat 0-{n - 1}")
    ender = data.get("last_turn_from")
    if ender is None:
        ender = NO_SEAT
    elif isinstance(ender, bool) or not isinstance(ender, int) or not 0 <= ender < n:
        raise PositionError(f"golf position: 'last_turn_from' must be null or a seat 0-{n - 1}")
    repeated = data.get("repeated", False)
    if not isinstance(repeated, bool):
        raise PositionError("golf position: 'repeated' must be true or false")
    position = Position(tuple(hands), up, stock, discard, to_move, ender, minus_two, frozenset(), repeated)
    _check_phase(position)
    history = data.get("history", [])
    if not isinstance(history, list):
        raise PositionError("golf position: 'history' must be a list of earlier positions")
    seen = frozenset(_history_key(position, entry, f"history[{i}]") for i, entry in enumerate(history))
    position = position._replace(seen=seen)
    here = position.component_key() in seen
    if here != repeated:
        raise PositionError(
            "golf position: 'repeated' must be true exactly when the position itself is in 'history'"
        )
    return position


def _check_phase(position: Position) -> None:
    """The set-up turns seats up in order 0, 1, …; in play every seat has at least 2 cards up."""
    n = position.players
    masks = [position.up_mask(seat) for seat in range(n)]
    if position.in_setup:
        for seat, mask in enumerate(masks):
            want = 2 if seat < position.to_move else 0
            if bin(mask).count("1") != want:
                raise PositionError(
                    f"golf position: in the set-up seats before seat {position.to_move} have 2 cards up and the "
                    f"others none, but seat {seat} has {bin(mask).count('1')}"
                )
        if position.ender >= 0 or position.seen or position.repeated:
            raise PositionError("golf position: a set-up position has no last turn and no history")
        return
    for seat, mask in enumerate(masks):
        if bin(mask).count("1") < 2:
            raise PositionError(f"golf position: seat {seat} has fewer than 2 cards up after the set-up")
        if mask == FULL_HAND and position.ender < 0:
            raise PositionError(
                f"golf position: seat {seat} has all 6 cards up, so 'last_turn_from' must name who went out first"
            )
    if position.ender >= 0 and masks[position.ender] != FULL_HAND:
        raise PositionError(f"golf position: last_turn_from seat {position.ender} does not have all 6 cards up")


def _history_key(position: Position, entry: Any, where: str) -> bytes:
    """Parse ``"<to_move>:<discard top>:<hand>/<hand>…"``, each hand six two-character cards."""
    if not isinstance(entry, str) or entry.count(":") != 2:
        raise PositionError(f"{where}: expected '<seat>:<discard top>:<hand>/<hand>…', got {entry!r}")
    seat_text, top_text, hands_text = entry.split(":")
    n = position.players
    if not seat_text.isdigit() or int(seat_text) >= n:
        raise PositionError(f"{where}: seat {seat_text!r} is not 0-{n - 1}")
    chunks = hands_text.split("/")
    if len(chunks) != n or any(len(chunk) != 2 * HAND_SIZE for chunk in chunks):
        raise PositionError(f"{where}: expected {n} hands of six two-character cards joined by '/'")
    hands = [_json_card(chunk[i : i + 2], where) for chunk in chunks for i in range(0, 2 * HAND_SIZE, 2)]
    top = 255 if top_text == "--" else _json_card(top_text, where)
    if not position.discard and top != 255 or position.discard and top == 255:
        raise PositionError(f"{where}: the discard top must be a card exactly when the discard pile is not empty")
    current = list(position.hands) + ([position.discard[-1]] if position.discard else [])
    if sorted(hands + ([top] if top != 255 else [])) != sorted(current):
        raise PositionError(f"{where}: holds other cards than the hands and discard top of the position")
    for i, (was, now) in enumerate(zip(hands, position.hands)):
        if not position.up >> i & 1 and was != now:
            raise PositionError(f"{where}: face-down cards cannot move without an irreversible move")
    if position.in_setup:
        raise PositionError(f"{where}: a set-up position has no history")
    return bytes(hands) + bytes((top, int(seat_text)))


def _json_card(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise PositionError(f"{where}: expected a card such as '5S', got {value!r}")
    try:
        return card_code(parse_card(value))
    except CardError as error:
        raise PositionError(f"{where}: {error}") from None


def _json_cards(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise PositionError(f"golf position: {where!r} must be a list of cards")
    return tuple(_json_card(card, f"{where}[{i}]") for i, card in enumerate(value))


# -- lines ----------------------------------------------------------------------------------------


def replay(start: Position, line: str | Iterable[str | Move]) -> tuple[Position, tuple[Move, ...]]:
    """Play a line; the first move that cannot be read or played raises LineError."""
    return notation.play_line(start, line, parse_move, Position.apply)


# -- matches --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """Round scores added up over a match: 9 rounds, or 1 in the one-round house variant.
    The lowest total wins; equal lowest totals share the win."""

    players: int
    rounds: int = MATCH_ROUNDS
    played: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InputError(f"match: {self.players} players, expected {MIN_PLAYERS}-{MAX_PLAYERS}")
        if self.rounds not in (1, MATCH_ROUNDS):
            raise InputError(f"match: {self.rounds} rounds, expected {MATCH_ROUNDS} (or 1, the house variant)")

    def add(self, scores: Sequence[int]) -> Match:
        if self.over:
            raise InputError(f"match: all {self.rounds} rounds are already played")
        if len(scores) != self.players:
            raise InputError(f"match round {len(self.played) + 1}: {len(scores)} scores for {self.players} players")
        return Match(self.players, self.rounds, self.played + (tuple(scores),))

    @property
    def over(self) -> bool:
        return len(self.played) >= self.rounds

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r[seat] for r in self.played) for seat in range(self.players))

    def first_seat(self, round_number: int) -> int:
        """Who plays first in round `round_number` (1-based): the deal passes to the left, so the
        seat left of the dealer moves on by one each round."""
        return (round_number - 1) % self.players

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.over:
            raise InputError(f"match: {len(self.played)} of {self.rounds} rounds played, no winner yet")
        best = min(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best)
