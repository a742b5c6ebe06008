"""The Eight-and-a-half rules engine on packed integer positions (the solver's hot loop).

A position is one Python int; `encode` / `decode` convert to and from the readable `Position`
exactly. Multisets of cards are twelve 4-bit counters (one per face), so moving cards between
hand, pile and table is plain addition and subtraction, and the canonical key is the int with
the pile's card order masked off. Layout (bit offsets; n = number of players):

====================  =================================================================
0–2                   seat to move
3–5                   number of players
6–8                   winner + 1 (0 while play goes on)
9–13                  the pile's value in half steps (`rules.NONE` = no value yet)
14                    the last non-Demon card of the pile is a ½ (an 8 would stick)
15–21                 number of cards in the pile
22–69                 the pile as a multiset (12 × 4 bits)
72 + 152·s            seat s: hand (48 bits), open (48), blind (48), eaten (7), table (1)
72 + 152·n            the pile in order, bottom card first, 4 bits a card (face + 1)
360 + 152·n + 256·s   seat s's bank in draw order, 4 bits a card (face + 1), first at the bottom
====================  =================================================================

In the endgame every bank is empty, so the int ends with the pile's order and the key (the
int without that order) is at most 72 + 152·n bits. Moves change the int in place by adding
and subtracting counters; nothing is unpacked in the hot loop.

Rules text: docs/rules/eight_and_a_half.md; the pile's rules are `rules.py`, turned here into
tables indexed by (value, last-is-half, face).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Hashable, Sequence

from halfmoon.dealcodes.eight_and_a_half import COPIES, SYMBOLS, EHCard
from halfmoon.solver.core.game import Coalition, Outcome, WinLoss, wins_outright
from halfmoon.solver.errors import IllegalMoveError, LineError

from .position import (
    BLIND,
    BLIND_MOVES,
    COMBO,
    COMBO_MOVE,
    EAT,
    EAT_MOVE,
    GAME_NAME,
    HAND,
    HAND_MOVES,
    OPEN,
    OPEN_MOVES,
    Move,
    Position,
    Seat,
    parse_line,
    parse_move,
    split_line,
)
from .rules import NONE, combo_fits, is_offence, pile_state, play_cards

FACES = 12
MAX_COUNT = max(COPIES)
M48 = (1 << 48) - 1
M5 = 31

PLAYERS_OFF, WINNER_OFF = 3, 6
V2_OFF, LH_OFF, PLEN_OFF, PILE_OFF = 9, 14, 15, 22
SEAT_OFF, SEAT_W = 72, 152
OPEN_OFF, BLIND_OFF, EATEN_OFF, TABLE_OFF = 48, 96, 144, 151
SEAT_MASK = (1 << SEAT_W) - 1
CARDS_MASK = (1 << EATEN_OFF) - 1  # hand, open and blind of a seat block
SEQ_W = 4 * 72
BANK_W = 256  # 64 cards of 4 bits
BANK_MASK = (1 << BANK_W) - 1
HEADER_MASK = (1 << SEAT_OFF) - 1
CLEAR_HEADER = ~HEADER_MASK
HALF_BIT, EIGHT_BIT = 1 << (4 * 10), 1 << (4 * 8)
TABLE_BIT = 1 << TABLE_OFF
NONE_HEADER = NONE << V2_OFF  # an empty pile


def _seat_off(seat: int) -> int:
    return SEAT_OFF + SEAT_W * seat


def _seq_off(players: int) -> int:
    return SEAT_OFF + SEAT_W * players


def _bank_off(players: int, seat: int) -> int:
    return _seq_off(players) + SEQ_W + BANK_W * seat


SEAT_OFFS = [_seat_off(s) for s in range(8)]
SEQ_OFF = [_seq_off(n) for n in range(8)]
BANKS_OFF = [_bank_off(n, 0) for n in range(8)]
BANK_OFFS = [[_bank_off(n, s) for s in range(8)] for n in range(8)]
LOW_MASK = [(1 << SEQ_OFF[n]) - 1 for n in range(8)]  # header and seats
CLEAR_SEQ = [~(((1 << SEQ_W) - 1) << SEQ_OFF[n]) for n in range(8)]
CLEAR_BANK = [[~(BANK_MASK << BANK_OFFS[n][s]) for s in range(8)] for n in range(8)]
SEQ_MASK = (1 << SEQ_W) - 1


ESTIMATE_SCALE = 1  # the compiled prover's initial numbers: 1 + scale × the other side's lead in cards
NATIVE = True  # tests switch it off to compare with the Python prover
NATIVE_EPSILON = 1.5

try:  # the compiled prover (setup.py builds it; without it the Python prover gives the same answers, slower)
    from halfmoon.solver.games.eight_and_a_half import _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None


def native_available() -> bool:
    return _native is not None


# -- rule tables -------------------------------------------------------------------------------
# A pile state is v2 | lh << 5 (the same six bits as in the packed header); per state and face: the largest number of
# identical cards that may go down together (0: none fits), and the result of playing k of them.

_MAXK: list[int] = [0] * (64 * FACES)
_RESULT: list[int] = [-1] * (64 * FACES * 16)  # packed (v2 | lh << 5 | catch << 6), -1 illegal
_COMBO_OK: list[bool] = [combo_fits(v2) for v2 in range(32)]
for _v2 in range(32):
    for _lh in (0, 1):
        for _face in range(FACES):
            _base = (_v2 | _lh << 5) * FACES + _face
            for _k in range(1, MAX_COUNT + 1):
                _r = play_cards(_v2, bool(_lh), _face, _k)
                if _r is None:
                    break
                _MAXK[_base] = _k
                _RESULT[_base * 16 + _k] = _r[0] | (_r[1] << 5) | (_r[2] << 6)
_REPEAT = [[sum((face + 1) << (4 * i) for i in range(k)) for k in range(MAX_COUNT + 1)] for face in range(FACES)]
_COMBO_SEQ = (10 + 1) | ((8 + 1) << 4)  # the pair lands as ½ then 8, so reading the pile gives 8½


def _multiset(cards: Sequence[int]) -> int:
    value = 0
    for card in cards:
        value += 1 << (4 * int(card))
    return value


def _cards(multiset: int) -> list[EHCard]:
    cards: list[EHCard] = []
    face = 0
    while multiset:
        cards.extend([EHCard(face)] * (multiset & 15))
        multiset >>= 4
        face += 1
    return cards


def _size(multiset: int) -> int:
    """Number of cards in a multiset: add the twelve counters pairwise."""
    m = (multiset & 0x0F0F0F0F0F0F) + ((multiset >> 4) & 0x0F0F0F0F0F0F)
    m = (m & 0x00FF00FF00FF) + ((m >> 8) & 0x00FF00FF00FF)
    return (m & 0xFFFF) + ((m >> 16) & 0xFFFF) + ((m >> 32) & 0xFFFF)


def _seq(cards: Sequence[int]) -> int:
    value = 0
    for i, card in enumerate(cards):
        value |= (int(card) + 1) << (4 * i)
    return value


def _unseq(seq: int) -> list[EHCard]:
    cards = []
    while seq:
        cards.append(EHCard((seq & 15) - 1))
        seq >>= 4
    return cards


def _seq_len(seq: int) -> int:
    return (seq.bit_length() + 3) >> 2


# -- results -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EHOutcome(Outcome):
    """How a game ended: `winner` went out first; `cards[s]` is what seat s is left holding
    (eaten cards plus cards not yet played). `places`: the winner 0, the others ranked by
    `cards` (fewer is better, equal counts share a place); `scores`: the round's points (winner
    2, fewest cards 1, a winner who also has the fewest 3)."""

    winner: int = -1
    cards: tuple[int, ...] = field(default=())

    @property
    def big_losers(self) -> tuple[int, ...]:
        """The seats other than the winner holding the most cards (all of them on a tie); empty
        when the game was played without keeping score (``scoring=False``)."""
        others = [c for s, c in enumerate(self.cards) if s != self.winner]
        if not others:
            return ()
        most = max(others)
        return tuple(s for s, c in enumerate(self.cards) if s != self.winner and c == most)

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["winner"] = self.winner
        data["cards"] = list(self.cards)
        data["big_losers"] = list(self.big_losers)
        return data


def not_big_loser(seat: int, terminal: EHOutcome) -> bool:
    """Predicate for `Coalition`: `seat` is not (one of) the big loser(s)."""
    return seat not in terminal.big_losers


def make_outcome(winner: int, cards: Sequence[int]) -> EHOutcome:
    """The result object for a finished game (see `EHOutcome`)."""
    cards = tuple(cards)
    ranks = sorted({c for s, c in enumerate(cards) if s != winner})
    places = tuple(0 if s == winner else 1 + ranks.index(c) for s, c in enumerate(cards))
    fewest = min(cards)
    if cards[winner] <= fewest:
        scores = tuple(3 if s == winner else 0 for s in range(len(cards)))
    else:
        scores = tuple(2 if s == winner else (1 if c == fewest else 0) for s, c in enumerate(cards))
    losers = [s for s, p in enumerate(places) if p == max(places) and s != winner]
    note = f"player {winner} goes out first; big loser: player {', '.join(map(str, losers))}"
    return EHOutcome(places, scores, False, note, winner, cards)


# -- conversion --------------------------------------------------------------------------------


def encode(position: Position) -> int:
    """The packed int of a readable position (exact: `decode(encode(p)) == p`)."""
    n = position.players
    winner = position.winner
    v2, lh = pile_state(position.pile)
    p = position.to_move | (n << PLAYERS_OFF) | ((0 if winner is None else winner + 1) << WINNER_OFF)
    p |= v2 << V2_OFF | int(lh) << LH_OFF | len(position.pile) << PLEN_OFF | _multiset(position.pile) << PILE_OFF
    for s, seat in enumerate(position.seats):
        block = (
            _multiset(seat.hand)
            | _multiset(seat.open) << OPEN_OFF
            | _multiset(seat.blind) << BLIND_OFF
            | seat.eaten << EATEN_OFF
            | int(seat.table) << TABLE_OFF
        )
        p |= block << SEAT_OFFS[s]
        p |= _seq(seat.bank) << BANK_OFFS[n][s]
    p |= _seq(position.pile) << SEQ_OFF[n]
    return p


def decode(p: int) -> Position:
    """The readable position of a packed int."""
    n = (p >> PLAYERS_OFF) & 7
    seats = []
    for s in range(n):
        block = (p >> SEAT_OFFS[s]) & SEAT_MASK
        bank = (p >> BANK_OFFS[n][s]) & BANK_MASK
        seats.append(
            Seat(
                tuple(_cards(block & M48)),
                tuple(_cards((block >> OPEN_OFF) & M48)),
                tuple(_cards((block >> BLIND_OFF) & M48)),
                tuple(_unseq(bank)),
                (block >> EATEN_OFF) & 127,
                bool(block & TABLE_BIT),
            )
        )
    return Position(tuple(seats), tuple(_unseq((p >> SEQ_OFF[n]) & SEQ_MASK)), p & 7)


# -- the game ----------------------------------------------------------------------------------


def _illegal(move: object, reason: str) -> IllegalMoveError:
    return IllegalMoveError(f"move {move}: {reason}", reason)


class EightAndAHalf:
    """Eight and a half for the exact core (`solver.core.game.Game`) on packed int positions.

    Cyclic (eating into the hand at the table can repeat positions), so the core uses
    retrograde analysis. With ``scoring=False`` the eaten counts are not kept (they never
    change who goes out first), which merges positions for the win/loss question; the result
    then has no card counts.
    """

    name = GAME_NAME
    acyclic = False

    def __init__(self, scoring: bool = True) -> None:
        self.scoring = scoring

    def __repr__(self) -> str:
        return f"EightAndAHalf(scoring={self.scoring})"

    # -- for the solver: a smaller game for questions about who goes out first, and estimates ----

    def reduced(self, questions: Sequence[Any]) -> tuple["EightAndAHalf", Any] | None:
        """When every question only asks who goes out first (two-player win/loss, "go out
        first" coalitions), the eaten counts never matter: the game without scoring, and the map
        that clears them from a position (positions that differ only there are merged)."""
        from halfmoon.solver.core.game import Coalition, WinLoss

        if not self.scoring:
            return None
        for q in questions:
            if isinstance(q, WinLoss):
                continue
            if isinstance(q, Coalition) and q.predicate is _wins_outright():
                continue
            return None
        return NO_SCORING, strip_eaten

    def estimate(self, position: int, maximizers: frozenset[int], for_max: bool) -> tuple[int, int]:
        """Initial proof and disproof numbers for df-pn: a side is the likelier to reach its goal
        the fewer cards its player still has to play (a guide only; any positive numbers keep the
        search exact)."""
        n = (position >> PLAYERS_OFF) & 7
        left = []
        for s in range(n):
            block = position >> SEAT_OFFS[s]
            left.append(_size(block & M48) + _size((block >> OPEN_OFF) & M48) + _size((block >> BLIND_OFF) & M48))
        mine = min(left[s] for s in maximizers)
        others = min(c for s, c in enumerate(left) if s not in maximizers)
        lead = others - mine
        if not for_max:
            lead = -lead
        return 1 + max(0, -lead), 1 + max(0, lead)

    def kernel(self, position: int) -> "EHKernel":
        """The rules on keys for the core's hot loop (see `EHKernel`)."""
        return EHKernel(self, position)

    # -- conversion helpers ----------------------------------------------------------------

    def encode(self, position: Position) -> int:
        """`encode`, dropping eaten counts when this game does not keep score."""
        if not self.scoring and any(seat.eaten for seat in position.seats):
            position = Position(
                tuple(Seat(s.hand, s.open, s.blind, s.bank, 0, s.table) for s in position.seats),
                position.pile,
                position.to_move,
            )
        return encode(position)

    decode = staticmethod(decode)

    # -- the protocol ------------------------------------------------------------------------

    def players(self, position: int) -> int:
        return (position >> PLAYERS_OFF) & 7

    def to_move(self, position: int) -> int:
        return position & 7

    def key(self, position: int) -> Hashable:
        """The int without the pile's card order (the banks, if any, move down over it)."""
        n = (position >> PLAYERS_OFF) & 7
        banks = position >> BANKS_OFF[n]
        if banks:
            return (position & LOW_MASK[n]) | (banks << SEQ_OFF[n])
        return position & LOW_MASK[n]

    def terminal(self, position: int) -> EHOutcome | None:
        w = (position >> WINNER_OFF) & 7
        if not w:
            return None
        n = (position >> PLAYERS_OFF) & 7
        if not self.scoring:
            places = tuple(0 if s == w - 1 else 1 for s in range(n))
            return EHOutcome(places, None, False, f"player {w - 1} goes out first", w - 1, ())
        cards = []
        for s in range(n):
            block = (position >> SEAT_OFFS[s]) & SEAT_MASK
            bank = (position >> BANK_OFFS[n][s]) & BANK_MASK
            held = _size(block & M48) + _size((block >> OPEN_OFF) & M48) + _size((block >> BLIND_OFF) & M48)
            cards.append(held + _seq_len(bank) + ((block >> EATEN_OFF) & 127))
        return make_outcome(w - 1, cards)

    def legal_moves(self, position: int) -> list[Move]:
        """Every legal move in a fixed order: hand plays by face and count, then 8+½; or open
        cards by face; or blind cards by face; or, when nothing fits, eating the pile."""
        if (position >> WINNER_OFF) & 7:
            return []
        seat = position >> SEAT_OFFS[position & 7]
        hand = seat & M48
        state = ((position >> V2_OFF) & 63) * FACES  # v2 and lh together: (v2 | lh << 5) * 12
        if hand:
            moves: list[Move] = []
            face = 0
            h = hand
            while h:
                count = h & 15
                if count:
                    k = _MAXK[state + face]
                    if k:
                        moves.extend(HAND_MOVES[face][1 : (count if count < k else k) + 1])
                h >>= 4
                face += 1
            if hand & (15 << 32) and hand & (15 << 40) and _COMBO_OK[(position >> V2_OFF) & M5]:
                moves.append(COMBO_MOVE)
            return moves or [EAT_MOVE]
        table = (seat >> OPEN_OFF) & M48
        if table:
            moves = [OPEN_MOVES[f] for f in range(FACES) if (table >> (4 * f)) & 15 and _MAXK[state + f]]
            return moves or [EAT_MOVE]
        blind = (seat >> BLIND_OFF) & M48
        return [BLIND_MOVES[f] for f in range(FACES) if (blind >> (4 * f)) & 15]

    def apply(self, position: int, move: Move) -> int:
        """The position after `move`; raises IllegalMoveError (saying why) if it is illegal."""
        p = position
        if (p >> WINNER_OFF) & 7:
            raise _illegal(move, "the game is over")
        t = p & 7
        n = (p >> PLAYERS_OFF) & 7
        so = SEAT_OFFS[t]
        seat = p >> so
        hand = seat & M48
        v2lh = (p >> V2_OFF) & 63
        plen = (p >> PLEN_OFF) & 127
        pile = (p >> PILE_OFF) & M48
        try:
            kind, face, count = move
        except (TypeError, ValueError):
            raise _illegal(move, "not a move of this game") from None
        seqpos = SEQ_OFF[n] + 4 * plen
        if kind == HAND:
            if not 1 <= count <= MAX_COUNT or not 0 <= face < FACES or (hand >> (4 * face)) & 15 < count:
                held = (hand >> (4 * face)) & 15 if 0 <= face < FACES else 0
                name = SYMBOLS[face % FACES]
                raise _illegal(move, f"seat {t} has no {name} in hand" if not held
                                         else f"seat {t} holds {held} card(s) {name} in hand, not {count}")
            r = _RESULT[(v2lh * FACES + face) * 16 + count]
            if r < 0:
                raise _illegal(move, _why_not(v2lh & M5, face, count))
            cards = count << (4 * face)
            return self._finish((p - (cards << so)) | (_REPEAT[face][count] << seqpos), t, n, r, count,
                                pile + cards, plen + count)
        if kind == COMBO:
            if not (hand & (15 << 32) and hand & (15 << 40)):
                raise _illegal(move, f"seat {t} needs an 8 and a ½ in hand")
            if not _COMBO_OK[v2lh & M5]:
                raise _illegal(move, _why_not_combo(v2lh & M5))
            cards = HALF_BIT | EIGHT_BIT
            return self._finish((p - (cards << so)) | (_COMBO_SEQ << seqpos), t, n, 17, 2, pile + cards, plen + 2)
        if kind == OPEN or kind == BLIND:
            if not 0 <= face < FACES:
                raise _illegal(move, "not a card of this game")
            if hand:
                raise _illegal(move, f"seat {t} must play its hand cards before table cards")
            off = OPEN_OFF if kind == OPEN else BLIND_OFF
            if kind == BLIND and (seat >> OPEN_OFF) & M48:
                raise _illegal(move, f"seat {t} must play its open cards before blind cards")
            if (seat >> (off + 4 * face)) & 15 == 0:
                where = "open" if kind == OPEN else "blind"
                raise _illegal(move, f"seat {t} has no {where} card {SYMBOLS[face]}")
            r = _RESULT[(v2lh * FACES + face) * 16 + 1]
            if r < 0:
                if kind == OPEN:
                    raise _illegal(move, _why_not(v2lh & M5, face, 1))
                return self._blind_fails(p, t, n, so, face, pile)
            cards = 1 << (4 * face)
            return self._finish((p - (cards << (so + off))) | ((face + 1) << seqpos), t, n, r, 0, pile + cards, plen + 1)
        if kind == EAT:
            if self.legal_moves(p) != [EAT_MOVE]:
                raise _illegal(move, f"seat {t} can play, and eating is only for a player who cannot")
            return self._eat(p, t, n, plen, pile, (t + 1) % n, 0)
        raise _illegal(move, "unknown kind of move")

    def successors(self, position: int) -> list[tuple[Move, int]]:
        """Every legal move with the position it leads to, in `legal_moves` order (the core's fast
        path: the same `_finish` as `apply`, without the legality checks)."""
        p = position
        if (p >> WINNER_OFF) & 7:
            return []
        t = p & 7
        n = (p >> PLAYERS_OFF) & 7
        so = SEAT_OFFS[t]
        seat = p >> so
        hand = seat & M48
        v2lh = (p >> V2_OFF) & 63
        plen = (p >> PLEN_OFF) & 127
        pile = (p >> PILE_OFF) & M48
        state = v2lh * FACES
        seqpos = SEQ_OFF[n] + 4 * plen
        finish = self._finish
        out: list[tuple[Move, int]] = []
        if hand:
            face = 0
            h = hand
            while h:
                count = h & 15
                if count:
                    k = _MAXK[state + face]
                    if k:
                        row = (state + face) * 16
                        for c in range(1, (count if count < k else k) + 1):
                            cards = c << (4 * face)
                            out.append((HAND_MOVES[face][c], finish(
                                (p - (cards << so)) | (_REPEAT[face][c] << seqpos), t, n, _RESULT[row + c], c,
                                pile + cards, plen + c)))
                h >>= 4
                face += 1
            if hand & (15 << 32) and hand & (15 << 40) and _COMBO_OK[v2lh & M5]:
                cards = HALF_BIT | EIGHT_BIT
                out.append((COMBO_MOVE, finish((p - (cards << so)) | (_COMBO_SEQ << seqpos), t, n, 17, 2,
                                               pile + cards, plen + 2)))
            if not out:
                out.append((EAT_MOVE, self._eat(p, t, n, plen, pile, (t + 1) % n, 0)))
            return out
        table = (seat >> OPEN_OFF) & M48
        if table:
            for face in range(FACES):
                if (table >> (4 * face)) & 15 and _MAXK[state + face]:
                    cards = 1 << (4 * face)
                    out.append((OPEN_MOVES[face], finish(
                        (p - (cards << (so + OPEN_OFF))) | ((face + 1) << seqpos), t, n,
                        _RESULT[(state + face) * 16 + 1], 0, pile + cards, plen + 1)))
            if not out:
                out.append((EAT_MOVE, self._eat(p, t, n, plen, pile, (t + 1) % n, 0)))
            return out
        blind = (seat >> BLIND_OFF) & M48
        for face in range(FACES):
            if (blind >> (4 * face)) & 15:
                r = _RESULT[(state + face) * 16 + 1]
                if r < 0:
                    out.append((BLIND_MOVES[face], self._blind_fails(p, t, n, so, face, pile)))
                else:
                    cards = 1 << (4 * face)
                    out.append((BLIND_MOVES[face], finish(
                        (p - (cards << (so + BLIND_OFF))) | ((face + 1) << seqpos), t, n, r, 0, pile + cards, plen + 1)))
        return out

    def _finish(self, p: int, t: int, n: int, r: int, draws: int, pile: int, plen: int) -> int:
        """After seat `t` put cards down (already taken from its seat and added to the pile's
        order in `p`): refill the hand, note reaching the table or going out, then the catch
        (the previous player eats, the catcher opens again) or the next player's turn."""
        so = SEAT_OFFS[t]
        boff = BANK_OFFS[n][t]
        bank = p >> boff
        if bank:
            bank &= BANK_MASK  # the banks of later seats lie above this one
            if bank and draws:
                for _ in range(draws):
                    p += 1 << (so + 4 * ((bank & 15) - 1))
                    bank >>= 4
                    if not bank:
                        break
                p = (p & CLEAR_BANK[n][t]) | (bank << boff)
        winner = 0
        if not bank:
            block = p >> so
            if not block & M48:  # bank and hand empty: the player has reached the table
                p |= TABLE_BIT << so
                if not block & CARDS_MASK:
                    winner = t + 1
        if r & 64:  # a catch: the offender (the previous player) eats; the seat after him opens
            return self._eat(p, (t - 1) % n, n, plen, pile, t, winner)
        header = ((t + 1) % n) | (n << PLAYERS_OFF) | (winner << WINNER_OFF) | (r & 63) << V2_OFF
        return (p & CLEAR_HEADER) | header | (plen << PLEN_OFF) | (pile << PILE_OFF)

    def _blind_fails(self, p: int, t: int, n: int, so: int, face: int, pile: int) -> int:
        """A blind card that does not fit: the player eats the pile with it, into the hand."""
        p += ((pile + (1 << (4 * face))) << so) - (1 << (so + BLIND_OFF + 4 * face))
        p &= CLEAR_SEQ[n]
        return (p & CLEAR_HEADER) | ((t + 1) % n) | (n << PLAYERS_OFF) | NONE_HEADER

    def _eat(self, p: int, eater: int, n: int, plen: int, pile: int, next_seat: int, winner: int) -> int:
        """`eater` takes the pile: into the hand once at the table, else set aside (counted)."""
        so = SEAT_OFFS[eater]
        if (p >> so) & TABLE_BIT:
            p += pile << so
        elif self.scoring:
            p += plen << (so + EATEN_OFF)
        p &= CLEAR_SEQ[n]
        return (p & CLEAR_HEADER) | next_seat | (n << PLAYERS_OFF) | (winner << WINNER_OFF) | NONE_HEADER

    # -- conveniences for people and tests ---------------------------------------------------

    def start(self, position: Position | str) -> int:
        """A packed position from a readable one (or its text form)."""
        if isinstance(position, str):
            position = Position.parse(position)
        return self.encode(position)

    def play(self, position: int, text: str) -> int:
        """Apply one move written in text (``77``, ``8+H``, ``o7``, ``b7``, ``eat``)."""
        return self.apply(position, parse_move(text))

    def replay(self, position: int, line: str | Sequence[Move]) -> int:
        """Play a line of moves; an illegal move raises LineError naming its index."""
        moves = parse_line(line) if isinstance(line, str) else list(line)
        tokens = split_line(line) if isinstance(line, str) else [str(m) for m in moves]
        for index, (token, move) in enumerate(zip(tokens, moves), start=1):
            try:
                position = self.apply(position, move)
            except IllegalMoveError as error:
                raise LineError(index, token, error.reason) from None
        return position

    def offender(self, position: int) -> int | None:
        """The seat that may be caught now, if the pile stands at X½ (X ≤ 8)."""
        if (position >> WINNER_OFF) & 7 or not is_offence((position >> V2_OFF) & M5):
            return None
        return ((position & 7) - 1) % ((position >> PLAYERS_OFF) & 7)

    def pile_v2(self, position: int) -> int:
        return (position >> V2_OFF) & M5

    def banks_empty(self, position: int) -> bool:
        """Every bank is empty: the endgame (the banks are the top of the int)."""
        return not position >> BANKS_OFF[(position >> PLAYERS_OFF) & 7]


class EHKernel:
    """The game on its keys (`EightAndAHalf.key`), for the core's hot loop: `successors`,
    `terminal` and `to_move` take keys, so the provers and the retrograde analysis keep keys
    only. A key is a position without the pile's card order, which no rule reads; with cards in
    the banks, the banks sit where the order was and move back up here.

    `native_prover` is the compiled df-pn (`_native.pyx`) for the endgames (banks empty) of two
    and three players: the win/loss question of two, and "can this seat force going out first?"
    (`Coalition` with `wins_outright`) of two or three; None elsewhere.
    """

    def __init__(self, game: EightAndAHalf, root: int) -> None:
        self.game = game
        n = game.players(root)
        self.players = n
        self.seq_off = SEQ_OFF[n]
        self.low_mask = LOW_MASK[n]
        self.banks_off = BANKS_OFF[n]
        self.banks_empty = game.banks_empty(root)
        # open and blind cards only ever leave: what the root fits, every position reached fits
        self.native_fits = (
            n in (2, 3) and self.banks_empty
            and all(_size((root >> (SEAT_OFFS[s] + off)) & M48) <= 3 for s in range(n) for off in (OPEN_OFF, BLIND_OFF))
        )

    def position(self, k: int) -> int:
        """A position of a key (the pile's order empty)."""
        banks = k >> self.seq_off
        if banks:
            return (k & self.low_mask) | (banks << self.banks_off)
        return k

    def to_move(self, k: int) -> int:
        return k & 7

    def terminal(self, k: int) -> EHOutcome | None:
        if not (k >> WINNER_OFF) & 7:
            return None
        return self.game.terminal(self.position(k))

    def successors(self, k: int) -> list[int]:
        banks = k >> self.seq_off
        low = self.low_mask
        if banks:  # `EightAndAHalf.key` of each child: its banks (if any are left) move down again
            up, down = self.banks_off, self.seq_off
            return [(c & low) | ((c >> up) << down) for _, c in self.game.successors((k & low) | (banks << up))]
        return [c & low for _, c in self.game.successors(k)]

    def estimate(self, k: int, maximizers: frozenset[int], for_max: bool) -> tuple[int, int]:
        return self.game.estimate(k, maximizers, for_max)

    def native_prover(self, goal: Any, max_bytes: int) -> Any:
        """The compiled df-pn for a threshold test of an endgame of two or three players, with
        the key map from this kernel's keys; None where it does not apply (the Python prover then
        runs). The tests: two-player win/loss (value ≥ 1 and value ≥ 0), "can this seat force
        going out first?" (value ≥ 1), whose keys drop the eaten counts (they never change what
        can happen); and, three players keeping score, "can the others force this seat to be the
        big loser?" (value < 1), whose keys keep them."""
        question = goal.question
        if _native is None or not NATIVE or not self.native_fits:
            return None
        big_loser = False
        if isinstance(question, WinLoss):
            if self.players != 2 or question.draw_value != 0 or goal.threshold != (1 if goal.for_max else 0):
                return None
        elif isinstance(question, Coalition) and question.predicate is wins_outright:
            if question.draw_value != 0 or not goal.for_max or goal.threshold != 1:
                return None
        elif isinstance(question, Coalition) and question.predicate is not_big_loser:
            if (self.players != 3 or not self.game.scoring or question.draw_value != 1
                    or goal.for_max or goal.threshold != 1):
                return None
            big_loser = True
        else:
            return None
        prover = _native.Prover(question.seat, goal.for_max, max_bytes, NATIVE_EPSILON, ESTIMATE_SCALE,
                                self.players, big_loser)
        if big_loser:
            return prover, partial(_native.native_key, big_loser_seat=question.seat)
        return prover, _native.native_key


def _why_not(v2: int, face: int, count: int) -> str:
    """A sentence saying why `count` cards of `face` do not go on a pile at `v2`."""
    from .rules import EIGHT_HALF, FIVE, HALF, card_effect, card_fits, format_value

    lh = False
    for i in range(count):
        if not card_fits(v2, face):
            card = EHCard(face)
            which = "" if count == 1 else f" (card {i + 1} of {count})"
            if face == HALF:
                return f"a ½ may not go on 8½{which}"
            if face == 0:
                return f"0 may not go on {format_value(v2)}: never on a number and a half{which}"
            if v2 == FIVE:
                return f"{card} on 5: the five rule asks for 5 or lower (or a joker){which}"
            if v2 == EIGHT_HALF:
                return f"{card} on 8½: only a Demon, 8+½ or 9 may go on 8½{which}"
            return f"{card} is lower than the pile's {format_value(v2)}{which}"
        v2, lh = card_effect(v2, lh, face)
    return "not legal here"


def _why_not_combo(v2: int) -> str:
    from .rules import FIVE, format_value

    if v2 == FIVE:
        return "8+½ on 5: the five rule asks for 5 or lower (or a joker)"
    return f"8+½ may not go on {format_value(v2)}: the pile is higher than 8½"


GAME = EightAndAHalf()
NO_SCORING = EightAndAHalf(scoring=False)
_EATEN_MASK = [sum(127 << (SEAT_OFFS[s] + EATEN_OFF) for s in range(n)) for n in range(8)]


def strip_eaten(position: int) -> int:
    """The position with every seat's eaten count cleared (for `NO_SCORING`)."""
    return position & ~_EATEN_MASK[(position >> PLAYERS_OFF) & 7]


def _wins_outright() -> Any:
    from halfmoon.solver.core.game import wins_outright

    return wins_outright
