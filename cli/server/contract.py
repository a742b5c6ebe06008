"""The HTTP API's contract: what its OpenAPI description says a request may hold (`Contract`)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import halfmoon

from .errors import ApiError
from .models import CARD_PATTERN, hint_request


def multiplayer() -> dict[str, halfmoon.GameInfo]:
    """The catalogue's multiplayer games (the endgame games) by name."""
    return {game.name: game for game in halfmoon.games() if game.kind == "multiplayer"}


def endgame_game(name: str) -> halfmoon.GameInfo:
    """A multiplayer game by name or tag; else 404 with the CLI's message."""
    try:
        return halfmoon.game(name, "multiplayer")
    except halfmoon.UnknownGameError as error:
        raise ApiError(404, str(error), "not_found", "UnknownGameError") from None


def words_pattern(words: Any) -> str:
    """A pattern matching exactly one of `words`, any case (Python and ECMAScript alike)."""
    def one(word: str) -> str:
        return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in word)

    return "^(?:" + "|".join(sorted({one(word) for word in words}, key=lambda w: (-len(w), w))) + ")$"


class Contract:
    """The patterns of the API description, built from the catalogue, and the checks that enforce them.

    A value the schema refuses is refused here with the library's own message when it has one
    (400), so clients can validate before they call and get the CLI's words when they did not.
    """

    def __init__(self, curated_game: str) -> None:
        games = halfmoon.games()
        solitaires = [g for g in games if g.kind != "multiplayer"]
        players = [g for g in games if g.kind == "multiplayer"]
        self.any_code = halfmoon.service.code_pattern()
        self.solitaire_code = halfmoon.service.code_pattern([g.tag for g in solitaires])
        self.multiplayer_code = halfmoon.service.code_pattern([g.tag for g in players])
        self.curated_code = halfmoon.service.code_pattern([halfmoon.game(curated_game).tag])
        self.solitaire_game = words_pattern([w for g in solitaires for w in (g.tag, g.name)])
        self.endgame_game = words_pattern([w for g in players for w in (g.tag, g.name)])
        aliases = []
        for stem in halfmoon.service.rule_presets():
            rules = halfmoon.service.rule_file(stem)
            aliases += [stem, rules.name, rules.name.replace(" ", "-")] + ([rules.tag] if rules.tag else [])
        self.preset = words_pattern(aliases)
        #: The body of /v1/hint and of the player's routes: a code or a layout, its game or rules, moves.
        self.hint_request = hint_request(self.solitaire_code, self.solitaire_game, self.preset)

    @staticmethod
    def code(text: str, pattern: str) -> str:
        """A deal code exactly as the schema describes it (else the library's message, or why not)."""
        if re.fullmatch(pattern, text):
            return text
        halfmoon.service.parse_code(text)  # raises the CLI's message for a code it cannot read
        raise halfmoon.InputError(f"deal code {text!r}: expected exactly a code such as HM1-N-AAAAAAB (the game's "
                                  f"tag, version 1 and its variant; nothing around it)")

    def game(self, text: str) -> str:
        if re.fullmatch(self.solitaire_game, text):
            return text
        names = ", ".join(f"{g.tag} ({g.name})" for g in halfmoon.games() if g.kind != "multiplayer")
        raise halfmoon.UnknownGameError(f"game {text!r}: expected a solitaire's tag or name: {names}")

    def rules(self, rules: str | dict[str, Any] | None) -> dict[str, Any] | None:
        """A rule set as JSON: a preset (by name or tag) or the rule set given. The service reads no files."""
        if rules is None or isinstance(rules, dict):
            return rules
        if not re.fullmatch(self.preset, rules):
            halfmoon.service.rule_preset_text(rules)  # the library's message for an unknown preset
            raise halfmoon.RuleFileError(f"rules {rules!r}: expected exactly a preset's name or tag "
                                         f"({', '.join(halfmoon.service.rule_presets())})")
        return json.loads(halfmoon.service.rule_preset_text(rules))

    def start(self, request: Any) -> tuple[Any, str | None, dict[str, Any] | None, str]:
        """The start, game, rules and moves of a body with a code or a layout (`hint_request`'s model)."""
        if (request.code is None) == (request.layout is None):
            raise ApiError(422, "give a deal code or a layout (one of them)", "bad_request", "UsageError")
        if request.code is not None and (request.game is not None or request.rules is not None):
            raise ApiError(422, "game and rules go with a layout (a deal code names its game)", "bad_request",
                           "UsageError")
        if request.game is not None and request.rules is not None:
            raise ApiError(422, "give the layout's game or its rules, not both", "bad_request", "UsageError")
        rules = self.rules(request.rules)
        if request.layout is not None:
            self.layout(request.layout)
            start: Any = request.layout
            game = self.game(request.game) if request.game is not None else ("HM" if rules is None else None)
        else:
            start, game = self.code(request.code, self.any_code), None
        moves = request.moves if isinstance(request.moves, str) else ", ".join(request.moves)
        return start, game, rules, moves

    async def solitaire_line(self, request: Any, question: str) -> tuple[Any, str | None, Any, str, Any]:
        """`start` and the line of moves replayed (off the event loop): a bad move is a 400 now."""
        start, game, rules, moves = self.start(request)
        line = await asyncio.to_thread(halfmoon.replay, start, moves, game=game, rules=rules)
        if line.game in multiplayer():
            raise halfmoon.UnsupportedError(f"{multiplayer()[line.game].title} is a multiplayer game: {question} is "
                                            f"for solitaires; ask `endgame` about its positions")
        return start, game, rules, moves, line

    @staticmethod
    def layout(layout: dict[str, Any]) -> None:
        """The layout schema's shapes and card spellings (the game's own shape is the facade's check)."""
        if "piles" not in layout and "grid" not in layout:
            raise halfmoon.PositionError("layout: missing key 'piles' (or 'grid')")

        def cards(where: str, value: Any, most: int, nulls: bool) -> None:
            if not isinstance(value, list):
                raise halfmoon.PositionError(f"layout: {where!r} must be a list")
            if len(value) > most:
                raise halfmoon.PositionError(f"layout: {where!r} holds {len(value)} items, at most {most}")
            for index, card in enumerate(value):
                if card is None and nulls:
                    continue
                if not isinstance(card, str) or not re.fullmatch(CARD_PATTERN, card):
                    raise halfmoon.PositionError(f"layout: {where}[{index}]: expected a card such as '5S' or 'TD', "
                                                 f"got {str(card)[:20]!r}")

        piles = layout.get("piles", [])
        if not isinstance(piles, list) or len(piles) > 64:
            raise halfmoon.PositionError("layout: 'piles' must be a list of at most 64 piles")
        for number, pile in enumerate(piles):
            cards(f"piles[{number}]", pile, 104, False)
        for key, most, nulls in (("reserve", 64, True), ("stock", 416, False), ("grid", 64, True)):
            if key in layout:
                cards(key, layout[key], most, nulls)
