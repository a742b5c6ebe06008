"""Plugs Spit into `halfmoon endgame spit` (see solver.core.adapters for the adapter contract).

``--until endgame`` for Spit: play on with the fixed policy (a uniformly random legal action,
drawn from SplitMix64 seeded with the seed) until the two stocks together hold at most
`ENDGAME_STOCK` cards, or the round ends. The question is win/loss/draw for the player to move;
each player's solitaire count (fewest actions to clear the stock alone) comes with every answer
under ``extra_answers``.
"""

from __future__ import annotations

from typing import Any, Iterator

from halfmoon.dealcodes import DEAL_COUNT, DealCode, SplitMix64
from halfmoon.solver.core.adapters import Ask
from halfmoon.solver.core.game import WinLoss

from .kernel import GAME
from .policy import ENDGAME_STOCK, play_until_endgame, policy_move
from .rules import (
    CARD_TEXT,
    PASS,
    PILE_NAMES,
    SEATS,
    SpitMove,
    SpitPosition,
    position_from_code,
    position_from_json,
    replay,
    terminal,
)
from .rules import describe as describe_move
from .search import SolitaireLimitError, solitaire_count

SOLITAIRE_LIMIT = 500_000  # positions per solitaire count before it is reported as unknown

def solitaire_report(position: SpitPosition, max_positions: int = SOLITAIRE_LIMIT) -> list[dict[str, Any]]:
    """Each seat's solitaire count as an answer beyond the exact question (JSON-ready)."""
    report = []
    for seat in range(SEATS):
        entry: dict[str, Any] = {
            "id": f"player-{seat}-alone",
            "text": f"Fewest actions for player {seat} to clear the stock alone (the opponent never plays; "
                    f"not a bound on the race)",
            "seat": seat,
        }
        try:
            count = solitaire_count(position, seat, max_positions)
        except SolitaireLimitError as error:
            report.append(entry | {"status": "unknown", "reason": str(error)})
            continue
        if count is None:
            report.append(entry | {"status": "solved", "clears_alone": False, "actions": None})
            continue
        report.append(
            entry
            | {"status": "solved", "clears_alone": True, "actions": count.actions, "plays": count.plays,
               "fills": count.fills, "spits": count.spits, "positions": count.positions,
               "line": [{"seat": seat, "move": str(move)} for move in count.line]}
        )
    return report


class SpitAdapter:
    """`halfmoon endgame spit`: positions from files or SP1 codes, the race question, notation."""

    name = "spit"
    title = "Spit"
    game = GAME

    def position_from_json(self, data: Any) -> SpitPosition:
        return position_from_json(data)

    def position_to_json(self, position: SpitPosition) -> dict[str, Any]:
        return position.to_json()

    def position_from_code(self, code: str, moves: str = "") -> SpitPosition:
        position = position_from_code(code)
        return replay(position, moves).position if moves.strip() else position

    def until_endgame(self, position: SpitPosition, seed: int = 0) -> tuple[SpitPosition, list[SpitMove]]:
        return play_until_endgame(position, seed)

    def asks(self, position: SpitPosition) -> list[Ask]:
        me = position.to_move
        return [
            Ask(
                "win-loss",
                f"Player {me} to move: can player {me} force clearing the stock first (win), can player {1 - me} "
                f"(loss), or neither (draw: the round ends with no winner)?",
                WinLoss(me),
                {1: "win", 0: "draw", -1: "loss"},
                me,
            )
        ]

    def format_move(self, position: SpitPosition, move: SpitMove) -> str:
        return str(move)

    def move_note(self, position: SpitPosition, move: SpitMove) -> str:
        text = describe_move(position, move)
        if move.kind == PASS:
            return text[len("pass (") : -1] if text.startswith("pass (") else ""
        return text[len(str(move)) + 2 : -1]

    def describe(self, position: SpitPosition) -> str:
        lines = []
        over = terminal(position) is not None
        for seat in range(SEATS):
            mark = "→" if seat == position.to_move and not over else " "
            places = []
            for i, pile in enumerate(position.stock[seat], start=1):
                if not pile:
                    places.append(f"{i}: --")
                    continue
                under = " ".join(CARD_TEXT[c] for c in reversed(pile[:-1]))
                places.append(f"{i}: {CARD_TEXT[pile[-1]]}" + (f" [{under}]" if under else ""))
            spit = " ".join(CARD_TEXT[c] for c in position.spit_cards[seat]) or "-"
            lines.append(
                f"{mark} player {seat}: stock {position.stock_left(seat)}  " + "  ".join(places)
                + f"  | spit cards (next first): {spit}"
            )
        piles = []
        for p, name in enumerate(PILE_NAMES):
            cards = position.spit_piles[p]
            piles.append(f"{name} (player {p}'s): " + (f"{CARD_TEXT[cards[-1]]} ({len(cards)} card{'s' * (len(cards) != 1)})" if cards else "empty"))
        lines.append("  spit piles: " + "   ".join(piles))
        if position.passed and not over:
            lines.append(f"  player {1 - position.to_move} has just passed: another pass makes both spit")
        lines.append("  (stock places: the face-up card, then [the face-down cards under it, top first])")
        return "\n".join(lines)

    def notes(self, position: SpitPosition) -> list[str]:
        return [
            "Turn model (docs/rules/spit.md): real Spit is simultaneous; here the players alternate single "
            "actions, pass only when they cannot play or fill, and two passes in a row make both spit. "
            "Values are exact for this model; 'draw' means the round ends with no winner.",
            "Double dummy: the solver knows every face-down card (stock and spit cards).",
        ]

    def extra_answers(self, position: SpitPosition, limits: Any = None) -> list[dict[str, Any]]:
        """Each player's solitaire count (fewest actions to clear the stock alone); [] once over."""
        if terminal(position) is not None:
            return []
        cap = getattr(limits, "nodes", None) or SOLITAIRE_LIMIT
        return solitaire_report(position, min(cap, SOLITAIRE_LIMIT))

    def sample_positions(self, seed: int, count: int) -> Iterator[SpitPosition]:
        """Seeded SP1 deals played on by the policy to small endgames (4 … 10 stock cards in all),
        small enough for the conformance test's brute force."""
        rng = SplitMix64(seed)
        for _ in range(count):
            start = position_from_code(str(DealCode("SP", 1, "N", rng.below(DEAL_COUNT))))
            position, _ = play_until_endgame(start, rng.below(1 << 32), 4 + rng.below(7))
            yield position


__all__ = ["ENDGAME_STOCK", "SpitAdapter", "play_until_endgame", "policy_move", "solitaire_report"]


ADAPTER = SpitAdapter()
