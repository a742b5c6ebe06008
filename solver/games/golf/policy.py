"""The fixed seeded Golf policy that plays a round forward to an endgame (it never peeks at face-down cards)."""

from __future__ import annotations

from typing import Sequence

from halfmoon.dealcodes.golf import HAND_SIZE
from halfmoon.dealcodes.rng import SplitMix64
from halfmoon.solver.errors import InputError, MoveError

from .rules import _RANKS, _VALUES, FULL_HAND, Move, Position, hand_score

# -- the fixed seeded policy (plays a round forward to an endgame) ---------------------------------

HIDDEN_GUESS = 6  # what the policy assumes a face-down card is worth (it never peeks)


def _estimate(cards: Sequence[int], mask: int, minus_two: bool) -> int:
    """A hand's score as its owner sees it: face-down cards count HIDDEN_GUESS, no pairs with them."""
    values = _VALUES[minus_two]
    total = 0
    for c in range(3):
        a, b = cards[c], cards[c + 3]
        a_up, b_up = mask >> c & 1, mask >> (c + 3) & 1
        if a_up and b_up:
            total += 0 if _RANKS[a] == _RANKS[b] else values[a] + values[b]
        else:
            total += (values[a] if a_up else HIDDEN_GUESS) + (values[b] if b_up else HIDDEN_GUESS)
    return total


def policy_move(position: Position, rng: SplitMix64, stay_in: bool = False) -> Move:
    """A plausible, deterministic move using only what the player can see (never the stock or
    face-down cards, except the stock card once drawn). Set-up: two random slots. Play: take the
    discard if it lowers the seen estimate by 2 or more, else draw; keep a drawn card only where
    it lowers the estimate; go out only when not behind the others' visible estimates, and never
    when `stay_in` (used to reach an endgame with a given number of stock cards left)."""
    moves = position.legal_moves()
    if not moves:
        raise MoveError("the round is over: no move to choose")
    if position.in_setup:
        return moves[rng.below(len(moves))]
    seat = position.to_move
    hand = list(position.hand(seat))
    mask = position.up_mask(seat)
    mt = position.minus_two
    now = _estimate(hand, mask, mt)
    others = min(
        _estimate(position.hand(s), position.up_mask(s), mt) for s in range(position.players) if s != seat
    )

    def best_slot(card: int) -> tuple[int, int]:
        options = []
        for k in range(HAND_SIZE):
            trial = hand[:k] + [card] + hand[k + 1 :]
            new_mask = mask | 1 << k
            gain = now - _estimate(trial, new_mask, mt)
            if new_mask == FULL_HAND and mask != FULL_HAND and (stay_in or hand_score(trial, mt) > others):
                continue  # going out while behind hands the others the round
            options.append((gain, k))
        if not options:
            return 0, -1
        top_gain = max(g for g, _ in options)
        ties = [k for g, k in options if g == top_gain]
        return top_gain, ties[rng.below(len(ties))]

    if position.discard:
        gain, slot = best_slot(position.discard[-1])
        if gain >= 2 and slot >= 0:
            return Move("D", slot)
    gain, slot = best_slot(position.stock[0])
    if gain > 0 and slot >= 0:
        return Move("S", slot)
    return Move("S", -1)


def play_forward(position: Position, stock_left: int, seed: int) -> tuple[Position, tuple[Move, ...]]:
    """Play the policy (SplitMix64 seeded with `seed`) until the stock holds at most `stock_left`
    cards or the round ends. Deterministic: the same inputs give the same line forever."""
    if stock_left < 0:
        raise InputError(f"stock cards left {stock_left}: expected 0 or more")
    rng = SplitMix64(seed)
    played: list[Move] = []
    while position.ended() is None and (position.in_setup or len(position.stock) > stock_left):
        move = policy_move(position, rng, stay_in=True)
        position = position.apply(move)
        played.append(move)
    return position, tuple(played)
