"""Readable, immutable Eight-and-a-half positions and moves, with text and JSON forms.

These are the values at the boundary (files, the command line, tests). The solver works on the
packed form in `engine.py`; `engine.encode` / `engine.decode` convert both ways exactly.

Text form of a position (round-trips, ``Position.parse(str(p)) == p``)::

    78H/359/D12/- ; 456/222/000/40#3* | 3HD | 1

Seats are separated by ``;``; each is ``hand/open/blind/bank`` (cards as one character each:
``0``-``9``, ``H`` for ½, ``D`` for Demon; ``-`` for none; the bank in draw order), then
``#N`` if the seat has set N eaten cards aside, and ``*`` once it has started on the table
(eating then goes into the hand). After the first ``|`` comes the pile, bottom → top; after
the second the 0-based seat to move.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple

from halfmoon.dealcodes.eight_and_a_half import (
    COPIES,
    DECK_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SYMBOLS,
    EHCard,
    EHCardError,
    EHDeal,
    format_eh_cards,
    parse_eh_card,
    parse_eh_cards,
)
from halfmoon.solver.errors import (
    IllegalMoveError,
    LineError,
    MoveError,
    PositionError,
)
from halfmoon.solver.games import notation

from .rules import NONE, format_value, is_catch, is_offence, pile_state

GAME_NAME = "eight-and-a-half"
HAND_SIZE = 3
MAX_BANK = 63  # cards a bank may hold (the packed form keeps 64 four-bit slots)


# -- moves -------------------------------------------------------------------------------------

HAND, COMBO, OPEN, BLIND, EAT = range(5)
KIND_NAMES = ("hand", "combo", "open", "blind", "eat")


class Move(NamedTuple):
    """One turn. `kind` is HAND (`count` cards of `face` from the hand), COMBO (8 and ½ from the
    hand as one card), OPEN (one open table card), BLIND (the face-down card of that face: the
    solver knows every card) or EAT (no legal play: take the pile).

    Text: ``7``, ``77`` (two 7s), ``HH``, ``8+H`` (the pair), ``o7`` (open 7), ``b7`` (blind
    card that is a 7), ``eat``. Values are interned: use `hand_move`, `COMBO_MOVE`, ….
    """

    kind: int
    face: int
    count: int  # type: ignore[assignment]  # the field shadows tuple.count on purpose (cards played)

    def __str__(self) -> str:
        kind = self.kind
        if kind == HAND:
            return SYMBOLS[self.face] * self.count
        if kind == COMBO:
            return "8+H"
        if kind == OPEN:
            return "o" + SYMBOLS[self.face]
        if kind == BLIND:
            return "b" + SYMBOLS[self.face]
        return "eat"

    def pretty(self) -> str:
        """The move with ½ for the half, e.g. ``½½`` or ``8+½``."""
        return str(self).replace("H", "½")

    @property
    def cards(self) -> tuple[EHCard, ...]:
        """The cards the move puts on the pile, in the order they land (none for eat)."""
        if self.kind == HAND:
            return (EHCard(self.face),) * self.count
        if self.kind == COMBO:
            return (EHCard.HALF, EHCard.EIGHT)
        if self.kind in (OPEN, BLIND):
            return (EHCard(self.face),)
        return ()

    @classmethod
    def parse(cls, text: str) -> Move:
        return parse_move(text)


MAX_COPIES = max(COPIES)
HAND_MOVES: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(HAND, face, count) for count in range(MAX_COPIES + 1)) for face in range(12)
)
OPEN_MOVES: tuple[Move, ...] = tuple(Move(OPEN, face, 1) for face in range(12))
BLIND_MOVES: tuple[Move, ...] = tuple(Move(BLIND, face, 1) for face in range(12))
COMBO_MOVE = Move(COMBO, int(EHCard.EIGHT), 1)
EAT_MOVE = Move(EAT, 0, 0)
_COMBO_SPELLINGS = {"8+H", "H+8", "8H", "H8", "8½", "½8", "8+½", "½+8"}


def hand_move(face: int | EHCard, count: int = 1) -> Move:
    return HAND_MOVES[int(face)][count]


def parse_move(text: str) -> Move:
    """Read one move in the notation above (any case; ``½`` for ``H``)."""
    if not isinstance(text, str):
        raise MoveError(f"move {text!r}: expected text such as '7', '77', '8+H', 'o7', 'b7' or 'eat'")
    token = "".join(text.split()).upper()
    if not token:
        raise MoveError("empty move: expected e.g. '7', '77', '8+H', 'o7', 'b7' or 'eat'")
    if token in ("EAT", "X", "TAKE"):
        return EAT_MOVE
    if token in _COMBO_SPELLINGS:
        return COMBO_MOVE
    try:
        if token[0] in "OB" and len(token) >= 2:
            if len(token) != 2 and token[1:] not in ("½", "1/2"):
                raise MoveError(
                    f"move {text.strip()!r}: a table move plays one card, e.g. 'o7' or 'b7'"
                )
            face = parse_eh_card(token[1:])
            return (OPEN_MOVES if token[0] == "O" else BLIND_MOVES)[face]
        faces = parse_eh_cards(token)
    except EHCardError as error:
        raise MoveError(f"move {text.strip()!r}: {error}") from None
    if not faces:
        raise MoveError(f"move {text.strip()!r}: expected cards such as '7' or '77'")
    if len(set(faces)) != 1:
        raise MoveError(
            f"move {text.strip()!r}: cards played together must be identical (or the pair 8+H)"
        )
    if len(faces) > COPIES[faces[0]]:
        raise MoveError(f"move {text.strip()!r}: there are only {COPIES[faces[0]]} cards {faces[0]}")
    return HAND_MOVES[faces[0]][len(faces)]


def parse_line(text: str) -> list[Move]:
    return notation.parse_line(text, parse_move, split_line)


def split_line(text: str) -> list[str]:
    """A line of moves separated by commas and/or white space (``8 + H`` stays one move)."""
    return notation.split_line(re.sub(r"\s*\+\s*", "+", text.strip()))


# -- positions ---------------------------------------------------------------------------------


def _card(card: EHCard | int | str) -> EHCard:
    """A card given as an EHCard, its face number 0-11, or its text (``7``, ``H``, ``½``, ``D``)."""
    if isinstance(card, str):
        return parse_eh_card(card)
    return EHCard(int(card))


def _sorted_cards(cards: Iterable[EHCard | int | str]) -> tuple[EHCard, ...]:
    return tuple(sorted(_card(c) for c in cards))


@dataclass(frozen=True)
class Seat:
    """One player's cards. `hand`, `open` and `blind` are multisets (kept sorted); `bank` is in
    draw order; `eaten` counts cards set aside by eating; `table` is True once the player has
    reached the table (bank and hand both empty), from when on eating goes into the hand."""

    hand: tuple[EHCard, ...] = ()
    open: tuple[EHCard, ...] = ()
    blind: tuple[EHCard, ...] = ()
    bank: tuple[EHCard, ...] = ()
    eaten: int = 0
    table: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand", _sorted_cards(self.hand))
        object.__setattr__(self, "open", _sorted_cards(self.open))
        object.__setattr__(self, "blind", _sorted_cards(self.blind))
        object.__setattr__(self, "bank", tuple(_card(c) for c in self.bank))
        if isinstance(self.eaten, bool) or not isinstance(self.eaten, int) or not 0 <= self.eaten <= DECK_SIZE:
            raise PositionError(f"eaten {self.eaten!r}: expected a whole number 0-{DECK_SIZE}")
        # Reaching the table is a fact of the cards: bank and hand empty means the player is there.
        object.__setattr__(self, "table", bool(self.table) or (not self.bank and not self.hand))

    @property
    def cards_left(self) -> int:
        """Cards not yet played (hand, open, blind, bank)."""
        return len(self.hand) + len(self.open) + len(self.blind) + len(self.bank)

    @property
    def is_out(self) -> bool:
        return self.cards_left == 0

    def all_cards(self) -> list[EHCard]:
        return [*self.hand, *self.open, *self.blind, *self.bank]

    def __str__(self) -> str:
        parts = "/".join(format_eh_cards(cards) for cards in (self.hand, self.open, self.blind, self.bank))
        return parts + (f"#{self.eaten}" if self.eaten else "") + ("*" if self.table else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": [str(c) for c in self.hand],
            "open": [str(c) for c in self.open],
            "blind": [str(c) for c in self.blind],
            "bank": [str(c) for c in self.bank],
            "eaten": self.eaten,
            "table": self.table,
        }


_SEAT_RE = re.compile(r"^(?P<cards>[^#*]*)(?:#(?P<eaten>\d+))?(?P<table>\*)?$")


@dataclass(frozen=True)
class Position:
    """The whole table: every seat, the pile (bottom → top) and the seat to move (0-based).

    The pile's value, the five rule and the offender are read from the pile: the offender is
    the player before the one to move, when the pile stands at X½ with X ≤ 8.
    """

    seats: tuple[Seat, ...]
    pile: tuple[EHCard, ...] = ()
    to_move: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        object.__setattr__(self, "pile", tuple(_card(c) for c in self.pile))
        players = len(self.seats)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise PositionError(f"position has {players} seats: Eight and a half is for 2-5 players")
        if isinstance(self.to_move, bool) or not isinstance(self.to_move, int) or not 0 <= self.to_move < players:
            raise PositionError(f"to_move {self.to_move!r}: expected a seat 0-{players - 1}")
        counts: Counter[EHCard] = Counter(self.pile)
        for number, seat in enumerate(self.seats):
            if not isinstance(seat, Seat):
                raise PositionError(f"seat {number}: expected a Seat, got {type(seat).__name__}")
            counts.update(seat.all_cards())
            if seat.bank and len(seat.hand) != HAND_SIZE:
                raise PositionError(
                    f"seat {number}: holds {len(seat.hand)} hand cards with cards left in the bank;"
                    f" the hand is always refilled to {HAND_SIZE} while the bank lasts"
                )
            if len(seat.bank) > MAX_BANK:
                raise PositionError(f"seat {number}: bank of {len(seat.bank)} cards, at most {MAX_BANK}")
        for face, count in counts.items():
            if count > COPIES[face]:
                raise PositionError(
                    f"position holds {count} cards {face}: the deck has only {COPIES[face]}"
                )
        total = sum(counts.values()) + sum(seat.eaten for seat in self.seats)
        if total > DECK_SIZE:
            raise PositionError(f"position holds {total} cards counting eaten ones: the deck has {DECK_SIZE}")
        out = [n for n, seat in enumerate(self.seats) if seat.is_out]
        if len(out) > 1:
            raise PositionError(f"seats {out} are all out of cards: the game ends when the first goes out")

    # -- reading the table -------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def pile_v2(self) -> int:
        """The pile's value in half steps (`rules.NONE` without a value)."""
        return pile_state(self.pile)[0]

    @property
    def pile_value(self) -> str:
        return format_value(self.pile_v2)

    @property
    def offender(self) -> int | None:
        """The seat that left the pile at X½ (X ≤ 8) and may be caught now, if any."""
        if self.winner is None and is_offence(self.pile_v2):
            return (self.to_move - 1) % self.players
        return None

    @property
    def winner(self) -> int | None:
        """The seat that went out first, if the game is over."""
        for number, seat in enumerate(self.seats):
            if seat.is_out:
                return number
        return None

    @property
    def banks_empty(self) -> bool:
        """Every bank is empty: the endgame (only hands and table cards are left)."""
        return all(not seat.bank for seat in self.seats)

    # -- dealing -----------------------------------------------------------------------------

    @classmethod
    def from_deal(cls, deal: EHDeal) -> Position:
        """The table before the first move: the opener is to move on an empty pile."""
        seats = tuple(Seat(s.hand, s.open, s.blind, s.bank) for s in deal.seats)
        return cls(seats, (), first_player(seats))

    # -- text and JSON -----------------------------------------------------------------------

    def __str__(self) -> str:
        seats = " ; ".join(str(seat) for seat in self.seats)
        return f"{seats} | {format_eh_cards(self.pile)} | {self.to_move}"

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read the text form (see the module docstring)."""
        if not isinstance(text, str) or text.count("|") != 2:
            raise PositionError("position text: expected 'seat ; seat … | pile | seat to move' with two '|'")
        seats_text, pile_text, turn_text = text.split("|")
        seats = []
        for number, chunk in enumerate(seats_text.split(";")):
            seats.append(_parse_seat(chunk.strip(), number))
        try:
            pile = parse_eh_cards(pile_text)
        except EHCardError as error:
            raise PositionError(f"position text, pile: {error}") from None
        if not turn_text.strip().isdigit():
            raise PositionError(f"position text: seat to move {turn_text.strip()!r} is not a seat number")
        return cls(tuple(seats), pile, int(turn_text.strip()))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_NAME,
            "players": self.players,
            "to_move": self.to_move,
            "pile": [str(c) for c in self.pile],
            "seats": [seat.to_json() for seat in self.seats],
        }

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read the JSON shape of `to_json`; errors name the field that is wrong."""
        if not isinstance(data, dict):
            raise PositionError("position JSON: expected an object with 'seats', 'pile' and 'to_move'")
        unknown = set(data) - {"game", "players", "to_move", "pile", "seats"}
        if unknown:
            raise PositionError(f"position JSON: unknown field(s) {', '.join(sorted(unknown))}")
        if data.get("game", GAME_NAME) != GAME_NAME:
            raise PositionError(f"position JSON: game {data['game']!r}, expected {GAME_NAME!r}")
        seats_data = data.get("seats")
        if not isinstance(seats_data, list):
            raise PositionError("position JSON: 'seats' must be a list of seat objects")
        if "players" in data and data["players"] != len(seats_data):
            raise PositionError(f"position JSON: 'players' is {data['players']!r} but {len(seats_data)} seats are given")
        seats = tuple(_seat_from_json(seat, n) for n, seat in enumerate(seats_data))
        pile = _cards_from_json(data.get("pile", []), "pile")
        return cls(seats, pile, data.get("to_move", 0))


def _parse_seat(chunk: str, number: int) -> Seat:
    match = _SEAT_RE.match(chunk)
    if not match:
        raise PositionError(f"position text, seat {number}: {chunk!r} is not 'hand/open/blind/bank[#eaten][*]'")
    parts = match.group("cards").split("/")
    if not 3 <= len(parts) <= 4:
        raise PositionError(
            f"position text, seat {number}: {chunk!r} has {len(parts)} parts, expected hand/open/blind[/bank]"
        )
    try:
        cards = [parse_eh_cards(part) for part in parts]
    except EHCardError as error:
        raise PositionError(f"position text, seat {number}: {error}") from None
    bank = cards[3] if len(cards) == 4 else ()
    eaten = int(match.group("eaten")) if match.group("eaten") else 0
    return Seat(cards[0], cards[1], cards[2], bank, eaten, bool(match.group("table")))


def _cards_from_json(value: Any, where: str) -> tuple[EHCard, ...]:
    if isinstance(value, str):
        try:
            return parse_eh_cards(value)
        except EHCardError as error:
            raise PositionError(f"position JSON, {where}: {error}") from None
    if not isinstance(value, list):
        raise PositionError(f"position JSON, {where}: expected a list of cards such as [\"7\", \"H\", \"D\"]")
    cards = []
    for index, item in enumerate(value):
        if isinstance(item, int) and not isinstance(item, bool) and 0 <= item <= 9:
            item = str(item)
        try:
            cards.append(parse_eh_card(item))
        except EHCardError as error:
            raise PositionError(f"position JSON, {where}[{index}]: {error}") from None
    return tuple(cards)


def _seat_from_json(data: Any, number: int) -> Seat:
    where = f"seats[{number}]"
    if not isinstance(data, dict):
        raise PositionError(f"position JSON, {where}: expected an object with hand, open, blind, bank")
    unknown = set(data) - {"hand", "open", "blind", "bank", "eaten", "table"}
    if unknown:
        raise PositionError(f"position JSON, {where}: unknown field(s) {', '.join(sorted(unknown))}")
    parts = {name: _cards_from_json(data.get(name, []), f"{where}.{name}") for name in ("hand", "open", "blind", "bank")}
    eaten = data.get("eaten", 0)
    if isinstance(eaten, bool) or not isinstance(eaten, int):
        raise PositionError(f"position JSON, {where}.eaten: expected a whole number, got {eaten!r}")
    table = data.get("table", False)
    if not isinstance(table, bool):
        raise PositionError(f"position JSON, {where}.table: expected true or false, got {table!r}")
    try:
        return Seat(parts["hand"], parts["open"], parts["blind"], parts["bank"], eaten, table)
    except PositionError as error:
        raise PositionError(f"position JSON, {where}: {error}") from None


def first_player(seats: tuple[Seat, ...]) -> int:
    """Who opens the first round: the lowest number card in hand (0 lowest, jokers ½ and Demon
    do not count), ties to the earlier seat; seat 0 if nobody holds a number card."""
    best: tuple[int, int] | None = None
    for number, seat in enumerate(seats):
        numbers = [int(c) for c in seat.hand if c.is_number]
        if numbers and (best is None or min(numbers) < best[0]):
            best = (min(numbers), number)
    return best[1] if best is not None else 0


def describe(position: Position) -> str:
    """Several lines for people: each seat's cards, the pile and what it stands at."""
    lines = []
    for number, seat in enumerate(position.seats):
        marker = ">" if number == position.to_move and position.winner is None else " "
        status = " (out: winner)" if seat.is_out else (" (at the table)" if seat.table else "")
        lines.append(
            f"{marker} player {number}: hand {_pretty(seat.hand)}  open {_pretty(seat.open)}  "
            f"blind {_pretty(seat.blind)}  bank {len(seat.bank)}  eaten {seat.eaten}{status}"
        )
    v2, lh = pile_state(position.pile)
    notes = []
    if v2 == 10:
        notes.append("five rule: the next card must be 5 or lower, or a joker")
    if position.offender is not None:
        police = (v2 + 1) // 2
        if is_catch(v2, lh, police):
            notes.append(f"player {position.offender} is the offender; {police} catches")
        else:  # 7½: an 8 sticks to the ½ and makes 8½ (rule E2), so nobody can catch
            notes.append(f"player {position.offender} is the offender, but nobody can catch at "
                         f"{format_value(v2)} (an 8 sticks to the ½: 8½)")
    pile = " ".join(c.pretty() for c in position.pile) or "empty"
    lines.append(f"  pile: {pile}  (stands at {format_value(v2)}{'; ' + '; '.join(notes) if notes else ''})")
    return "\n".join(lines)


def _pretty(cards: tuple[EHCard, ...]) -> str:
    return "".join(c.pretty() for c in cards) or "-"


__all__ = [
    "BLIND",
    "BLIND_MOVES",
    "COMBO",
    "COMBO_MOVE",
    "EAT",
    "EAT_MOVE",
    "IllegalMoveError",
    "LineError",
    "MoveError",
    "PositionError",
    "GAME_NAME",
    "HAND",
    "HAND_MOVES",
    "Move",
    "NONE",
    "OPEN",
    "OPEN_MOVES",
    "Position",
    "Seat",
    "describe",
    "first_player",
    "hand_move",
    "parse_line",
    "parse_move",
    "split_line",
]
