"""The winnability atlas through the facade (`halfmoon.atlas`): open, look up, build, verify, merge, count.

An atlas holds one exact verdict per deal, read in O(1) without solving (`solver.atlas`, docs/atlas.md);
these functions resolve the game and the deal range as every question does, and build and verify
on the same executors as the surveys.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from .. import catalogue
from ..core.adapters import Solitaire
from ..core.verdicts import Limits, Verdict
from ..errors import InputError, UnsupportedError
from ..results import AtlasEntry
from .batch import executor
from .resolve import method_of, solitaire_start

_ATLASES: dict[Path, Any] = {}


def open_atlas(directory: str | Path) -> Any:
    """An atlas directory opened for lookups (`solver.atlas.Atlas`); one-line errors if it is not one."""
    from ..atlas import Atlas

    return Atlas(directory)


def _atlas_of(atlas: Any) -> Any:
    """An `Atlas` for a directory (kept open for later lookups) or the `Atlas` given."""
    from ..atlas import Atlas

    if isinstance(atlas, Atlas):
        return atlas
    key = Path(atlas).resolve()
    if key not in _ATLASES:
        _ATLASES[key] = Atlas(atlas)
    return _ATLASES[key]


def _numbers(numbers: range | str) -> range:
    """A range of deal numbers, or one written "A:B"."""
    from halfmoon.dealcodes import parse_range

    return parse_range(numbers) if isinstance(numbers, str) else numbers


def entry(solitaire: Solitaire[Any, Any], code_: str, number_: int, atlas: Any, strict: bool) -> AtlasEntry:
    """What `atlas` (a directory or an `Atlas`) holds for deal `number_` of `solitaire`; see `lookup`."""
    from ..atlas.build import atlas_game
    from ..atlas.format import CODE_NAMES, UNKNOWN, parse_sidecar, sidecar_path

    started = time.perf_counter()
    opened = _atlas_of(atlas)
    prefix = atlas_game(solitaire)
    if prefix not in opened.layout:
        if strict:
            opened.game(prefix)  # the one-line error: the atlas holds no such shards
        return AtlasEntry(solitaire.name, code_, number_, None, None, "", seconds=time.perf_counter() - started)
    cell = opened.cell(prefix, number_)
    verdict = None if cell.code == 0 else Verdict(CODE_NAMES[cell.code])
    unknown = None
    if cell.code == UNKNOWN:
        side = sidecar_path(cell.path)
        entries = parse_sidecar(side.read_bytes(), str(side)) if side.exists() else {}
        noted = entries.get(number_)
        unknown = noted.to_json() if noted is not None else None
    return AtlasEntry(solitaire.name, code_, number_, verdict, cell.header.solver_version if cell.header else None,
                      cell.path.name, unknown, time.perf_counter() - started)


def lookup(start: str | int, atlas: str | Path | Any, *, game: str | None = None,
           strict: bool = True) -> AtlasEntry:
    """What an atlas holds for a deal (a code, or a number of ``game``, default Half Moon): O(1), no solving.

    An atlas without shards of the deal's game is an `AtlasError`, or with ``strict=False`` an
    entry of a deal not done (``verdict`` None)."""
    if isinstance(start, int) and not isinstance(start, bool):
        solitaire = catalogue.solitaire(game or "HM")
        code_, number_ = solitaire.code(start), start
    else:
        found = solitaire_start(str(start), game, None, "atlas lookup")
        assert found.code is not None and found.number is not None
        solitaire, code_, number_ = found.solitaire, found.code, found.number
    return entry(solitaire, code_, number_, atlas, strict=strict)


def _atlas_solitaire(directory: str | Path, game: str | None) -> tuple[Solitaire[Any, Any], str]:
    """The solitaire of an atlas directory's game (``game``: a tag or name; default: its only game)."""
    from ..atlas import Atlas
    from ..atlas.build import atlas_game

    with Atlas(directory) as atlas:
        prefix = atlas.game(atlas_game(catalogue.solitaire(game)) if game is not None else None)
    solitaire = catalogue.solitaire(prefix[:2])
    if atlas_game(solitaire) != prefix:
        raise UnsupportedError(f"atlas {directory}: its {prefix} deals are not those of the {solitaire.title} "
                               f"codes this program reads ({atlas_game(solitaire)})")
    return solitaire, prefix


def build(
    numbers: range | str,
    out: str | Path,
    *,
    game: str = "HM",
    workers: int | None = None,
    dask: str | None = None,
    limits: Limits | None = None,
    method: str | None = None,
    shard_bits: int | None = None,
    chunk: int | None = None,
    redecide: bool = False,
    sync: bool = True,
    on_progress: Callable[..., None] | None = None,
) -> Any:
    """Decide every deal of `numbers` (a range or "A:B") into the atlas at `out`; resumable (a `BuildReport`).

    Deals already in the atlas are skipped; ``redecide`` solves again only those recorded unknown
    (give longer ``limits``). Chunks of ``chunk`` deals (default 4096, fewer when the range is small
    for the workers) are one job each on local
    worker processes (``workers``) or an existing Dask cluster (``dask``).
    """
    from ..atlas.build import build_atlas

    solitaire = catalogue.solitaire(game)
    chosen = method_of(solitaire, method) if method is not None else None
    effective = (limits or Limits()).over(solitaire.default_limits)
    with executor(workers, dask) as source:
        return build_atlas(solitaire, _numbers(numbers), out, source, limits=effective, method=chosen,
                           shard_bits=shard_bits, chunk=chunk, redecide=redecide, sync=sync,
                           on_progress=on_progress)


def stats(directory: str | Path, *, game: str | None = None, numbers: range | str | None = None) -> Any:
    """Counts, the winnable share with its 95% interval, unknowns and file sizes of an atlas (`AtlasStats`)."""
    from ..atlas.build import atlas_stats

    _, prefix = _atlas_solitaire(directory, game)
    return atlas_stats(directory, prefix, None if numbers is None else _numbers(numbers))


def numbers(directory: str | Path, verdict: str = "unwinnable", *, game: str | None = None,
            numbers: range | str | None = None) -> Iterator[int]:
    """The deal numbers of an atlas holding `verdict` ("winnable", "unwinnable", "unknown", "not done"), ascending."""
    from ..atlas.build import atlas_numbers

    _, prefix = _atlas_solitaire(directory, game)
    return atlas_numbers(directory, verdict, prefix, None if numbers is None else _numbers(numbers))


def unknowns(directory: str | Path, *, game: str | None = None, numbers: range | str | None = None
             ) -> Iterator[Any]:
    """The unknown deals of an atlas with the limits each reached (`Unknown` entries), ascending."""
    from ..atlas.build import unknown_entries

    _, prefix = _atlas_solitaire(directory, game)
    return unknown_entries(directory, prefix, None if numbers is None else _numbers(numbers))


def verify(
    directory: str | Path,
    *,
    sample: int = 0,
    seed: int = 0,
    game: str | None = None,
    methods: Sequence[str] | None = None,
    workers: int | None = None,
    dask: str | None = None,
    limits: Limits | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Any:
    """Check every shard's checksums, then re-solve `sample` decided deals with each method (`VerifyReport`).

    Half Moon's methods by default: the portfolio (auto) and CP-SAT; any disagreement is listed.
    """
    from ..atlas.build import verify_atlas

    if sample < 0:
        raise InputError(f"sample {sample}: expected a count of deals, 0 or more")
    solitaire, _ = _atlas_solitaire(directory, game)
    effective = (limits or Limits()).over(solitaire.default_limits)
    if not sample:
        return verify_atlas(solitaire, directory, None, sample=0, seed=seed, methods=methods, limits=effective)
    with executor(workers, dask) as source:
        return verify_atlas(solitaire, directory, source, sample=sample, seed=seed, methods=methods,
                            limits=effective, on_progress=on_progress)


def merge(target: str | Path, sources: Sequence[str | Path], *, game: str | None = None,
          sync: bool = True) -> Any:
    """Merge atlases into `target` (made if missing): done beats not done, exact beats unknown; two different
    exact verdicts stop the merge before anything is written (`AtlasConflictError`). A `MergeReport`."""
    from ..atlas.format import merge_atlases

    prefix = None
    if game is not None:
        from ..atlas.build import atlas_game

        prefix = atlas_game(catalogue.solitaire(game))
    return merge_atlases(target, sources, prefix, sync=sync)



__all__ = ["build", "lookup", "merge", "numbers", "open_atlas", "stats", "unknowns", "verify"]
