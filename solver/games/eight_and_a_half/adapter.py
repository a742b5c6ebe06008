"""Plugs Eight and a half into `halfmoon endgame eight-and-a-half` (see solver.core.adapters).

Positions handed to the core are packed ints (`kernel.py`); JSON, codes and text go through the
readable `Position`. Two players: who goes out first under best play (win/loss, draw = endless
play at the table). More players: for every seat, whether all the others together can keep it
from going out first, and whether they can force it to be the big loser.
"""

from __future__ import annotations

from typing import Any, Iterator

from halfmoon.dealcodes import DEAL_COUNT, DealCode, SplitMix64
from halfmoon.dealcodes.eight_and_a_half import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    eh_deal_from_code,
)
from halfmoon.solver.core.adapters import Ask
from halfmoon.solver.core.game import Coalition, WinLoss, wins_outright

from .kernel import GAME, EightAndAHalf, decode, not_big_loser
from .policy import play_until_endgame
from .position import BLIND, COMBO, EAT, Move, Position, describe
from .rules import format_value, is_offence, pile_state, play_cards


class EightAndAHalfAdapter:
    """The endgame adapter: JSON/code/text in, packed positions for the core, words out."""

    name = "eight-and-a-half"
    title = "Eight and a half"

    def __init__(self, game: EightAndAHalf = GAME) -> None:
        self.game = game

    # -- positions -----------------------------------------------------------------------------

    def position_from_json(self, data: Any) -> int:
        return self.game.encode(Position.from_json(data))

    def position_to_json(self, position: int) -> dict[str, Any]:
        return decode(position).to_json()

    def position_from_code(self, code: str, moves: str = "") -> int:
        position = self.game.encode(Position.from_deal(eh_deal_from_code(code)))
        return self.game.replay(position, moves) if moves.strip() else position

    def until_endgame(self, position: int, seed: int = 0) -> tuple[int, list[Move]]:
        return play_until_endgame(position, seed, self.game)

    # -- questions -----------------------------------------------------------------------------

    def asks(self, position: int) -> list[Ask]:
        game = self.game
        n = game.players(position)
        if n == 2:
            me = game.to_move(position)
            over = game.terminal(position) is not None
            return [
                Ask(
                    "win-loss",
                    f"Play is over: did player {me} go out first (win) or player {1 - me} (loss)?" if over else
                    f"Player {me} to move: does player {me} go out first (win), does player {1 - me} (loss), "
                    "or can neither force it (draw: endless play at the table)?",
                    WinLoss(me),
                    {1: "win", 0: "draw", -1: "loss"},
                    me,
                )
            ]
        asks = []
        for s in range(n):
            asks.append(
                Ask(
                    f"player-{s}-first",
                    f"Can all the others together keep player {s} from going out first?",
                    Coalition(s, wins_outright, "go out first", draw_value=0),
                    {1: f"no: player {s} can force going out first", 0: "yes, it can be kept from it"},
                    s,
                )
            )
            asks.append(
                Ask(
                    f"player-{s}-big-loser",
                    f"Can all the others together force player {s} to be the big loser?",
                    Coalition(s, not_big_loser, "avoid being the big loser", draw_value=1),
                    {1: "no, it can avoid it", 0: "yes, it can be forced"},
                    s,
                )
            )
        return asks

    # -- words ---------------------------------------------------------------------------------

    def format_move(self, position: int, move: Move) -> str:
        return str(move)

    def move_note(self, position: int, move: Move) -> str:
        """What a reader needs to know: the blind card turned, catches, 8½, eating, going out."""
        game = self.game
        try:
            after = game.apply(position, move)
        except ValueError:
            return ""
        here = decode(position)
        seat, n = here.to_move, here.players
        v2, lh = pile_state(here.pile)
        if move.kind == EAT:
            where = "into the hand" if here.seats[seat].table else "set aside"
            return f"cannot play: eats the pile ({len(here.pile)} card(s)), {where}"
        notes = []
        if move.kind == BLIND:
            notes.append(f"turns the face-down card that is a {move.cards[0].pretty()}")
            if play_cards(v2, lh, move.face, 1) is None:
                notes.append("it does not fit: the pile goes into the hand with it")
                return "; ".join(notes)
        if move.kind == COMBO:
            notes.append("8 and ½ together as one card: 8½")
        else:
            result = play_cards(v2, lh, move.face, move.count)
            if result is not None and result[2]:
                notes.append(
                    f"catches player {(seat - 1) % n} (the policeman on {format_value(v2)}): "
                    f"who eats the pile; player {seat} opens the next one"
                )
            elif move.face == 8 and lh:
                notes.append("the 8 sticks to the ½: 8½")
        if game.terminal(after) is not None:
            notes.append(f"player {seat} goes out")
        elif is_offence(game.pile_v2(after)):
            notes.append(f"leaves the pile at {format_value(game.pile_v2(after))}: an offence")
        return "; ".join(notes)

    def describe(self, position: int) -> str:
        return describe(decode(position))

    def notes(self, position: int) -> list[str]:
        notes = [
            "Double dummy: the solver knows every card, blind cards included; a blind card is really "
            "chosen face down, so each blind move (bN) names the card it turns and has its own value.",
            "Rules followed: docs/rules/eight_and_a_half.md (with this project's decisions where the "
            "original rules are silent).",
        ]
        if self.game.players(position) > 2:
            notes.append(
                "More than two players: each question sets one player against all the others together "
                "(a guarantee, not a prediction); endless play means nobody goes out, so it keeps a player "
                "from going out first and from being the big loser."
            )
        return notes

    def sample_positions(self, seed: int, count: int) -> Iterator[int]:
        rng = SplitMix64(seed)
        for i in range(count):
            players = MIN_PLAYERS + i % (MAX_PLAYERS - MIN_PLAYERS + 1)
            yield self.position_from_code(str(DealCode("EH", 1, str(players), rng.below(DEAL_COUNT))))


ADAPTER = EightAndAHalfAdapter()
