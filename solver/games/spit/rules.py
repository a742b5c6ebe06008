"""Spit rules for one round, under the project's alternating-turn model (docs/rules/spit.md).

Spit is played in real time; the solver needs turns, so the project fixes an exact model:
the two players alternate single actions — play a face-up stock card onto a spit pile
(ranks one apart, ace wrapping to king and 2), move a face-up stock card into an empty stock
place when a face-down card lies under it (it is turned up), or pass. A player passes only
when neither of the other actions is possible; when both players pass in succession, each
turns the top spit card onto their own spit pile. The first player to clear the stock wins
the round; if nobody can act and nobody has spit cards, the round ends with no winner.

Everything is perfect information: the deal code fixes every face-down card, and the solver
answers "what if both players knew them" (the double-dummy view of bridge solvers).

Values: `SpitPosition` and `SpitMove` are immutable and hashable (named tuples of small
ints; card ``c`` is ``13 * suit + rank - 1``, the standard order). Their text and JSON forms
round-trip. The core's `Game` view (`SpitGame`, `GAME`) and the packed kernel are in `kernel`;
nothing here imports search.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from halfmoon.dealcodes import Card, CardError, parse_card
from halfmoon.dealcodes.spit import STOCK_PLACES, SpitDeal, deal_spit_from_code, lay_out
from halfmoon.solver.core.game import Outcome
from halfmoon.solver.errors import (
    IllegalMoveError,
    InputError,
    LineError,
    MoveError,
    PositionError,
)
from halfmoon.solver.games import notation
from halfmoon.solver.games.notation import split_line

SEATS = 2
PILE_NAMES = "AB"  # spit pile A is seat 0's (the first player's), B is seat 1's

# -- errors ------------------------------------------------------------------------------------


# -- cards as small ints -------------------------------------------------------------------------

CARD_TEXT = tuple(str(Card(rank, suit)) for suit in range(4) for rank in range(1, 14))
RANK = tuple(c % 13 for c in range(52))  # 0 = ace … 12 = king


def card_int(card: Card) -> int:
    return 13 * card.suit + card.rank - 1


def card_of(value: int) -> Card:
    return Card(value % 13 + 1, value // 13)


def ranks_adjacent(a: int, b: int) -> bool:
    """Ranks (0 = ace … 12 = king) one apart, wrapping round: K-A and A-2 are both steps."""
    return (a - b) % 13 in (1, 12)


# ADJACENT[r] is the set of ranks that may go on a spit pile showing rank r (and vice versa).
ADJACENT = tuple(frozenset(s for s in range(13) if ranks_adjacent(r, s)) for r in range(13))

# -- moves --------------------------------------------------------------------------------------

PLAY, FILL, PASS = 0, 1, 2


class SpitMove(NamedTuple):
    """One action of the player to move. Places are 0-based inside, 1-based in text.

    ``PLAY``: the face-up card of place `source` onto spit pile `target` (0 = A, 1 = B), text
    ``3>A``. ``FILL``: the face-up card of place `source` into the empty place `target`, text
    ``4>2``. ``PASS``: text ``pass``.
    """

    kind: int
    source: int = -1
    target: int = -1

    def __str__(self) -> str:
        if self.kind == PLAY:
            return f"{self.source + 1}>{PILE_NAMES[self.target]}"
        if self.kind == FILL:
            return f"{self.source + 1}>{self.target + 1}"
        return "pass"

    @classmethod
    def parse(cls, text: str) -> SpitMove:
        return parse_move(text)


# Every move exists once; legal_moves hands out these shared values (no allocation in the hot loop).
PLAYS = tuple(tuple(SpitMove(PLAY, i, j) for j in range(2)) for i in range(STOCK_PLACES))
FILLS = tuple(tuple(SpitMove(FILL, i, e) for e in range(STOCK_PLACES)) for i in range(STOCK_PLACES))
PASS_MOVE = SpitMove(PASS)

_MOVE_RE = re.compile(r"^([1-5])\s*>\s*([1-5AB])$", re.IGNORECASE)


def parse_move(text: str) -> SpitMove:
    """Read ``3>A`` / ``3>b`` (play onto a spit pile), ``4>2`` (fill an empty place) or ``pass``."""
    token = text.strip()
    if token.lower() in ("pass", "p", "-"):
        return PASS_MOVE
    match = _MOVE_RE.match(token)
    if not match:
        raise MoveError(
            f"move {token!r}: expected 'P>A' or 'P>B' (play the card of stock place P = 1-5 onto spit pile A or B), "
            f"'P>Q' (move it into the empty place Q) or 'pass'"
        )
    source, target = int(match.group(1)) - 1, match.group(2).upper()
    if target in PILE_NAMES:
        return PLAYS[source][PILE_NAMES.index(target)]
    if int(target) - 1 == source:
        raise MoveError(f"move {token!r}: a card cannot move to the place it is in")
    return FILLS[source][int(target) - 1]


def format_line(moves: Iterable[SpitMove]) -> str:
    return ", ".join(map(str, moves))


# -- positions ----------------------------------------------------------------------------------

Pile = tuple[int, ...]


class SpitPosition(NamedTuple):
    """A round in progress; immutable and hashable.

    `stock[s]` is seat s's five stock places, each a pile bottom → top (the top face up, the
    rest face down; ``()`` an empty place). `spit_cards[s]` are seat s's spit cards, the next
    to be turned first. `spit_piles` are the two piles in the middle, bottom → top: pile A is
    seat 0's (it spits onto it), pile B seat 1's. `passed` says the previous action was a
    pass, so a pass now makes both players spit.
    """

    stock: tuple[tuple[Pile, ...], tuple[Pile, ...]]
    spit_cards: tuple[Pile, Pile]
    spit_piles: tuple[Pile, Pile]
    to_move: int = 0
    passed: bool = False

    # -- reading the table -----------------------------------------------------------------

    def stock_left(self, seat: int) -> int:
        return sum(map(len, self.stock[seat]))

    def top(self, pile: int) -> int | None:
        cards = self.spit_piles[pile]
        return cards[-1] if cards else None

    def cards(self) -> list[int]:
        """Every card on the table (stock, spit cards, spit piles)."""
        out = [c for seat in range(SEATS) for pile in self.stock[seat] for c in pile]
        out += [c for seat in range(SEATS) for c in self.spit_cards[seat]]
        out += [c for pile in self.spit_piles for c in pile]
        return out

    # -- text --------------------------------------------------------------------------------

    def __str__(self) -> str:
        """One line: ``seat 0 | seat 1 | pile A pile B | to-move``; see `parse_position`."""

        def run(cards: Sequence[int]) -> str:
            return "".join(CARD_TEXT[c] for c in cards) or "-"

        seats = [
            ".".join(run(pile) for pile in self.stock[s]) + ":" + run(self.spit_cards[s]) for s in range(SEATS)
        ]
        mover = f"{self.to_move}{'*' if self.passed else ''}"
        return f"{seats[0]} | {seats[1]} | {run(self.spit_piles[0])} {run(self.spit_piles[1])} | {mover}"

    def to_json(self) -> dict[str, Any]:
        """The position file shape (docs/rules/spit.md): seats 0 and 1, piles bottom → top."""
        return {
            "players": [
                {
                    "stock": [[CARD_TEXT[c] for c in pile] for pile in self.stock[s]],
                    "spit": [CARD_TEXT[c] for c in self.spit_cards[s]],
                }
                for s in range(SEATS)
            ],
            "spit_piles": [[CARD_TEXT[c] for c in pile] for pile in self.spit_piles],
            "to_move": self.to_move,
            "passed": self.passed,
        }

    @classmethod
    def from_json(cls, data: Any) -> SpitPosition:
        return position_from_json(data)

    @classmethod
    def parse(cls, text: str) -> SpitPosition:
        return parse_position(text)


def validate(position: SpitPosition) -> SpitPosition:
    """Check what the rules need of a hand-made position; raise PositionError saying where."""
    if len(position.stock) != SEATS or len(position.spit_cards) != SEATS or len(position.spit_piles) != SEATS:
        raise PositionError("position: Spit has exactly two players and two spit piles")
    for seat in range(SEATS):
        if len(position.stock[seat]) != STOCK_PLACES:
            raise PositionError(
                f"player {seat}: expected {STOCK_PLACES} stock places (use [] for an empty one), "
                f"got {len(position.stock[seat])}"
            )
    if position.to_move not in (0, 1):
        raise PositionError(f"to_move: expected player 0 or 1, got {position.to_move!r}")
    seen: dict[int, str] = {}
    places = [(f"player {s} stock place {i + 1}", pile) for s in range(SEATS) for i, pile in enumerate(position.stock[s])]
    places += [(f"player {s} spit cards", position.spit_cards[s]) for s in range(SEATS)]
    places += [(f"spit pile {PILE_NAMES[p]}", position.spit_piles[p]) for p in range(SEATS)]
    for where, cards in places:
        for c in cards:
            if not isinstance(c, int) or not 0 <= c < 52:
                raise PositionError(f"{where}: {c!r} is not a card")
            if c in seen:
                raise PositionError(f"{where}: {CARD_TEXT[c]} is also in {seen[c]} (one deck: every card once)")
            seen[c] = where
    if position.stock_left(0) == 0 and position.stock_left(1) == 0:
        raise PositionError("position: both stocks are empty; a round ends as soon as one player clears the stock")
    if position.passed:
        other = 1 - position.to_move
        if position.stock_left(other) and _can_act(position, other):
            raise PositionError(
                f"passed: player {other} is said to have just passed, but has a legal action "
                f"(a player passes only when unable to play or fill)"
            )
    return position


def _json_card(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise PositionError(f"{where}: expected a card such as '5S', got {value!r}")
    try:
        return card_int(parse_card(value))
    except CardError as error:
        raise PositionError(f"{where}: {error}") from None


def _json_cards(value: Any, where: str) -> Pile:
    if not isinstance(value, list):
        raise PositionError(f"{where}: expected a list of cards")
    return tuple(_json_card(card, f"{where}[{i}]") for i, card in enumerate(value))


def position_from_json(data: Any) -> SpitPosition:
    """Read the position file shape (see `SpitPosition.to_json`); extra keys are ignored."""
    if not isinstance(data, Mapping):
        raise PositionError("position: expected a JSON object with 'players', 'spit_piles', 'to_move'")
    for key in ("players", "spit_piles"):
        if key not in data:
            raise PositionError(f"position: missing key {key!r}")
    players = data["players"]
    if not isinstance(players, list) or len(players) != SEATS:
        raise PositionError("position: 'players' must be a list of two objects with 'stock' and 'spit'")
    stock, spit = [], []
    for s, player in enumerate(players):
        where = f"players[{s}]"
        if not isinstance(player, Mapping) or "stock" not in player:
            raise PositionError(f"{where}: expected an object with 'stock' (five piles) and 'spit'")
        piles = player["stock"]
        if not isinstance(piles, list) or len(piles) != STOCK_PLACES:
            raise PositionError(f"{where}.stock: expected a list of {STOCK_PLACES} piles (bottom → top, [] if empty)")
        stock.append(tuple(_json_cards(pile, f"{where}.stock[{i}]") for i, pile in enumerate(piles)))
        spit.append(_json_cards(player.get("spit", []), f"{where}.spit"))
    centre = data["spit_piles"]
    if not isinstance(centre, list) or len(centre) != SEATS:
        raise PositionError("position: 'spit_piles' must be a list of two piles (A, B; bottom → top, [] if empty)")
    piles = tuple(_json_cards(pile, f"spit_piles[{p}]") for p, pile in enumerate(centre))
    to_move = data.get("to_move", 0)
    if isinstance(to_move, bool) or to_move not in (0, 1):
        raise PositionError(f"to_move: expected 0 or 1 (the seat of the player to act), got {to_move!r}")
    passed = data.get("passed", False)
    if not isinstance(passed, bool):
        raise PositionError(f"passed: expected true or false, got {passed!r}")
    return validate(
        SpitPosition((stock[0], stock[1]), (spit[0], spit[1]), (piles[0], piles[1]), to_move, passed)
    )


def _text_run(text: str, where: str) -> Pile:
    text = text.strip()
    if text == "-":
        return ()
    if len(text) % 2:
        raise PositionError(f"{where}: {text!r} is not a run of two-character cards")
    cards = []
    for i in range(0, len(text), 2):
        try:
            cards.append(card_int(parse_card(text[i : i + 2])))
        except CardError as error:
            raise PositionError(f"{where}: {error}") from None
    return tuple(cards)


def parse_position(text: str) -> SpitPosition:
    """Read the one-line text form ``P1.P2.P3.P4.P5:SPIT | … | A B | 1*`` (``-`` is empty, ``*`` = passed)."""
    parts = [part.strip() for part in text.split("|")]
    if len(parts) != 4:
        raise PositionError("position text: expected 'seat 0 | seat 1 | pile A pile B | player to move'")
    stock, spit = [], []
    for s in range(SEATS):
        if parts[s].count(":") != 1:
            raise PositionError(f"position text, player {s}: expected 'pile.pile.pile.pile.pile:spit cards'")
        piles_text, spit_text = parts[s].split(":")
        piles = piles_text.split(".")
        if len(piles) != STOCK_PLACES:
            raise PositionError(f"position text, player {s}: expected {STOCK_PLACES} places separated by '.'")
        stock.append(tuple(_text_run(p, f"player {s} place {i + 1}") for i, p in enumerate(piles)))
        spit.append(_text_run(spit_text, f"player {s} spit cards"))
    centre = parts[2].split()
    if len(centre) != 2:
        raise PositionError("position text: expected two spit piles ('-' for an empty one)")
    mover = parts[3]
    if mover not in ("0", "1", "0*", "1*"):
        raise PositionError(f"position text: player to move {mover!r}, expected 0 or 1 (with '*' after a pass)")
    return validate(
        SpitPosition(
            (stock[0], stock[1]),
            (spit[0], spit[1]),
            (_text_run(centre[0], "spit pile A"), _text_run(centre[1], "spit pile B")),
            int(mover[0]),
            mover.endswith("*"),
        )
    )


def position_from_deal(deal: SpitDeal) -> SpitPosition:
    """The round as dealt, after the opening spit (each seat turns its top spit card onto its
    own pile), player 0 (the first seat) to move."""
    stock = tuple(tuple(tuple(card_int(c) for c in pile) for pile in seat.piles) for seat in deal.seats)
    spit = tuple(tuple(card_int(c) for c in seat.spit) for seat in deal.seats)
    start = SpitPosition((stock[0], stock[1]), (spit[0], spit[1]), ((), ()), 0, False)
    return validate(_spit(start, 0))


def position_from_hands(hands: Sequence[Sequence[Card]], to_move: int = 0) -> SpitPosition:
    """A round from each seat's cards in dealing order (see `dealcodes.spit.lay_out`), after the
    opening spit: the way every round after the first starts, including short hands."""
    laid = [lay_out(list(hand)) for hand in hands]
    stock = tuple(tuple(tuple(card_int(c) for c in pile) for pile in piles) for piles, _ in laid)
    spit = tuple(tuple(card_int(c) for c in cards) for _, cards in laid)
    start = SpitPosition((stock[0], stock[1]), (spit[0], spit[1]), ((), ()), to_move, False)
    return validate(_spit(start, to_move))


def position_from_code(code: str) -> SpitPosition:
    """The dealt round of an SP1 code (see `position_from_deal`)."""
    return position_from_deal(deal_spit_from_code(code))


# -- the rules ----------------------------------------------------------------------------------


def _can_act(position: SpitPosition, seat: int) -> bool:
    """Whether `seat` has a play or a fill (ignoring whose turn it is)."""
    tops = [RANK[p[-1]] for p in position.spit_piles if p]
    empty = splittable = False
    for pile in position.stock[seat]:
        if not pile:
            empty = True
            continue
        adjacent = ADJACENT[RANK[pile[-1]]]
        for t in tops:
            if t in adjacent:
                return True
        if len(pile) > 1:
            splittable = True
    return empty and splittable


def actions(position: SpitPosition, seat: int) -> list[SpitMove]:
    """`seat`'s plays (by place, pile A before B) then fills, ignoring whose turn it is."""
    piles = position.spit_piles
    top_a = RANK[piles[0][-1]] if piles[0] else -1
    top_b = RANK[piles[1][-1]] if piles[1] else -1
    moves: list[SpitMove] = []
    empty: list[int] = []
    splittable: list[int] = []
    for i, pile in enumerate(position.stock[seat]):
        if not pile:
            empty.append(i)
            continue
        adjacent = ADJACENT[RANK[pile[-1]]]
        if top_a in adjacent:
            moves.append(PLAYS[i][0])
        if top_b in adjacent:
            moves.append(PLAYS[i][1])
        if len(pile) > 1:
            splittable.append(i)
    if empty:
        for i in splittable:
            row = FILLS[i]
            moves.extend(row[e] for e in empty)
    return moves


def _spit(position: SpitPosition, to_move: int) -> SpitPosition:
    """Both players spit: each with spit cards turns the top one onto their own pile."""
    spit_cards = list(position.spit_cards)
    piles = list(position.spit_piles)
    for seat in range(SEATS):
        if spit_cards[seat]:
            piles[seat] = piles[seat] + spit_cards[seat][:1]
            spit_cards[seat] = spit_cards[seat][1:]
    return SpitPosition(position.stock, (spit_cards[0], spit_cards[1]), (piles[0], piles[1]), to_move, False)


@dataclass(frozen=True)
class _Results:
    win: tuple[Outcome, Outcome]
    no_winner: Outcome


RESULTS = _Results(
    (
        Outcome((0, 1), note="player 0 cleared the stock first"),
        Outcome((1, 0), note="player 1 cleared the stock first"),
    ),
    Outcome((0, 0), note="nobody can play and nobody has spit cards: the round ends with no winner"),
)


def terminal(position: SpitPosition) -> Outcome | None:
    """The round's result once it is over, else None.

    Over when a player's stock is empty (that player cleared it first: a play empties at most
    one stock), or when neither player can act and neither has a spit card (the passes that
    would follow change nothing, so the end is read off the table).
    """
    stock = position.stock
    if not any(stock[0]):
        return RESULTS.win[0]
    if not any(stock[1]):
        return RESULTS.win[1]
    spit = position.spit_cards
    if not spit[0] and not spit[1] and not _can_act(position, 0) and not _can_act(position, 1):
        return RESULTS.no_winner
    return None


def legal_moves(position: SpitPosition) -> list[SpitMove]:
    """The mover's plays, then fills; ``[pass]`` when there are none; ``[]`` once the round is over."""
    if terminal(position) is not None:
        return []
    return actions(position, position.to_move) or [PASS_MOVE]


def why_illegal(position: SpitPosition, move: SpitMove) -> str | None:
    """The reason `move` cannot be played now, or None if it can."""
    result = terminal(position)
    if result is not None:
        return f"the round is over ({result.note})"
    seat = position.to_move
    stock = position.stock[seat]
    if move.kind == PASS:
        if _can_act(position, seat):
            return "a player passes only when no card can be played or moved into an empty place"
        return None
    if move.kind not in (PLAY, FILL) or not 0 <= move.source < STOCK_PLACES:
        return "not a Spit move"
    pile = stock[move.source]
    if not pile:
        return f"stock place {move.source + 1} is empty"
    card = CARD_TEXT[pile[-1]]
    if move.kind == PLAY:
        if move.target not in (0, 1):
            return "not a Spit move"
        name = PILE_NAMES[move.target]
        top = position.spit_piles[move.target]
        if not top:
            return f"spit pile {name} is empty (there is only one spit pile)"
        if RANK[top[-1]] not in ADJACENT[RANK[pile[-1]]]:
            return f"{card} cannot go on {CARD_TEXT[top[-1]]} (spit pile {name}): ranks must be one apart, ace next to king and 2"
        return None
    if not 0 <= move.target < STOCK_PLACES:
        return "not a Spit move"
    if stock[move.target]:
        return f"stock place {move.target + 1} is not empty"
    if len(pile) < 2:
        return f"{card} is alone in place {move.source + 1}: moving it would turn nothing up"
    return None


def apply(position: SpitPosition, move: SpitMove) -> SpitPosition:
    """The position after `move` (pure); raises IllegalMoveError saying why if it is illegal.

    The common legal cases are checked inline (this runs once per node of a solve); anything
    else goes through `why_illegal` for the message.
    """
    if type(move) is SpitMove:
        stock, _, piles, seat, _ = position
        kind, source, target = move
        if kind == PLAY and 0 <= source < STOCK_PLACES and 0 <= target < 2:
            pile, top = stock[seat][source], piles[target]
            if pile and top and RANK[top[-1]] in ADJACENT[RANK[pile[-1]]] and any(stock[1 - seat]):
                return _apply(position, move)
        elif kind == FILL and 0 <= source < STOCK_PLACES and 0 <= target < STOCK_PLACES:
            mine = stock[seat]
            if len(mine[source]) > 1 and not mine[target] and any(stock[1 - seat]):
                return _apply(position, move)
        elif kind == PASS and why_illegal(position, move) is None:
            return _apply(position, move)
        reason = why_illegal(position, move) or "not legal here"
    else:
        reason = f"{move!r} is not a Spit move"
    raise IllegalMoveError(f"move {move} by player {position.to_move}: {reason}")


_new = tuple.__new__  # builds a SpitPosition without NamedTuple's keyword handling (hot loop)


def parse_line(text: str) -> list[SpitMove]:
    return notation.parse_line(text, parse_move)


def _apply(position: SpitPosition, move: SpitMove) -> SpitPosition:
    """`apply` without the legality check (for moves from `legal_moves`)."""
    stock, spit_cards, spit_piles, seat, passed = position
    kind, source, target = move
    if kind == PASS:
        if passed:
            return _spit(position, 1 - seat)
        return _new(SpitPosition, (stock, spit_cards, spit_piles, 1 - seat, True))
    mine = stock[seat]
    pile = mine[source]
    if kind == PLAY:
        mine = mine[:source] + (pile[:-1],) + mine[source + 1 :]
        if target:
            spit_piles = (spit_piles[0], spit_piles[1] + pile[-1:])
        else:
            spit_piles = (spit_piles[0] + pile[-1:], spit_piles[1])
    else:
        changed = list(mine)
        changed[source] = pile[:-1]
        changed[target] = pile[-1:]
        mine = tuple(changed)
    stock = (mine, stock[1]) if seat == 0 else (stock[0], mine)
    return _new(SpitPosition, (stock, spit_cards, spit_piles, 1 - seat, False))


def is_spit(position: SpitPosition, move: SpitMove) -> bool:
    """Whether `move` (a pass after a pass) makes both players spit."""
    return move.kind == PASS and position.passed


def describe(position: SpitPosition, move: SpitMove) -> str:
    """The move with its cards: ``3>A (7H on 8C)``, ``4>2 (QS, turns up 5D)``, ``pass (both spit: 4C on A)``."""
    seat = position.to_move
    if move.kind == PASS:
        if not position.passed:
            return "pass"
        turned = [
            f"{CARD_TEXT[position.spit_cards[s][0]]} on {PILE_NAMES[s]}" for s in range(SEATS) if position.spit_cards[s]
        ]
        return f"pass (both spit: {', '.join(turned)})" if turned else "pass"
    pile = position.stock[seat][move.source]
    card = CARD_TEXT[pile[-1]] if pile else "?"
    if move.kind == PLAY:
        top = position.spit_piles[move.target]
        under = CARD_TEXT[top[-1]] if top else "?"
        turn = f", turns up {CARD_TEXT[pile[-2]]}" if len(pile) > 1 else ""
        return f"{move} ({card} on {under}{turn})"
    turn = CARD_TEXT[pile[-2]] if len(pile) > 1 else "?"
    return f"{move} ({card}, turns up {turn})"


# -- keys ---------------------------------------------------------------------------------------

_RANK_BYTES: dict[Pile, bytes] = {}


def _rank_bytes(cards: Pile) -> bytes:
    """Ranks 1..13 of a run of cards (suits never matter in Spit), memoised: runs are few."""
    value = _RANK_BYTES.get(cards)
    if value is None:
        if len(_RANK_BYTES) > 1_000_000:
            _RANK_BYTES.clear()
        value = _RANK_BYTES[cards] = bytes(RANK[c] + 1 for c in cards)
    return value


_STOCK_BYTES: dict[tuple[Pile, ...], bytes] = {}
# _HEAD[4 * (14 * a + b) + 2 * to_move + passed]: the key's first three bytes, built once.
_HEAD = [bytes((m, a, b)) for a in range(14) for b in range(14) for m in range(4)]


def _stock_bytes(stock: tuple[Pile, ...]) -> bytes:
    """A seat's stock as sorted rank runs (places are interchangeable), memoised per stock."""
    value = _STOCK_BYTES.get(stock)
    if value is None:
        if len(_STOCK_BYTES) > 1_000_000:
            _STOCK_BYTES.clear()
        value = _STOCK_BYTES[stock] = b"\xfe".join(sorted(_rank_bytes(pile) for pile in stock if pile))
    return value


def key(position: SpitPosition) -> bytes:
    """Canonical key: who moves, the pass flag, the spit pile tops' ranks, and per seat its
    stock piles as rank runs in sorted order (places are interchangeable) and its spit cards'
    ranks. Suits and the buried spit pile cards never affect play, so they are left out."""
    stock, spit, (pile_a, pile_b), to_move, passed = position
    a = RANK[pile_a[-1]] + 1 if pile_a else 0
    b = RANK[pile_b[-1]] + 1 if pile_b else 0
    return b"".join(
        (
            _HEAD[4 * (14 * a + b) + 2 * to_move + passed],
            _stock_bytes(stock[0]),
            b"\xfd",
            _rank_bytes(spit[0]),
            b"\xff",
            _stock_bytes(stock[1]),
            b"\xfd",
            _rank_bytes(spit[1]),
        )
    )


def progress(position: SpitPosition) -> int:
    """A measure every action strictly lowers (see docs/rules/spit.md: why no position repeats):
    twice the stock, face-down and spit cards left, plus one unless a pass is pending."""
    cards = 0
    for seat in range(SEATS):
        for pile in position.stock[seat]:
            cards += 2 * len(pile) - 1 if pile else 0
        cards += len(position.spit_cards[seat])
    return 2 * cards + (0 if position.passed else 1)


# -- lines --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """A line played from a start position: the moves, every position along it, the end."""

    start: SpitPosition
    moves: tuple[SpitMove, ...]
    positions: tuple[SpitPosition, ...]  # positions[0] is start, positions[i+1] after moves[i]

    @property
    def position(self) -> SpitPosition:
        return self.positions[-1]


def replay(start: SpitPosition, line: str | Iterable[str | SpitMove]) -> Replay:
    """Play a line; the first move that cannot be read or played raises LineError."""
    tokens: list[str | SpitMove] = list(split_line(line) if isinstance(line, str) else line)
    position = start
    positions = [start]
    played = []
    for index, token in enumerate(tokens, start=1):
        try:
            move = token if isinstance(token, SpitMove) else parse_move(token)
            reason = why_illegal(position, move)
            if reason is not None:
                raise MoveError(reason)
        except MoveError as error:
            message = str(error).removeprefix(f"move {str(token).strip()!r}: ")
            raise LineError(index, str(token), message) from None
        position = _apply(position, move)
        positions.append(position)
        played.append(move)
    return Replay(start, tuple(played), tuple(positions))


__all__ = [
    "FILL", "PASS", "PASS_MOVE", "PILE_NAMES", "PLAY", "SEATS",
    "LineError", "IllegalMoveError", "Replay", "InputError", "SpitMove",
    "MoveError", "SpitPosition", "PositionError",
    "actions", "apply", "card_int", "card_of", "describe", "format_line", "is_spit", "key",
    "legal_moves", "parse_line", "parse_move", "parse_position", "position_from_code",
    "position_from_deal", "position_from_hands", "position_from_json", "progress", "ranks_adjacent",
    "replay", "terminal", "validate", "why_illegal",
]
