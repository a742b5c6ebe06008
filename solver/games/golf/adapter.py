"""Six-card Golf's endgame adapter for `halfmoon endgame golf`, and its max^n line.

The adapter turns position JSON, a GF1 code plus moves, or "play on to the endgame" into Golf
positions and names the questions: with two players the final score difference under best
play (double dummy); with more, each player's guaranteed best score against all the others
together (paranoid). The max^n line (each player minimises their own score, ties to the first
move in canonical order) is a labelled prediction under that assumption, not a guarantee; it is
searched here because the core's questions always reduce a game to two sides.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from halfmoon.dealcodes import DEAL_COUNT, DealCode, SplitMix64
from halfmoon.dealcodes.golf import MAX_PLAYERS, MIN_PLAYERS
from halfmoon.solver.core.adapters import Ask
from halfmoon.solver.core.game import GuaranteedScore, ScoreDifference

from .kernel import GOLF
from .maxn import MAXN_RULE, maxn
from .policy import play_forward
from .rules import Move, Position, card_text, replay

# Stock cards left when `--until endgame` stops, by player count: chosen from
# benchmarks/golf_endgames.py so that a typical endgame solves in seconds.
ENDGAME_STOCK = {2: 2, 3: 1, 4: 1, 5: 1, 6: 1}


class _ScoreWords(Mapping[int, str]):
    """Words for GuaranteedScore values (minus the score): value v reads "score -v"."""

    def __getitem__(self, value: int) -> str:
        return f"score {-value}"

    def get(self, value: Any, default: Any = None) -> str:
        return f"score {-value}" if isinstance(value, int) else default

    def __iter__(self) -> Iterator[int]:
        return iter(())

    def __len__(self) -> int:
        return 0


class _DifferenceWords(Mapping[int, str]):
    """Words for ScoreDifference values: +3 reads "+3 (ahead by 3)"."""

    def get(self, value: Any, default: Any = None) -> str:
        if not isinstance(value, int):
            return default
        if value == 0:
            return "0 (level)"
        return f"{value:+d} ({'ahead' if value > 0 else 'behind'} by {abs(value)})"

    def __getitem__(self, value: int) -> str:
        return self.get(value)

    def __iter__(self) -> Iterator[int]:
        return iter(())

    def __len__(self) -> int:
        return 0


# -- the adapter ----------------------------------------------------------------------------------


class GolfAdapter:
    """`halfmoon endgame golf`: see the module docstring and docs/rules/golf.md."""

    name = "golf"
    title = "Six-card Golf"
    game = GOLF

    def position_from_json(self, data: Any) -> Position:
        return Position.from_json(data)

    def position_to_json(self, position: Position) -> dict[str, Any]:
        return position.to_json()

    def position_from_code(self, code: str, moves: str = "") -> Position:
        position = Position.from_code(code)
        return replay(position, moves)[0] if moves.strip() else position

    def until_endgame(self, position: Position, seed: int = 0) -> tuple[Position, list[Move]]:
        """The golf endgame: the policy plays on (nobody goes out) until the stock holds
        ENDGAME_STOCK[players] cards; a round that ends earlier is returned where it ended."""
        end, moves = play_forward(position, ENDGAME_STOCK[position.players], seed)
        return end, list(moves)

    def asks(self, position: Position) -> list[Ask]:
        n = position.players
        me = position.to_move
        if n == 2:
            return [
                Ask(
                    "score-difference",
                    f"Player {me} to move: final score difference under best play "
                    f"(player {1 - me}'s score minus player {me}'s; positive is good for player {me})",
                    ScoreDifference(me),
                    _DifferenceWords(),
                    me,
                )
            ]
        return [
            Ask(
                f"player-{s}-guaranteed-score",
                f"The best score player {s} can guarantee against all the others together",
                GuaranteedScore(s),
                _ScoreWords(),
                s,
            )
            for s in range(n)
        ]

    def format_move(self, position: Position, move: Move) -> str:
        return str(move)

    def move_note(self, position: Position, move: Move) -> str:
        text = position.describe(move)
        note = text[text.index("(") + 1 : -1]
        after = position.play(move)
        seat = position.to_move
        if move.kind != "F" and position.ender < 0 and after.ender == seat:
            note += "; goes out: the others have one more turn"
        if after.repeated:
            note += "; repeats a position: the round ends"
        elif after.ended() is not None and position.ended() is None and "goes out" not in note:
            note += f"; the round ends ({after.ended()})"
        return note

    def describe(self, position: Position) -> str:
        lines = []
        reason = position.ended()
        for seat in range(position.players):
            mask = position.up_mask(seat)
            cards = [
                card_text(c) if mask >> k & 1 else f"({card_text(c)})" for k, c in enumerate(position.hand(seat))
            ]
            mark = "→" if seat == position.to_move and reason is None else " "
            flag = "  went out" if seat == position.ender else ""
            lines.append(
                f"{mark} player {seat}: {' '.join(c.center(4) for c in cards[:3])} | "
                f"{' '.join(c.center(4) for c in cards[3:])}   score {position.score(seat)}{flag}"
            )
        lines.append("  (cards in brackets are face down; slots 1-3 top row | 4-6 bottom row)")
        lines.append(f"  discard (bottom→top): {' '.join(card_text(c) for c in position.discard) or '-'}")
        lines.append(f"  stock (next first): {' '.join(card_text(c) for c in position.stock) or '-'}")
        if position.seen:
            lines.append(f"  {len(position.seen)} earlier position(s) since the last draw or turned card can repeat")
        if position.minus_two:
            lines.append("  house variant: a 2 is worth -2")
        return "\n".join(lines)

    def notes(self, position: Position) -> list[str]:
        notes = [
            "Double dummy: the solver knows every card, the face-down cards and the stock order included.",
            "A repeated position (same cards everywhere, same player to move) ends the round at once; the "
            "solver tracks the positions since the last stock draw or turned card, so its values are exact "
            "under that rule (docs/rules/golf.md).",
        ]
        if position.players > 2:
            notes.append(
                "More than two players: each question sets one player against all the others together "
                "(a guarantee, not a prediction of how the others will play)."
            )
        return notes

    def extra_answers(self, position: Position, limits: Any = None) -> list[dict[str, Any]]:
        """The max^n line for more than two players (labelled: a prediction, not a guarantee)."""
        if position.players <= 2 or position.ended() is not None:
            return []
        nodes, seconds = getattr(limits, "nodes", None), getattr(limits, "seconds", None)
        max_positions = min(nodes, 200_000) if nodes else 200_000  # the caller's limits, at most the defaults
        max_seconds = min(seconds, 20.0) if seconds else 20.0
        result = maxn(position, max_positions, max_seconds)
        line = []
        p = position
        for move in result.line:
            line.append({"seat": p.to_move, "move": str(move), "note": self.move_note(p, move)})
            p = p.play(move)
        return [
            {
                "id": "maxn-line",
                "text": MAXN_RULE,
                "status": result.status,
                "scores": list(result.scores) if result.scores is not None else None,
                "line": line,
                "positions": result.positions,
                "seconds": round(result.seconds, 4),
                "reason": result.reason,
            }
        ]

    def sample_positions(self, seed: int, count: int) -> Iterator[Position]:
        """Small endgames for the conformance test: seeded deals for 2-6 players played on by the
        policy until the stock holds one or two cards."""
        rng = SplitMix64(seed)
        for i in range(count):
            players = MIN_PLAYERS + i % (MAX_PLAYERS - MIN_PLAYERS + 1)
            code = str(DealCode("GF", 1, str(players), rng.below(DEAL_COUNT)))
            left = 1 + rng.below(2) if players == 2 else 1
            yield play_forward(Position.from_code(code), left, rng.below(1 << 32))[0]


ADAPTER = GolfAdapter()

__all__ = ["ADAPTER", "ENDGAME_STOCK", "GolfAdapter"]
