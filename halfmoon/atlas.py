"""The winnability atlas: one exact verdict per deal, read without solving (docs/atlas.md).

    import halfmoon.atlas
    halfmoon.atlas.lookup("HM1-N-AAAAAAB", "atlas/").verdict   # O(1): one byte read, no solving
    halfmoon.atlas.build("0:100000", "atlas/", workers=2)      # decide every deal of a range (resumable)
    halfmoon.atlas.stats("atlas/").to_json()                    # counts and the winnable share's interval

`open_atlas` opens a directory once for many lookups; `verify` checks checksums and re-solves a
sample, `merge` joins atlases, `unknowns` and `numbers` list deals by verdict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._namespace import Namespace

if TYPE_CHECKING:  # the names of `_PUBLIC` for type checkers (tests/test_public_api.py checks that they agree)
    from halfmoon.solver.api.atlas import build as build
    from halfmoon.solver.api.atlas import lookup as lookup
    from halfmoon.solver.api.atlas import merge as merge
    from halfmoon.solver.api.atlas import numbers as numbers
    from halfmoon.solver.api.atlas import open_atlas as open_atlas
    from halfmoon.solver.api.atlas import stats as stats
    from halfmoon.solver.api.atlas import unknowns as unknowns
    from halfmoon.solver.api.atlas import verify as verify
    from halfmoon.solver.errors import AtlasConflictError as AtlasConflictError
    from halfmoon.solver.errors import AtlasCorruptError as AtlasCorruptError
    from halfmoon.solver.errors import AtlasError as AtlasError
    from halfmoon.solver.results import AtlasEntry as AtlasEntry

_PUBLIC = Namespace(__name__, {
    "halfmoon.solver.api.atlas": ("open_atlas", "lookup", "build", "verify", "merge", "stats", "unknowns", "numbers"),
    "halfmoon.solver.results": ("AtlasEntry",),
    "halfmoon.solver.errors": ("AtlasError", "AtlasCorruptError", "AtlasConflictError"),
})
__all__ = _PUBLIC.names

if not TYPE_CHECKING:  # type checkers read the imports above, so a name not among them is an error there

    def __getattr__(name: str) -> Any:
        return _PUBLIC.load(name)

    def __dir__() -> list[str]:
        return list(__all__)
