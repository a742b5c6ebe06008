"""Building, checking and reading an atlas: the solving side, over `core.batch` executors.

`build_atlas` splits a range of deal numbers into chunks (aligned blocks of, by default, 4096
deals inside one shard), hands each chunk to a worker as one job (local processes or a Dask
cluster), and commits each finished chunk to its shard from this process alone (one writer,
journalled: see `format`). Deals the atlas already holds are skipped, so the same command
resumes an interrupted build; ``redecide`` solves again only the deals recorded unknown (with
longer limits). A chunk whose worker keeps dying is solved again deal by deal, and a deal that
still kills its worker is recorded unknown with the reason. `verify_atlas` checks every shard's
checksums and re-solves a random sample of decided deals with the game's methods; `atlas_stats`
counts and lists.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from halfmoon.dealcodes import DEAL_COUNT
from halfmoon.solver.catalogue import from_reference, reference
from halfmoon.solver.core.adapters import Solitaire
from halfmoon.solver.core.batch import ExecutorSource, Job, run_jobs
from halfmoon.solver.core.verdicts import Limits, Verdict
from halfmoon.solver.errors import AtlasError, UnsupportedError

from .format import (
    CODE_NAMES,
    DEFAULT_SHARD_BITS,
    KEEP,
    MAX_SHARD_BITS,
    MIN_SHARD_BITS,
    NOT_DONE,
    UNKNOWN,
    UNWINNABLE,
    VERDICT_CODES,
    WINNABLE,
    Atlas,
    Shard,
    ShardWriter,
    Unknown,
    atlas_directory,
    data_size,
    game_prefix,
    shard_name,
    unpack_codes,
    writing,
)

DEFAULT_CHUNK = 4096
Z95 = 1.959963984540054
LINE_FAILS = "the solver's winning line does not replay through the rules"


def atlas_game(solitaire: Solitaire[Any, Any]) -> str:
    """The game an atlas of this solitaire holds: its code prefix (``HM1-N``); catalogue games only."""
    if reference(solitaire)[1] is not None:
        raise UnsupportedError(f"{solitaire.title}: an atlas is built for the catalogue's solitaires "
                               "(a custom rule file has no deal codes of its own)")
    return game_prefix(solitaire.code(0))


def shard_count(bits: int, index: int) -> int:
    """Deals in shard `index` (the last shard of the 26^7 range is shorter)."""
    first = index << bits
    return min(1 << bits, DEAL_COUNT - first)


def _check_numbers(numbers: range) -> range:
    if not isinstance(numbers, range) or numbers.step != 1 or not 0 <= numbers.start < numbers.stop <= DEAL_COUNT:
        raise AtlasError(f"range {numbers!r}: expected deal numbers A … B-1 with 0 <= A < B <= {DEAL_COUNT}")
    return numbers


def _check_chunk(chunk: int | None, bits: int, todo: int, workers: int) -> int:
    """The chunk asked for, or (None) the default shrunk so that a small range still gives every
    worker about four chunks; never more than a shard."""
    if chunk is None:
        chunk = DEFAULT_CHUNK
        while chunk > 64 and chunk * 4 * workers > todo:
            chunk //= 2
    if chunk < 4 or chunk & (chunk - 1):
        raise AtlasError(f"chunk {chunk}: expected a power of two, at least 4")
    return min(chunk, 1 << bits)


# -- the work a worker does -------------------------------------------------------------------------


@dataclass(frozen=True)
class ChunkResult:
    """A worker's answer for a list of deals: one code each (as `numbers`), the unknowns' entries, the effort."""

    numbers: range | tuple[int, ...]
    codes: bytes
    unknowns: tuple[Unknown, ...]
    seconds: float  # solve time summed over the deals (wall clock on the worker)
    nodes: int
    cpu_seconds: float = 0.0  # CPU time of the worker over the list (steadier on a shared machine)


def solve_numbers(ref: tuple[str, Any], numbers: range | tuple[int, ...], limits: Limits, method: str | None,
                  replay: bool = True) -> ChunkResult:
    """Solve each deal of `numbers` (runs on a worker; the game is looked up there by its reference).

    A winning line is replayed through the rules here (`replay`); one that does not replay, or a
    solve that raises, makes the deal unknown with the reason, never a verdict.
    """
    solitaire = from_reference(ref)
    chosen = method or solitaire.methods[0]
    codes = bytearray(len(numbers))
    unknowns: list[Unknown] = []
    total_seconds, total_nodes = 0.0, 0
    cpu_started = time.process_time()
    for k, number in enumerate(numbers):
        started = time.perf_counter()
        stopped: str | None = None
        error: str | None = None
        try:
            position = solitaire.deal(number)
            found = solitaire.solve(position, chosen, limits, 0)
            total_nodes += found.nodes
            code = VERDICT_CODES[found.verdict.value]
            stopped = found.stopped
            if code == WINNABLE and replay and (found.line is None or not solitaire.wins(position, found.line)):
                code, stopped, error = UNKNOWN, "error", LINE_FAILS
        except Exception as raised:  # noqa: BLE001 - a deal the solver fails on is unknown, with the reason
            code, stopped, error = UNKNOWN, "error", f"{type(raised).__name__}: {raised}"
        total_seconds += time.perf_counter() - started
        codes[k] = code
        if code == UNKNOWN:
            unknowns.append(Unknown(number, solitaire.code(number), stopped, limits.seconds, limits.nodes, error))
    return ChunkResult(numbers, bytes(codes), tuple(unknowns), total_seconds, total_nodes,
                       time.process_time() - cpu_started)


# -- building ----------------------------------------------------------------------------------------


@dataclass
class BuildReport:
    """What a build run did (this run only) and how fast; `to_json` is the summary `atlas build --json` prints."""

    game: str
    solver_version: str
    directory: str
    range: tuple[int, int]
    shard_bits: int
    chunk: int
    workers: int
    redecide: bool
    time_limit: float | None
    node_limit: int | None
    todo: int = 0  # deals to solve when the run started
    skipped: int = 0  # deals of the range already in the atlas
    solved: int = 0
    winnable: int = 0
    unwinnable: int = 0
    unknown: int = 0
    errors: int = 0  # unknown because the run failed (a worker kept dying, the solver raised, a bad line)
    chunks: int = 0
    solve_seconds: float = 0.0  # solve time summed over the deals (wall clock on the workers)
    cpu_seconds: float = 0.0  # CPU time of the workers
    nodes: int = 0
    started: float = field(default_factory=time.monotonic)
    wall_seconds: float = 0.0
    interrupted: bool = False

    def tick(self) -> None:
        self.wall_seconds = time.monotonic() - self.started

    @property
    def rate(self) -> float | None:
        """Deals a second, wall clock, over this run."""
        return self.solved / self.wall_seconds if self.wall_seconds > 0 and self.solved else None

    @property
    def eta_seconds(self) -> float | None:
        rate = self.rate
        return (self.todo - self.solved) / rate if rate else None

    def to_json(self) -> dict[str, Any]:
        rate = self.rate
        return {
            "game": self.game, "solver_version": self.solver_version, "directory": self.directory,
            "range": list(self.range), "shard_bits": self.shard_bits, "chunk": self.chunk, "workers": self.workers,
            "redecide": self.redecide, "time_limit": self.time_limit, "node_limit": self.node_limit,
            "todo": self.todo, "skipped": self.skipped, "solved": self.solved, "winnable": self.winnable,
            "unwinnable": self.unwinnable, "unknown": self.unknown, "errors": self.errors, "chunks": self.chunks,
            "solve_seconds": round(self.solve_seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
            "nodes": self.nodes,
            "wall_seconds": round(self.wall_seconds, 3),
            "deals_per_second": None if rate is None else round(rate, 2),
            "cpu_ms_per_deal": round(1000 * self.cpu_seconds / self.solved, 4) if self.solved else None,
            "interrupted": self.interrupted,
        }


def _layout_bits(atlas: Atlas, game: str, wanted: int | None) -> int:
    existing = atlas.layout.get(game)
    if wanted is not None and not MIN_SHARD_BITS <= wanted <= MAX_SHARD_BITS:
        raise AtlasError(f"shard bits {wanted}: expected {MIN_SHARD_BITS} … {MAX_SHARD_BITS}")
    if existing is not None and wanted is not None and existing != wanted:
        raise AtlasError(f"atlas {atlas.path}: its {game} shards hold 2^{existing} deals, not 2^{wanted}")
    return existing or wanted or DEFAULT_SHARD_BITS


def _todo_mask(codes: np.ndarray, redecide: bool) -> np.ndarray:
    return codes == (UNKNOWN if redecide else NOT_DONE)


def build_atlas(
    solitaire: Solitaire[Any, Any],
    numbers: range,
    directory: str | Path,
    source: ExecutorSource,
    *,
    limits: Limits,
    method: str | None = None,
    shard_bits: int | None = None,
    chunk: int | None = None,
    redecide: bool = False,
    sync: bool = True,
    replay: bool = True,
    on_progress: Callable[[BuildReport], None] | None = None,
    window: int | None = None,
) -> BuildReport:
    """Decide every deal of `numbers` not yet in the atlas at `directory` (made if missing) and commit it.

    `limits` are used as given (the facade completes them with the game's defaults). Safe to
    stop at any moment (Ctrl-C, SIGTERM, a kill): run it again to go on from what was committed.
    """
    game = atlas_game(solitaire)
    numbers = _check_numbers(numbers)
    if chunk is not None:
        _check_chunk(chunk, MAX_SHARD_BITS, 0, 1)
    out = atlas_directory(directory, create=True)
    ref = reference(solitaire)
    version = solitaire.solver_version
    with writing(out):
        with Atlas(out) as existing:
            bits = _layout_bits(existing, game, shard_bits)
        indexes = range(numbers.start >> bits, ((numbers.stop - 1) >> bits) + 1)
        todo = sum(_todo_in_shard(out, game, bits, index, numbers, redecide) for index in indexes)
        chunk = _check_chunk(chunk, bits, todo, source.workers)
        report = BuildReport(game, version, str(out), (numbers.start, numbers.stop), bits, chunk, source.workers,
                             redecide, limits.seconds, limits.nodes)
        report.todo = todo
        report.skipped = len(numbers) - report.todo if not redecide else 0
        writers: dict[int, ShardWriter] = {}
        pending: dict[int, int] = {}
        generated: set[int] = set()

        def writer(index: int) -> ShardWriter:
            if index not in writers:
                writers[index] = ShardWriter(out, game, bits, index, shard_count(bits, index), version, sync=sync)
                pending.setdefault(index, 0)
            return writers[index]

        def release(index: int) -> None:
            if index in generated and pending.get(index, 0) == 0 and index in writers:
                writers.pop(index).close()

        def jobs() -> Iterator[Job]:
            for index in indexes:
                lo, hi = max(numbers.start, index << bits), min(numbers.stop, (index + 1) << bits)
                shard = writer(index)
                for c0 in range(lo, hi, chunk) if lo % chunk == 0 else _aligned(lo, hi, chunk):
                    c1 = min(hi, (c0 // chunk + 1) * chunk)
                    todo = _todo_mask(shard.codes(c0, c1), redecide)
                    if not todo.any():
                        continue
                    todo_numbers: range | tuple[int, ...] = range(c0, c1) if todo.all() else \
                        tuple((np.flatnonzero(todo) + c0).tolist())
                    pending[index] += 1
                    yield Job((index, c0), (ref, todo_numbers, limits, method, replay))
                generated.add(index)
                release(index)

        def commit(index: int, result: ChunkResult) -> None:
            _commit(writer(index), result, version)
            report.chunks += 1
            report.solved += len(result.numbers)
            codes = np.frombuffer(result.codes, dtype=np.uint8)
            report.winnable += int(np.count_nonzero(codes == WINNABLE))
            report.unwinnable += int(np.count_nonzero(codes == UNWINNABLE))
            report.unknown += int(np.count_nonzero(codes == UNKNOWN))
            report.errors += sum(entry.stopped == "error" for entry in result.unknowns)
            report.solve_seconds += result.seconds
            report.cpu_seconds += result.cpu_seconds
            report.nodes += result.nodes
            report.tick()
            if on_progress is not None:
                on_progress(report)

        failed: list[Job] = []
        try:
            for outcome in run_jobs(solve_numbers, jobs(), source, window=window, lookahead=2):
                index = _shard_of(outcome.job)
                if outcome.ok:
                    commit(index, outcome.value)
                else:
                    failed.append(outcome.job)
                pending[index] -= 1
                release(index)
            for job in failed:  # chunks whose worker kept dying: deal by deal, so one bad deal costs only itself
                index = _shard_of(job)
                commit(index, _split(job, source, solitaire, limits, method, replay, window))
                release(index)
        except KeyboardInterrupt:
            report.interrupted = True
            raise
        finally:
            for opened in writers.values():
                opened.close()
            report.tick()
    return report


def _shard_of(job: Job) -> int:
    key = job.key
    assert isinstance(key, tuple)
    return int(key[0])


def _aligned(lo: int, hi: int, chunk: int) -> Iterator[int]:
    """Chunk starts from `lo` (maybe unaligned) up to `hi`, every later one on a multiple of `chunk`."""
    yield lo
    yield from range((lo // chunk + 1) * chunk, hi, chunk)


def _todo_in_shard(out: Path, game: str, bits: int, index: int, numbers: range, redecide: bool) -> int:
    """Deals of `numbers` in shard `index` still to solve (from the header when the range covers the shard)."""
    first, count = index << bits, shard_count(bits, index)
    lo, hi = max(numbers.start, first), min(numbers.stop, first + count)
    path = out / shard_name(game, bits, index)
    if not path.exists():
        return 0 if redecide else hi - lo
    if lo == first and hi == first + count:
        with Atlas(out) as atlas:
            header = atlas.header(path)
        return header.counts[UNKNOWN if redecide else NOT_DONE]
    shard = Shard.read(path, check=False)
    if len(shard.data) != data_size(count):
        return 0
    return int(np.count_nonzero(_todo_mask(shard.codes(lo, hi), redecide)))


def _commit(writer: ShardWriter, result: ChunkResult, version: str) -> None:
    numbers = result.numbers
    codes = np.frombuffer(result.codes, dtype=np.uint8)
    if isinstance(numbers, range):
        writer.update(numbers.start, codes, result.unknowns, version)
        return
    start = numbers[0]
    update = np.full(numbers[-1] - start + 1, KEEP, dtype=np.uint8)
    update[np.asarray(numbers, dtype=np.int64) - start] = codes
    writer.update(start, update, result.unknowns, version)


def _split(job: Job, source: ExecutorSource, solitaire: Solitaire[Any, Any], limits: Limits, method: str | None,
           replay: bool, window: int | None) -> ChunkResult:
    """Solve a failed chunk's deals one job each; a deal whose worker still dies is unknown with the reason."""
    ref, numbers = job.args[0], job.args[1]
    singles = (Job(number, (ref, (number,), limits, method, replay)) for number in numbers)
    codes: dict[int, int] = {}
    entries: dict[int, Unknown] = {}
    seconds, nodes, cpu = 0.0, 0, 0.0
    for outcome in run_jobs(solve_numbers, singles, source, window=window, lookahead=2):
        number = outcome.job.args[1][0]
        if outcome.ok:
            value: ChunkResult = outcome.value
            codes[number] = value.codes[0]
            entries.update({entry.number: entry for entry in value.unknowns})
            seconds, nodes, cpu = seconds + value.seconds, nodes + value.nodes, cpu + value.cpu_seconds
        else:
            codes[number] = UNKNOWN
            entries[number] = Unknown(number, solitaire.code(number), "error", limits.seconds, limits.nodes,
                                      f"{outcome.error} (after {outcome.attempts} attempts)")
    ordered = tuple(sorted(codes))
    return ChunkResult(ordered, bytes(codes[n] for n in ordered), tuple(entries[n] for n in sorted(entries)),
                       seconds, nodes, cpu)


# -- statistics ---------------------------------------------------------------------------------------


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ((0, 1) with no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (0.0 if successes == 0 else max(0.0, centre - half), 1.0 if successes == trials else min(1.0, centre + half))


@dataclass
class AtlasStats:
    """Counts of an atlas (or of a range of it), the winnable share and its 95% interval, the files' sizes."""

    directory: str
    game: str
    shard_bits: int
    shards: int
    solver_versions: str
    range: tuple[int, int] | None  # the range counted (None: every shard)
    covered: tuple[int, int] | None  # first and stop of the shards present
    not_done: int = 0
    winnable: int = 0
    unwinnable: int = 0
    unknown: int = 0
    capacity: int = 0  # deal slots of the shards present
    file_bytes: int = 0  # apparent size of the shards and sidecars
    disk_bytes: int = 0  # blocks allocated on disk (shards are sparse until written)

    @property
    def done(self) -> int:
        return self.winnable + self.unwinnable + self.unknown

    def to_json(self) -> dict[str, Any]:
        decided = self.winnable + self.unwinnable
        lo, hi = wilson(self.winnable, decided)
        both = (wilson(self.winnable, self.done)[0], wilson(self.winnable + self.unknown, self.done)[1])
        return {
            "directory": self.directory, "game": self.game, "shard_bits": self.shard_bits, "shards": self.shards,
            "solver_versions": self.solver_versions,
            "range": None if self.range is None else list(self.range),
            "covered": None if self.covered is None else list(self.covered),
            "done": self.done, "not_done": self.not_done, "winnable": self.winnable, "unwinnable": self.unwinnable,
            "unknown": self.unknown, "share": round(self.winnable / decided, 8) if decided else None,
            "ci95": [round(lo, 8), round(hi, 8)],
            "ci95_unknowns_both_ways": [round(both[0], 8), round(both[1], 8)],
            "file_bytes": self.file_bytes, "disk_bytes": self.disk_bytes,
            "capacity": self.capacity,
            "bytes_per_deal": round(self.file_bytes / self.capacity, 6) if self.capacity else None,
        }


def atlas_stats(directory: str | Path, game: str | None = None, numbers: range | None = None) -> AtlasStats:
    """Count an atlas from its shards' headers, or a range of it from its data (checksums checked)."""
    with Atlas(directory) as atlas:
        chosen = atlas.game(game)
        bits = atlas.layout[chosen]
        paths = atlas.shard_paths(chosen)
        headers = [atlas.header(path) for path in paths]
    versions = "+".join(sorted({v for h in headers for v in h.solver_version.split("+") if v}))
    covered = (min(h.first for h in headers), max(h.first + h.count for h in headers)) if headers else None
    stats = AtlasStats(str(directory), chosen, bits, len(paths), versions,
                       None if numbers is None else (numbers.start, numbers.stop), covered)
    for path, header in zip(paths, headers):
        stats.capacity += header.count
        for extra in (path, path.with_name(path.name[: -len(".atlas")] + ".unknown.jsonl")):
            if extra.exists():
                status = extra.stat()
                stats.file_bytes += status.st_size
                stats.disk_bytes += status.st_blocks * 512
        if numbers is None:
            counts = header.counts
        else:
            lo, hi = max(numbers.start, header.first), min(numbers.stop, header.first + header.count)
            if lo >= hi:
                continue
            codes = Shard.read(path).codes(lo, hi)
            counts = tuple(int(np.count_nonzero(codes == c)) for c in range(4))  # type: ignore[assignment]
        stats.not_done += counts[NOT_DONE]
        stats.winnable += counts[WINNABLE]
        stats.unwinnable += counts[UNWINNABLE]
        stats.unknown += counts[UNKNOWN]
    if numbers is not None:  # deals of the range with no shard at all are not done either
        stats.not_done = len(numbers) - stats.done
    return stats


def atlas_numbers(directory: str | Path, verdict: str, game: str | None = None,
                  numbers: range | None = None) -> Iterator[int]:
    """The deal numbers holding `verdict` (winnable, unwinnable, unknown, "not done"), ascending."""
    if verdict not in CODE_NAMES:
        raise AtlasError(f"verdict {verdict!r}: expected one of {', '.join(CODE_NAMES)}")
    wanted = CODE_NAMES.index(verdict)
    with Atlas(directory) as atlas:
        chosen = atlas.game(game)
        paths = atlas.shard_paths(chosen)
    for path in paths:
        shard = Shard.read(path)
        lo, hi = shard.first, shard.stop
        if numbers is not None:
            lo, hi = max(lo, numbers.start), min(hi, numbers.stop)
        if lo < hi:
            yield from (np.flatnonzero(shard.codes(lo, hi) == wanted) + lo).tolist()


def unknown_entries(directory: str | Path, game: str | None = None, numbers: range | None = None
                    ) -> Iterator[Unknown]:
    """The sidecar entries of the unknown deals, ascending (within `numbers`)."""
    with Atlas(directory) as atlas:
        chosen = atlas.game(game)
        paths = atlas.shard_paths(chosen)
    for path in paths:
        for number, entry in sorted(Shard.read(path).unknowns.items()):
            if numbers is None or number in numbers:
                yield entry


# -- verifying ---------------------------------------------------------------------------------------


def resolve_numbers(ref: tuple[str, Any], numbers: tuple[int, ...], methods: tuple[str, ...], limits: Limits
                    ) -> list[tuple[int, dict[str, str]]]:
    """Solve each deal with each method (runs on a worker): the verdicts, a line that fails to replay marked."""
    solitaire = from_reference(ref)
    answers = []
    for number in numbers:
        position = solitaire.deal(number)
        verdicts: dict[str, str] = {}
        for method in methods:
            try:
                found = solitaire.solve(position, method, limits, 0)
                verdict = found.verdict.value
                if found.verdict is Verdict.WINNABLE and (found.line is None or not solitaire.wins(position, found.line)):
                    verdict = "bad-line"
            except Exception as raised:  # noqa: BLE001 - reported, never a verdict
                verdict = f"error: {type(raised).__name__}: {raised}"
            verdicts[method] = verdict
        answers.append((number, verdicts))
    return answers


@dataclass
class VerifyReport:
    """Checksums of every shard, and a sample of decided deals solved again by each method."""

    directory: str
    game: str
    shards: int
    problems: list[str]
    methods: tuple[str, ...]
    seed: int
    sample: int = 0  # deals re-solved
    agreed: int = 0  # deals where every method that decided agrees with the atlas
    undecided: dict[str, int] = field(default_factory=dict)  # per method: unknown within the limits
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems and not self.disagreements

    def to_json(self) -> dict[str, Any]:
        return {"directory": self.directory, "game": self.game, "shards": self.shards, "problems": self.problems,
                "methods": list(self.methods), "seed": self.seed, "sample": self.sample, "agreed": self.agreed,
                "undecided": self.undecided, "disagreements": self.disagreements, "ok": self.ok,
                "seconds": round(self.seconds, 3)}


def sample_decided(directory: str | Path, game: str, count: int, seed: int) -> list[tuple[int, str]]:
    """`count` distinct decided deals drawn uniformly (by `seed`) from the atlas, with their verdicts, ascending."""
    with Atlas(directory) as atlas:
        paths = atlas.shard_paths(game)
        headers = [atlas.header(path) for path in paths]
    decided = [h.counts[WINNABLE] + h.counts[UNWINNABLE] for h in headers]
    total = sum(decided)
    picks = sorted(random.Random(seed).sample(range(total), min(count, total)))
    chosen: list[tuple[int, str]] = []
    base = 0
    pick_at = 0
    for path, header, amount in zip(paths, headers, decided):
        mine = []
        while pick_at < len(picks) and picks[pick_at] < base + amount:
            mine.append(picks[pick_at] - base)
            pick_at += 1
        base += amount
        if mine:
            codes = Shard.read(path).codes()
            where = np.flatnonzero((codes == WINNABLE) | (codes == UNWINNABLE))
            for k in mine:
                offset = int(where[k])
                chosen.append((header.first + offset, CODE_NAMES[codes[offset]]))
    return chosen


def check_atlas(directory: str | Path, game: str | None = None) -> tuple[str, int, list[str]]:
    """(game, shards, problems): every shard's checksums, counts, padding and sidecar checked."""
    with Atlas(directory) as atlas:
        chosen = atlas.game(game)
        paths = atlas.shard_paths(chosen)
    problems: list[str] = []
    for path in paths:
        try:
            problems += Shard.read(path, check=False).problems()
        except AtlasError as error:
            problems.append(str(error))
    return chosen, len(paths), problems


def verify_atlas(
    solitaire: Solitaire[Any, Any],
    directory: str | Path,
    source: ExecutorSource | None,
    *,
    sample: int,
    seed: int = 0,
    methods: Sequence[str] | None = None,
    limits: Limits,
    batch: int = 8,
    on_progress: Callable[[int, int], None] | None = None,
) -> VerifyReport:
    """Check every shard, then solve `sample` decided deals again with each method and compare.

    Default methods: the portfolio and CP-SAT where the game has it (Half Moon: auto and cpsat),
    else the game's default method. A method that hits a limit counts as undecided, not as a
    disagreement; a method that contradicts the atlas or another method, or a winning line that
    does not replay, is a disagreement.
    """
    started = time.monotonic()
    game = atlas_game(solitaire)
    chosen_game, shards, problems = check_atlas(directory, game)
    if methods is None:
        methods = tuple(m for m in ("auto", "cpsat") if m in solitaire.methods) or (solitaire.methods[0],)
    for method in methods:
        if method not in solitaire.methods:
            raise UnsupportedError(f"method {method!r}: {solitaire.title} is solved by {', '.join(solitaire.methods)}")
    report = VerifyReport(str(directory), chosen_game, shards, problems, tuple(methods), seed)
    report.undecided = {method: 0 for method in methods}
    if sample and not problems:
        assert source is not None
        picked = sample_decided(directory, chosen_game, sample, seed)
        expected = dict(picked)
        ref = reference(solitaire)
        numbers = [number for number, _ in picked]
        jobs = (Job(k, (ref, tuple(numbers[k:k + batch]), tuple(methods), limits)) for k in range(0, len(numbers), batch))
        for outcome in run_jobs(resolve_numbers, jobs, source):
            answers = outcome.value if outcome.ok else [(n, {m: f"error: {outcome.error}" for m in methods})
                                                        for n in outcome.job.args[1]]
            for number, verdicts in answers:
                report.sample += 1
                atlas_verdict = expected[number]
                exact = {m: v for m, v in verdicts.items() if v in ("winnable", "unwinnable")}
                for method, verdict in verdicts.items():
                    if verdict == "unknown":
                        report.undecided[method] += 1
                wrong = any(v != atlas_verdict for v in exact.values()) or any(
                    v not in ("winnable", "unwinnable", "unknown") for v in verdicts.values())
                if wrong:
                    report.disagreements.append({"number": number, "code": solitaire.code(number),
                                                 "atlas": atlas_verdict} | verdicts)
                else:
                    report.agreed += 1
            if on_progress is not None:
                on_progress(report.sample, len(numbers))
    report.disagreements.sort(key=lambda d: d["number"])
    report.seconds = time.monotonic() - started
    return report
