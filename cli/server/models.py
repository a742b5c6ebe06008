"""Request bodies and the documented answer shapes (they feed the OpenAPI schema at /docs).

Answers are built by the facade's own `to_json` functions, the ones the CLI prints (`Deal`,
`SolveResult`, `HintResult`, `CuratedPage`, `EndgameResult`), so the models here only *describe*
them: routes return those dictionaries as they are, never re-serialised through a model that
could drop or rename a field.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model

Verdict = Literal["winnable", "unwinnable", "unknown"]


class ErrorDetail(BaseModel):
    status: int = Field(description="The HTTP status again.")
    kind: str = Field(description="invalid_input, bad_request, not_found, method_not_allowed, payload_too_large, "
                                  "busy, worker_lost, unavailable or internal.")
    type: str = Field(description="The library's error class (e.g. MalformedCodeError).")
    message: str = Field(description="One line saying what is wrong and where (the CLI's message).")


class ErrorReply(BaseModel):
    error: ErrorDetail


class DealLayout(BaseModel):
    """`halfmoon deal CODE --json`: the code, the game, the deal number and the position's own JSON."""

    model_config = ConfigDict(extra="allow")

    code: str = Field(examples=["HM1-N-AAAAAAB"])
    game: str = Field(description="The game's catalogue name, e.g. halfmoon, elevens, shithead.")
    number: int


class Solution(BaseModel):
    """`halfmoon solve CODE --json` (the same shape for every solitaire), plus where the answer came from."""

    code: str
    game: str
    verdict: Verdict
    moves: list[str] | None = Field(description="The winning line (winnable only), replayed before it is sent.")
    cards: list[str] | None = Field(description="The cards each move of the line takes, e.g. '5S+6D'.")
    method: str = Field(description="What decided: search, cpsat, or none (undecided).")
    nodes: int
    seconds: float = Field(description="Solver time of the run that decided it (also when served from the store).")
    stopped: str | None = Field(description="The limit that ended an unknown verdict (time, nodes, memory).")
    cached: bool = Field(description="True when the answer was not solved now (results store or atlas).")
    solver_version: str
    source: Literal["store", "solver", "atlas"] = Field(
        description="store: the results store; solver: solved now; atlas: the winnability atlas (a verdict, no line).")


class Pending(BaseModel):
    """Answered with status 202 and a Retry-After header: the work goes on, ask again."""

    pending: Literal[True]
    retry_after: int = Field(description="Seconds to wait before asking again (also the Retry-After header).")
    reason: str
    code: str | None = None
    verdict: Literal["unknown"] | None = None


class MoveVerdict(BaseModel):
    move: str
    cards: str
    verdict: Verdict


class HintReply(BaseModel):
    """`halfmoon hint CODE --moves … --json`."""

    code: str | None
    game: str
    played: int
    verdict: Verdict
    best: str | None
    line: list[str] | None
    moves: list[MoveVerdict]
    seconds: float
    source: Literal["memory", "solver"]


class CuratedDeal(BaseModel):
    """One object of `halfmoon generate --json`: a winnable deal, its rating and winning line."""

    model_config = ConfigDict(extra="allow")

    code: str
    number: int
    tier: Literal["easy", "medium", "hard", "expert"]
    score: float
    line: list[str] = Field(description="The winning line, replayed before it is sent.")


class CuratedPage(BaseModel):
    game: str = Field(description="The game's catalogue name (halfmoon).")
    tier: str | None
    count: int
    after: str | None
    deals: list[CuratedDeal]
    next: str | None = Field(description="Pass as `after` for the next page.")
    complete: bool = Field(description="False when fewer than `count` deals exist yet (status 202: generating).")
    pending: bool | None = None
    retry_after: int | None = None


class EndgameReply(BaseModel):
    """`halfmoon endgame GAME --json`: every question's exact value, every move's value, a line."""

    model_config = ConfigDict(extra="allow")

    game: str
    players: int
    to_move: int | None
    terminal: Any
    position: dict[str, Any]
    notes: list[str]
    questions: list[dict[str, Any]]
    played: list[str]


class EndgameGame(BaseModel):
    """A multiplayer game of the catalogue (`halfmoon games --json`'s object)."""

    model_config = ConfigDict(extra="allow")

    tag: str
    name: str
    title: str


class EndgameGames(BaseModel):
    games: list[EndgameGame]


class Health(BaseModel):
    status: Literal["ok", "unavailable"]
    workers: int
    reason: str | None = None


# -- request bodies: built for the running service (its limits and its games go into the schema) -----------


#: A card as `deal --json` prints it (any case): rank A 2-9 T J Q K, suit C D H S.
CARD_PATTERN = "^[2-9TJQKAtjqka][CDHScdhs]$"
#: The most moves a body may list, and their length (far more than any game lasts); every body these
#: bounds allow stays under the default 64 KB body limit, so a schema-valid body is never refused as too large.
MAX_MOVES = 300
MAX_MOVE_CHARS = 32
MAX_MOVES_TEXT = 8192


UntilEndgame = Literal["endgame"]
ExactMethod = Literal["auto", "proof", "alphabeta", "retrograde", "negamax"]

def _whole(value: Any) -> Any:
    """JSON Schema's integers include 133.0: take a float with no fraction as the integer it is."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: A JSON integer (133 or 133.0; never true/false or text).
JsonInt = Annotated[int, BeforeValidator(_whole)]


def _absent_not_null(schema: dict[str, Any]) -> None:
    """Optional fields are left out, never null: drop the `null` default from their schemas."""
    for prop in schema.get("properties", {}).values():
        if prop.get("default", 0) is None:
            del prop["default"]


def _card(description: str = "") -> dict[str, Any]:
    return {"type": "string", "pattern": CARD_PATTERN} | ({"description": description} if description else {})


#: What a layout may hold: the `deal --json` shapes of the solitaires (other keys, e.g. code, are ignored).
LAYOUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A position as `halfmoon deal CODE --json` prints it: piles (bottom → top), reserve slots "
                   "(null when empty), and the stock for games with one; or a grid deal's `grid`. It must also "
                   "fit the game (its piles and slots, each card at most as often as its decks hold it): that "
                   "is checked by the service (400).",
    "properties": {
        "piles": {"type": "array", "maxItems": 64, "items": {"type": "array", "maxItems": 104, "items": _card()}},
        "reserve": {"type": "array", "maxItems": 64, "items": {"anyOf": [_card(), {"type": "null"}]}},
        "stock": {"type": "array", "maxItems": 416, "items": _card()},
        "grid": {"type": "array", "maxItems": 64, "items": {"anyOf": [_card(), {"type": "null"}]}},
    },
    "anyOf": [{"required": ["piles"]}, {"required": ["grid"]}],
}


def hint_request(solitaire_code: str, games: str, presets: str) -> type[BaseModel]:
    """The body of POST /v1/hint: a code (and moves), or a layout with its game or rules (and moves)."""

    def schema(out: dict[str, Any]) -> None:
        _absent_not_null(out)
        out["properties"]["layout"] = LAYOUT_SCHEMA
        out["oneOf"] = [
            {"required": ["code"], "not": {"anyOf": [{"required": ["layout"]}, {"required": ["game"]},
                                                     {"required": ["rules"]}]}},
            {"required": ["layout"], "not": {"anyOf": [{"required": ["code"]}, {"required": ["game", "rules"]}]}},
        ]
        out["examples"] = [{"code": "HM1-N-AAAAAAB", "moves": "4+10, 1+3"}]

    return create_model(
        "HintRequest",
        __config__=ConfigDict(extra="forbid", strict=True, json_schema_extra=schema),
        __doc__="A solitaire deal code, or a layout with its `game` (default HM) or `rules`; and the moves played "
                "so far. Exactly one of `code` and `layout`; `game` and `rules` only with a layout, not both.",
        code=(str, Field(None, json_schema_extra={"pattern": solitaire_code},
                         description="A solitaire deal code (HM, EL, SE, TN), any case.")),
        layout=(dict[str, Any], Field(None, description="Instead of a code: a layout (see the schema).")),
        game=(str, Field(None, json_schema_extra={"pattern": games},
                         description="With a layout: the solitaire's tag or name (default HM).")),
        rules=(str | dict[str, Any], Field(None, description="With a layout: an Elevens-family rule preset's name "
                                           "or tag, or a rule set as JSON (what a rule file holds).",
                                           json_schema_extra={"anyOf": [{"type": "string", "pattern": presets},
                                                                        {"type": "object"}]})),
        moves=(Annotated[str, Field(max_length=MAX_MOVES_TEXT)]
               | Annotated[list[Annotated[str, Field(max_length=MAX_MOVE_CHARS)]], Field(max_length=MAX_MOVES)],
               Field("", description="Moves played, like '1+8, 8+5+3' or ['1+8', '8+5+3'] (each must be legal "
                                     "where it is played: 400 otherwise).")),
    )


def endgame_request(code: str, max_seconds: float, max_positions: int) -> type[BaseModel]:
    """The body of POST /v1/endgames/{game}: a position, or a deal code of the game and moves."""

    def schema(out: dict[str, Any]) -> None:
        _absent_not_null(out)
        out["oneOf"] = [
            {"required": ["position"], "not": {"anyOf": [{"required": ["code"]}, {"required": ["moves"]}]}},
            {"required": ["code"], "not": {"required": ["position"]}},
        ]

    return create_model(
        "EndgameRequest",
        __config__=ConfigDict(extra="forbid", strict=True, json_schema_extra=schema),
        __doc__="A position in the game's JSON shape (docs/endgames.md), or a deal code of the game and moves; "
                "exactly one of `position` and `code` (`moves` only with a code).",
        position=(dict[str, Any], Field(None, description="The position JSON, as `endgame --position FILE` reads "
                                                          "(it must be a position of the game: 400 otherwise).")),
        code=(str, Field(None, json_schema_extra={"pattern": code},
                         description="Instead of a position: a deal code of this game, any case.")),
        moves=(str, Field("", max_length=MAX_MOVES_TEXT, description="Moves to play from the deal (the game's notation); "
                                                            "with `code` only.")),
        until=(UntilEndgame, Field(None, description="Play on with the fixed seeded policy to the endgame.")),
        seed=(JsonInt, Field(0, ge=0, le=2**53 - 1, description="Seed of the `until` policy (at most 2^53 - 1, exact in JSON).")),
        method=(ExactMethod, "auto"),
        max_seconds=(float, Field(None, gt=0, le=max_seconds, allow_inf_nan=False,
                                  description=f"Give up (unknown) after this long (default and most: {max_seconds:g}).")),
        max_positions=(JsonInt, Field(None, gt=0, le=max_positions, description=f"Give up (unknown) beyond this many "
                                  f"positions (default and most: {max_positions}).")),
    )
