"""The facade's implementation: every question about every game, asked one way.

`import halfmoon` (and `halfmoon.atlas`, `halfmoon.service`) re-export what these modules define;
the CLI and the HTTP service call only those. Each function takes a deal code of any game, a
position of the game (its value, or its JSON with ``game=``), or a deal of a custom rule file
(``rules=``), validates it (`resolve`), and answers with one of the result types of
`solver.results`, whose ``to_json()`` is the shape the CLI prints and the service sends.

One module per question:

- `resolve`: what the caller gave, read and dealt (every question starts there);
- `lookup`: the catalogue without solving (games, one game, codes, rule files);
- `deals`: deals and lines of any game (`deal`, `replay`);
- `solitaire`: `solve` (from the atlas, the store, or afresh) and `from_store`; the replay check;
- `hints`: `hint`, `fair_hint`, `analyze`;
- `endgames`: `endgame`, `endgame_position`;
- `batch`: surveys, generating and rating deals, the curated feed;
- `atlas`: the winnability atlas (`halfmoon.atlas`; not re-exported here).

Limits: a `Limits` given here is completed by the game's defaults (a solitaire's own time
limit, an endgame's 60 s), so every question is bounded. Caching: with a results store, a
`solve` without an explicit ``method`` or ``seed`` answers from the store when its trust rules
allow (the answer then says ``cached``); an explicit method or seed always solves afresh.
"""

from .batch import *  # noqa: F403
from .deals import *  # noqa: F403
from .endgames import *  # noqa: F403
from .hints import *  # noqa: F403
from .lookup import *  # noqa: F403
from .solitaire import *  # noqa: F403
