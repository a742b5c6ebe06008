"""Between rounds: slapping the spit piles, gathering the cards and laying out the next round.

The solver works on one round; this module lets a whole game be simulated from a seed (the
seed decides the races the rules leave to reflexes: who slaps first, which of two equal piles a
player goes for). The rules and every decision are in docs/rules/spit.md ("Between rounds").
"""

from __future__ import annotations

from dataclasses import dataclass

from halfmoon.dealcodes import SplitMix64
from halfmoon.solver.errors import InputError

from .rules import (
    SEATS,
    SpitPosition,
    _apply,
    card_of,
    legal_moves,
    position_from_hands,
    terminal,
)

ROUND_SALT = 0x5350_524F_554E_4453  # "SPROUNDS": keeps the slap/shuffle stream apart from dealing


@dataclass(frozen=True)
class RoundEnd:
    """What happened after a round: who took which pile, each player's cards for the next round
    (in gathering order, before the shuffle), and the game's winner if it is over."""

    took: tuple[int | None, int | None]  # spit pile index taken by each seat (None: nothing)
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    winner: int | None  # the seat that won the game (no cards left), else None
    next_position: SpitPosition | None  # the next round after its opening spit, None if the game is over


def _slaps(position: SpitPosition, rng: SplitMix64) -> tuple[int | None, int | None]:
    """Which pile each seat takes when both slap. Both aim for the smaller pile (a seeded coin
    picks between equal ones); if both slap the same pile, a seeded coin says whose hand is
    underneath (first there): that seat takes it, the other the other pile. With one pile in
    play both slap it and the other seat takes nothing."""
    sizes = [len(pile) for pile in position.spit_piles]
    in_play = [p for p in range(SEATS) if sizes[p]]
    if not in_play:
        return (None, None)
    if len(in_play) == 1:
        aims = [in_play[0]] * SEATS
    elif sizes[0] != sizes[1]:
        aims = [sizes.index(min(sizes))] * SEATS
    else:
        aims = [rng.below(2) for _ in range(SEATS)]
    if aims[0] != aims[1]:
        return (aims[0], aims[1])
    first = rng.below(2)
    other = None if len(in_play) == 1 else 1 - aims[0]
    return (aims[0], other) if first == 0 else (other, aims[0])


def next_round(position: SpitPosition, seed: int) -> RoundEnd:
    """Settle a finished round and lay out the next one (docs/rules/spit.md, "Between rounds").

    One spit pile in play and a player cleared the stock: the clearer takes nothing from the
    middle, the other takes the pile. Otherwise both slap (see `_slaps`). Each player adds their
    unplayed stock and spit cards to what they took; the hands are shuffled with SplitMix64 and
    laid out again (a short hand gets a partial layout and no spit cards). A player left with
    no cards has won the game.
    """
    result = terminal(position)
    if result is None:
        raise InputError("next round: this round is still being played (nobody has cleared or is stuck)")
    rng = SplitMix64(seed ^ ROUND_SALT)
    in_play = [p for p in range(SEATS) if position.spit_piles[p]]
    cleared = [seat for seat in range(SEATS) if result.places[seat] < result.places[1 - seat]]
    took: tuple[int | None, int | None]
    if len(in_play) == 1 and cleared:
        took = (None, in_play[0]) if cleared[0] == 0 else (in_play[0], None)
    else:
        took = _slaps(position, rng)
    hands = []
    for seat in range(SEATS):
        pile = took[seat]
        cards = list(position.spit_piles[pile]) if pile is not None else []
        cards += position.spit_cards[seat]
        cards += [c for stock_pile in position.stock[seat] for c in stock_pile]
        hands.append(tuple(cards))
    empty = [seat for seat in range(SEATS) if not hands[seat]]
    if empty:
        return RoundEnd(took, (hands[0], hands[1]), empty[0], None)
    shuffled = []
    for hand in hands:
        cards = list(hand)
        rng.shuffle(cards)
        shuffled.append([card_of(c) for c in cards])
    return RoundEnd(took, (hands[0], hands[1]), None, position_from_hands(shuffled))


def play_game(start: SpitPosition, seed: int, max_rounds: int = 200) -> tuple[list[RoundEnd], int | None]:
    """Simulate whole rounds with a uniformly random legal action (SplitMix64 seeded with `seed`)
    until a player wins the game or `max_rounds` rounds have been played; returns the round ends
    and the winner (None if the limit came first)."""
    rng = SplitMix64(seed)
    rounds: list[RoundEnd] = []
    position: SpitPosition | None = start
    while position is not None and len(rounds) < max_rounds:
        while terminal(position) is None:
            moves = legal_moves(position)
            position = _apply(position, moves[rng.below(len(moves))])
        end = next_round(position, rng.below(1 << 63))
        rounds.append(end)
        if end.winner is not None:
            return rounds, end.winner
        position = end.next_position
    return rounds, None
