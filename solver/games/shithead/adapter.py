"""Shithead in the catalogue: positions from JSON or SH1 codes, the questions, the notation."""

from __future__ import annotations

from typing import Any, Iterator

from halfmoon.dealcodes import DEAL_COUNT, DealCode, SplitMix64
from halfmoon.dealcodes.shithead import MAX_PLAYERS, MIN_PLAYERS
from halfmoon.solver.core.adapters import Ask
from halfmoon.solver.core.game import WinLoss, avoid_last

from .kernel import GAME
from .policy import play_until_endgame
from .rules import EIGHT, Move, Position, apply, can_play, outcome, pile_state, replay

# -- the endgame adapter -----------------------------------------------------------------------


class ShitheadAdapter:
    """Plugs Shithead into `halfmoon endgame shithead` (see solver.core.adapters)."""

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


ADAPTER = ShitheadAdapter()
