"""What the `halfmoon` command line and the HTTP service need beyond the questions of `halfmoon`.

Batches and curation (`survey`, `generate`, `rate`, `curated`, `curation_state`), the results
store (`open_store`, `from_store`: the answer `solve` would take from it), rule files of the
Elevens family, the stats the service reports, and deal-code parsing (`parse_code`, `parse_range`, …; the deal codes
themselves are `halfmoon.dealcodes`). A program that solves deals needs only `halfmoon`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._namespace import Namespace

if TYPE_CHECKING:  # the names of `_PUBLIC` for type checkers (tests/test_public_api.py checks that they agree)
    from halfmoon.dealcodes import DEAL_COUNT as DEAL_COUNT
    from halfmoon.dealcodes import code_pattern as code_pattern
    from halfmoon.dealcodes import parse_card as parse_card
    from halfmoon.dealcodes import parse_code as parse_code
    from halfmoon.dealcodes import parse_range as parse_range
    from halfmoon.dealcodes import sample_numbers as sample_numbers
    from halfmoon.solver.api.batch import curated as curated
    from halfmoon.solver.api.batch import curation_state as curation_state
    from halfmoon.solver.api.batch import generate as generate
    from halfmoon.solver.api.batch import rate as rate
    from halfmoon.solver.api.batch import survey as survey
    from halfmoon.solver.api.lookup import engine_warning as engine_warning
    from halfmoon.solver.api.lookup import number as number
    from halfmoon.solver.api.lookup import rule_file as rule_file
    from halfmoon.solver.api.lookup import rule_preset_text as rule_preset_text
    from halfmoon.solver.api.lookup import rule_presets as rule_presets
    from halfmoon.solver.api.solitaire import from_store as from_store
    from halfmoon.solver.errors import NotFoundError as NotFoundError
    from halfmoon.solver.errors import StoreError as StoreError
    from halfmoon.solver.rating import TIERS as TIERS
    from halfmoon.solver.rating import RatingParams as RatingParams
    from halfmoon.solver.results import CuratedPage as CuratedPage
    from halfmoon.solver.stats import TimeHistogram as TimeHistogram
    from halfmoon.solver.store import ResultStore as ResultStore
    from halfmoon.solver.store import StoredRating as StoredRating
    from halfmoon.solver.store import StoredResult as StoredResult
    from halfmoon.solver.store import open_store as open_store

_PUBLIC = Namespace(__name__, {
    # batches and curation
    "halfmoon.solver.api.batch": ("survey", "generate", "rate", "curated", "curation_state"),
    "halfmoon.solver.rating": ("RatingParams", "TIERS"),
    "halfmoon.solver.results": ("CuratedPage",),
    # the results store
    "halfmoon.solver.store": ("open_store", "ResultStore", "StoredResult", "StoredRating"),
    "halfmoon.solver.api.solitaire": ("from_store",),
    "halfmoon.solver.errors": ("StoreError", "NotFoundError"),
    # the catalogue and rule files
    "halfmoon.solver.api.lookup": ("number", "engine_warning", "rule_file", "rule_presets", "rule_preset_text"),
    # the service's latency figures
    "halfmoon.solver.stats": ("TimeHistogram",),
    # deal codes, read and listed
    "halfmoon.dealcodes": ("DEAL_COUNT", "code_pattern", "parse_card", "parse_code", "parse_range", "sample_numbers"),
})
__all__ = _PUBLIC.names

if not TYPE_CHECKING:  # type checkers read the imports above, so a name not among them is an error there

    def __getattr__(name: str) -> Any:
        return _PUBLIC.load(name)

    def __dir__() -> list[str]:
        return list(__all__)
