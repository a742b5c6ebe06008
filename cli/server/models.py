"""Request bodies and the documented answer shapes (they feed the OpenAPI schema at /docs).

Answers are built by the facade's own `to_json` functions, the ones the CLI prints (`Deal`,
`SolveResult`, `HintResult`, `CuratedPage`, `EndgameResult`), so the models here only *describe*
them: routes return those dictionaries as they are, never re-serialised through a model that
could drop or rename a field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

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


class HintRequest(BaseModel):
    """A deal code (any solitaire), or a layout in the `deal --json` shape, and the moves played so far."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"code": "HM1-N-AAAAAAB", "moves": "4+10, 1+3"}]})

    code: str | None = Field(None, description="A solitaire deal code (HM, EL, SE, TN).")
    layout: dict[str, Any] | None = Field(None, description="Instead of a code: a position as `deal --json` prints it.")
    game: str | None = Field(None, description="With a layout: the game's tag or name (default HM).")
    rules: str | dict[str, Any] | None = Field(
        None, description="With a layout: a rule preset's name or tag (`halfmoon rules list`), or a rule set as JSON.")
    moves: str | list[str] = Field("", description="Moves played, like '1+8, 8+5+3' or ['1+8', '8+5+3'].")


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


class EndgameRequest(BaseModel):
    """A position in the game's JSON shape (docs/endgames.md), or a deal code and moves."""

    model_config = ConfigDict(extra="forbid")

    position: dict[str, Any] | None = Field(None, description="The position JSON, as `endgame --position FILE` reads.")
    code: str | None = Field(None, description="Instead of a position: a deal code of the game.")
    moves: str = Field("", description="Moves to play from the deal (the game's notation); with `code` only.")
    until: Literal["endgame"] | None = Field(None, description="Play on with the fixed seeded policy to the endgame.")
    seed: int = Field(0, ge=0, description="Seed of the `until` policy.")
    method: Literal["auto", "retrograde", "negamax"] = "auto"
    max_seconds: float | None = Field(None, gt=0, description="Give up (unknown) after this long; at most the server's limit.")
    max_positions: int | None = Field(None, gt=0, description="Give up (unknown) beyond this many positions; at most the server's.")


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
