"""The atlas file format: every deal of a range decided, two bits a deal, in shards (docs/atlas.md).

Pure file handling, nothing about solving. An atlas is a directory of *shards*, each covering a
fixed block of ``2**bits`` consecutive deal numbers of one game (the last block of the 26^7 range
is shorter). A shard is one file: a 256-byte header, then two bits per deal (deal ``first + i`` in
bits ``2*(i % 4)`` … of byte ``i // 4``)::

    0 not yet done    1 winnable    2 unwinnable    3 unknown (a limit was hit)

Zero means "not done", so a new shard is a sparse file of zeros. Beside it, a *sidecar* (JSON
lines, sorted by number) names each unknown deal and the limits it reached. The header holds the
format version, the game (its code prefix, ``HM1-N``), the solver version(s), the first number
and the count, the count of each code, a BLAKE2b digest of the data and of the sidecar, and a
CRC-32 of itself.

Writes: one process writes a directory at a time (a lock file), and every change goes through
a *journal* (redo log): the new codes and unknown entries are written to ``<shard>.journal``
(written whole, synced, then renamed into place), applied to the shard and its sidecar, synced,
and the journal removed. A write killed at any point leaves either no journal (the shard is as
before or as after) or a complete journal that the next writer applies again: a resumed build
gives the same bytes as an uninterrupted one.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import signal
import struct
import threading
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from halfmoon.solver.errors import AtlasConflictError, AtlasCorruptError, AtlasError

FORMAT_VERSION = 1
MAGIC = b"HMATLAS\x00"
HEADER_SIZE = 256
BITS_PER_DEAL = 2
DEFAULT_SHARD_BITS = 24  # 16,777,216 deals, 4 MiB of data a shard
MIN_SHARD_BITS, MAX_SHARD_BITS = 8, 30

NOT_DONE, WINNABLE, UNWINNABLE, UNKNOWN = 0, 1, 2, 3
CODE_NAMES = ("not done", "winnable", "unwinnable", "unknown")
VERDICT_CODES = {"winnable": WINNABLE, "unwinnable": UNWINNABLE, "unknown": UNKNOWN}
KEEP = 0xFF  # in an update: leave this deal as it is

SUFFIX = ".atlas"
SIDECAR_SUFFIX = ".unknown.jsonl"
JOURNAL_SUFFIX = ".journal"
LOCK_NAME = ".atlas.lock"
_NAME = re.compile(r"^(?P<game>[A-Z]{2}[0-9]+-[A-Z0-9]+)\.s(?P<bits>[0-9]{2})\.(?P<index>[0-9]{7,})\.atlas$")

# magic, format version, header size, shard bits, bits per deal, reserved, game, solver version(s),
# first, count, counts of the four codes, data digest, sidecar digest; then zeros; CRC-32 at 252.
_FIELDS = struct.Struct("<8sHHBBH16s48sQQ4Q32s16s")
_CRC_AT = HEADER_SIZE - 4
assert _FIELDS.size <= _CRC_AT

# How many deals of each code one byte holds: _BYTE_COUNTS[byte, code].
_BYTE_COUNTS = np.array([[sum(((b >> (2 * k)) & 3) == c for k in range(4)) for c in range(4)] for b in range(256)],
                        dtype=np.int64)


DIGEST_BLOCK = 1 << 16  # data bytes per leaf of the data digest (262,144 deals)


def block_digest(block: bytes | bytearray | memoryview) -> bytes:
    return hashlib.blake2b(block, digest_size=32).digest()


def block_digests(data: bytes | bytearray | memoryview) -> list[bytes]:
    view = memoryview(data)
    return [block_digest(view[k: k + DIGEST_BLOCK]) for k in range(0, len(view), DIGEST_BLOCK)]


def tree_digest(leaves: Sequence[bytes]) -> bytes:
    return hashlib.blake2b(b"".join(leaves), digest_size=32).digest()


def data_digest(data: bytes | bytearray | memoryview) -> bytes:
    """BLAKE2b-256 of the BLAKE2b-256 digests of the data's 64 KiB blocks (a commit rehashes only its blocks)."""
    return tree_digest(block_digests(data))


def bytes_digest(content: bytes) -> bytes:
    return hashlib.blake2b(content, digest_size=32).digest()


def sidecar_digest(text: bytes) -> bytes:
    return hashlib.blake2b(text, digest_size=16).digest()


EMPTY_SIDECAR_DIGEST = sidecar_digest(b"")


def data_size(count: int) -> int:
    """Bytes of data for `count` deals (four to a byte)."""
    return (count + 3) // 4


def merge_versions(*versions: str) -> str:
    """The solver versions a shard's verdicts came from, as one sorted '+'-joined string."""
    names = sorted({name for text in versions for name in text.split("+") if name})
    joined = "+".join(names)
    if len(joined.encode("ascii")) > 48:
        raise AtlasError(f"solver versions {joined!r}: more than the 48 bytes a shard header holds")
    return joined


# -- the header ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Header:
    """A shard's header (see the module docstring and docs/atlas.md for the byte layout)."""

    game: str  # the code prefix of the deals, e.g. "HM1-N"
    solver_version: str  # '+'-joined when the verdicts came from several versions
    shard_bits: int
    first: int
    count: int
    counts: tuple[int, int, int, int]  # not done, winnable, unwinnable, unknown
    data_digest: bytes
    sidecar_digest: bytes = EMPTY_SIDECAR_DIGEST
    format_version: int = FORMAT_VERSION

    @property
    def index(self) -> int:
        return self.first >> self.shard_bits

    def pack(self) -> bytes:
        body = _FIELDS.pack(
            MAGIC, self.format_version, HEADER_SIZE, self.shard_bits, BITS_PER_DEAL, 0,
            self.game.encode("ascii"), self.solver_version.encode("ascii"), self.first, self.count, *self.counts,
            self.data_digest, self.sidecar_digest,
        ).ljust(_CRC_AT, b"\x00")
        return body + struct.pack("<I", zlib.crc32(body))

    @classmethod
    def unpack(cls, raw: bytes, where: str) -> Header:
        """Read a header; errors name `where` and say whether the file is not a shard, newer, or damaged."""
        if len(raw) < HEADER_SIZE:
            raise AtlasCorruptError(f"{where}: {len(raw)} bytes, too short for an atlas shard (header is {HEADER_SIZE})")
        if raw[:8] != MAGIC:
            raise AtlasError(f"{where}: not an atlas shard (no {MAGIC[:7].decode()} signature)")
        version, size = struct.unpack_from("<HH", raw, 8)
        if version != FORMAT_VERSION:
            raise AtlasError(f"{where}: atlas format version {version}; this program reads version {FORMAT_VERSION}")
        if size != HEADER_SIZE or zlib.crc32(raw[:_CRC_AT]) != struct.unpack_from("<I", raw, _CRC_AT)[0]:
            raise AtlasCorruptError(f"{where}: header checksum mismatch: the file is damaged")
        (_, _, _, bits, per_deal, _, game, solver, first, count, c0, c1, c2, c3, digest,
         side) = _FIELDS.unpack_from(raw, 0)
        if per_deal != BITS_PER_DEAL or not MIN_SHARD_BITS <= bits <= MAX_SHARD_BITS or first % (1 << bits) \
                or not 0 < count <= 1 << bits:
            raise AtlasCorruptError(f"{where}: header fields out of range: the file is damaged")
        return cls(game.rstrip(b"\x00").decode("ascii"), solver.rstrip(b"\x00").decode("ascii"), bits, first, count,
                   (c0, c1, c2, c3), digest, side, version)

    def to_json(self) -> dict[str, Any]:
        return {
            "format_version": self.format_version, "game": self.game, "solver_version": self.solver_version,
            "shard_bits": self.shard_bits, "first": self.first, "count": self.count,
            "counts": dict(zip(("not_done", "winnable", "unwinnable", "unknown"), self.counts)),
            "data_digest": self.data_digest.hex(), "sidecar_digest": self.sidecar_digest.hex(),
        }


# -- two bits a deal -----------------------------------------------------------------------------


def unpack_codes(data: bytes | bytearray | memoryview, start: int, stop: int) -> np.ndarray:
    """The codes of slots start … stop-1 (relative to the shard's first deal) as one byte each."""
    if stop <= start:
        return np.zeros(0, dtype=np.uint8)
    b0, b1 = start >> 2, (stop + 3) >> 2
    raw = np.frombuffer(data, dtype=np.uint8, count=b1 - b0, offset=b0)
    codes = np.empty((b1 - b0) * 4, dtype=np.uint8)
    for k in range(4):
        codes[k::4] = (raw >> (2 * k)) & 3
    return codes[start - 4 * b0: stop - 4 * b0]


def pack_codes(data: bytearray, start: int, codes: np.ndarray) -> tuple[int, int]:
    """Set slots start … start+len-1 to `codes` (KEEP leaves a slot); returns the byte span touched."""
    stop = start + len(codes)
    b0, b1 = start >> 2, (stop + 3) >> 2
    current = unpack_codes(data, 4 * b0, 4 * b1)
    window = current[start - 4 * b0: stop - 4 * b0]
    keep = codes == KEEP
    window[~keep] = codes[~keep]
    packed = current[0::4] | (current[1::4] << 2) | (current[2::4] << 4) | (current[3::4] << 6)
    data[b0:b1] = packed.astype(np.uint8).tobytes()
    return b0, b1


def count_codes(data: bytes | bytearray | memoryview, count: int) -> tuple[int, int, int, int]:
    """How many deals hold each code (the padding slots of the last byte are not deals)."""
    hist = np.bincount(np.frombuffer(data, dtype=np.uint8), minlength=256)
    totals = hist @ _BYTE_COUNTS
    totals[NOT_DONE] -= 4 * len(data) - count
    return int(totals[0]), int(totals[1]), int(totals[2]), int(totals[3])


def merge_code_arrays(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge two code arrays: a deal done beats not done, an exact verdict beats unknown.

    Returns the merged codes and the slots where the two give different exact verdicts.
    """
    take_b = (a == NOT_DONE) | ((a == UNKNOWN) & (b != NOT_DONE))
    merged = np.where(take_b, b, a).astype(np.uint8)
    exact_a = (a == WINNABLE) | (a == UNWINNABLE)
    exact_b = (b == WINNABLE) | (b == UNWINNABLE)
    return merged, np.flatnonzero(exact_a & exact_b & (a != b))


# -- the sidecar of unknown deals ----------------------------------------------------------------


@dataclass(frozen=True)
class Unknown:
    """An unknown deal and the limits it reached (``stopped``: "time", "nodes", "memory", or "error")."""

    number: int
    code: str
    stopped: str | None
    time_limit: float | None
    node_limit: int | None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"number": self.number, "code": self.code, "stopped": self.stopped,
                                "time_limit": self.time_limit, "node_limit": self.node_limit}
        if self.error is not None:
            data["error"] = self.error
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Unknown:
        return cls(int(data["number"]), str(data["code"]), data.get("stopped"), data.get("time_limit"),
                   data.get("node_limit"), data.get("error"))

    def reach(self) -> tuple[float, float]:
        """How far the search was allowed to go (no limit counts as infinite), for choosing between entries."""
        inf = float("inf")
        return (inf if self.time_limit is None else self.time_limit,
                inf if self.node_limit is None else float(self.node_limit))


def sidecar_line(entry: Unknown) -> bytes:
    return json.dumps(entry.to_json(), separators=(",", ":")).encode() + b"\n"


def sidecar_text(unknowns: dict[int, Unknown]) -> bytes:
    return b"".join(sidecar_line(unknowns[n]) for n in sorted(unknowns))


def parse_sidecar(text: bytes, where: str) -> dict[int, Unknown]:
    entries: dict[int, Unknown] = {}
    for line_number, line in enumerate(text.splitlines(), start=1):
        try:
            entry = Unknown.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError) as error:
            raise AtlasCorruptError(f"{where}: line {line_number} is not an unknown-deal entry ({error})") from None
        entries[entry.number] = entry
    return entries


# -- names and the directory ---------------------------------------------------------------------


def shard_name(game: str, bits: int, index: int) -> str:
    return f"{game}.s{bits:02d}.{index:07d}{SUFFIX}"


def sidecar_path(shard: Path) -> Path:
    return shard.with_name(shard.name[: -len(SUFFIX)] + SIDECAR_SUFFIX)


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM (in the main thread) until the block ends; they act at once after it.

    A stop then never leaves a commit half done (the journal would repair it, but a clean stop
    should leave nothing to repair). The signals are caught by a handler that notes them and
    raised again after the block: blocking them in this thread is not enough, since the kernel
    hands a process's signal to any thread that does not block it (a worker pool's threads), and
    Python then runs the handler here anyway.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {signum: signal.signal(signum, lambda signum, frame: caught.append(signum))
                for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        for held in dict.fromkeys(caught):
            signal.raise_signal(held)


def journal_path(shard: Path) -> Path:
    return shard.with_name(shard.name + JOURNAL_SUFFIX)


def parse_shard_name(name: str) -> tuple[str, int, int] | None:
    """(game, shard bits, index) of a shard's file name, or None for any other file."""
    match = _NAME.match(name)
    if match is None:
        return None
    return match["game"], int(match["bits"]), int(match["index"])


def game_prefix(code: str) -> str:
    """The game part of a deal code: ``HM1-N-AAAAAAB`` → ``HM1-N``."""
    return code.rsplit("-", 1)[0]


def atlas_directory(directory: str | Path, *, create: bool = False) -> Path:
    """An atlas directory, checked (or made, when `create`: its parent must exist); one-line errors."""
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise AtlasError(f"atlas {directory}: not a directory")
    if not path.exists():
        if not create:
            raise AtlasError(f"atlas {directory}: no such directory")
        if not path.parent.is_dir():
            raise AtlasError(f"atlas {directory}: the parent directory {path.parent} does not exist")
        try:
            path.mkdir()
        except OSError as error:
            raise AtlasError(f"atlas {directory}: cannot create: {error.strerror or error}") from None
    return path


_HELD: set[Path] = set()  # directories this process is writing


@contextmanager
def writing(directory: Path) -> Iterator[None]:
    """Hold the directory's write lock: one build or merge at a time writes an atlas.

    A POSIX record lock (not inherited by forked worker processes, released when this process
    ends however it ends), plus a note of the directories this process holds.
    """
    key = directory.resolve()
    busy = AtlasError(f"atlas {directory}: another atlas build or merge is writing here")
    if key in _HELD:
        raise busy
    try:
        fd = os.open(directory / LOCK_NAME, os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o644)
    except OSError as error:
        raise AtlasError(f"atlas {directory}: cannot write here: {error.strerror or error}") from None
    try:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise busy from None
        _HELD.add(key)
        try:
            yield
        finally:
            _HELD.discard(key)
    finally:
        os.close(fd)


def _fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_atomically(path: Path, content: bytes, sync: bool) -> None:
    """Write a whole file under a temporary name, then rename it into place."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as handle:
        handle.write(content)
        if sync:
            handle.flush()
            os.fsync(handle.fileno())
    os.replace(tmp, path)


# -- a shard in memory ----------------------------------------------------------------------------


@dataclass
class Shard:
    """A shard's files, read: its header, its data and its unknown deals."""

    path: Path
    header: Header
    data: bytearray
    unknowns: dict[int, Unknown] = field(default_factory=dict)
    sidecar: bytes = b""  # the sidecar file as read

    @property
    def first(self) -> int:
        return self.header.first

    @property
    def stop(self) -> int:
        return self.header.first + self.header.count

    @classmethod
    def read(cls, path: Path, *, check: bool = True) -> Shard:
        """Read a shard; with `check`, a damaged shard raises `AtlasCorruptError` naming the first problem."""
        where = str(path)
        try:
            with open(path, "rb") as handle:
                raw = handle.read()
        except FileNotFoundError:
            raise AtlasError(f"{where}: no such shard") from None
        except OSError as error:
            raise AtlasError(f"{where}: cannot read: {error.strerror or error}") from None
        header = Header.unpack(raw[:HEADER_SIZE], where)
        data = bytearray(raw[HEADER_SIZE:])
        side = sidecar_path(path)
        try:
            sidecar = side.read_bytes()
        except FileNotFoundError:
            sidecar = b""
        shard = cls(path, header, data, {}, sidecar)
        if check:
            problems = shard.problems()
            if problems:
                raise AtlasCorruptError(problems[0])
        if len(data) == data_size(header.count):
            shard.unknowns = parse_sidecar(sidecar, str(side))
        return shard

    def problems(self) -> list[str]:
        """Everything wrong with the shard as read (empty: it is sound)."""
        where, header = str(self.path), self.header
        named = parse_shard_name(self.path.name)
        if named is not None and named != (header.game, header.shard_bits, header.index):
            return [f"{where}: the header says {shard_name(header.game, header.shard_bits, header.index)}"]
        if len(self.data) != data_size(header.count):
            return [f"{where}: {len(self.data)} data bytes where {header.count} deals need {data_size(header.count)}: "
                    "the file is truncated or damaged"]
        found: list[str] = []
        if data_digest(self.data) != header.data_digest:
            found.append(f"{where}: data checksum mismatch: the file is damaged")
        if sidecar_digest(self.sidecar) != header.sidecar_digest:
            found.append(f"{sidecar_path(self.path)}: checksum mismatch with its shard's header: the file is damaged "
                         "or belongs to another shard")
        counts = count_codes(self.data, header.count)
        if counts != header.counts:
            found.append(f"{where}: the header counts {list(header.counts)} but the data holds {list(counts)}")
        pad = unpack_codes(self.data, header.count, 4 * len(self.data))
        if pad.any():
            found.append(f"{where}: padding bits after the last deal are set: the file is damaged")
        if not found:
            try:
                unknowns = parse_sidecar(self.sidecar, str(sidecar_path(self.path)))
            except AtlasCorruptError as error:
                return [str(error)]
            codes = unpack_codes(self.data, 0, header.count)
            marked = set((np.flatnonzero(codes == UNKNOWN) + header.first).tolist())
            if marked != set(unknowns):
                missing, extra = sorted(marked - set(unknowns)), sorted(set(unknowns) - marked)
                found.append(f"{sidecar_path(self.path)}: does not match the unknown deals of its shard"
                             f" (missing {missing[:3]}, extra {extra[:3]})")
        if journal_path(self.path).exists():
            found.append(f"{journal_path(self.path)}: an interrupted write is pending (run the build again to finish it)")
        return found

    def codes(self, start: int | None = None, stop: int | None = None) -> np.ndarray:
        """Codes of deal numbers start … stop-1 (default: the whole shard)."""
        start = self.first if start is None else start
        stop = self.stop if stop is None else stop
        return unpack_codes(self.data, start - self.first, stop - self.first)

    def code(self, number: int) -> int:
        offset = number - self.first
        return (self.data[offset >> 2] >> (2 * (offset & 3))) & 3


# -- writing a shard ---------------------------------------------------------------------------------


class ShardWriter:
    """The one writer of a shard: creates it, resumes it (applying a pending journal), updates it.

    Every `update` is a journalled commit (see the module docstring); the data lives in memory
    (a quarter of a byte a deal) while the writer is open.
    """

    def __init__(self, directory: Path, game: str, shard_bits: int, index: int, count: int, solver_version: str,
                 *, sync: bool = True) -> None:
        self.directory = directory
        self.path = directory / shard_name(game, shard_bits, index)
        self.sidecar = sidecar_path(self.path)
        self.journal = journal_path(self.path)
        self.sync = sync
        self.game, self.shard_bits, self.first, self.count = game, shard_bits, index << shard_bits, count
        pending = self.journal.exists()
        if self.path.exists() and pending:
            # An interrupted commit: the journal holds what it was writing (the header may be half
            # written); the data is taken as it is and the journal applied again.
            raw = self.path.read_bytes()
            if len(raw) != HEADER_SIZE + data_size(count):
                raise AtlasCorruptError(f"{self.path}: {len(raw)} bytes where a shard of {count} deals has "
                                        f"{HEADER_SIZE + data_size(count)}: the file is damaged")
            self.data = bytearray(raw[HEADER_SIZE:])
            self.unknowns = self._sidecar_entries()
            self.solver_version = ""
        elif self.path.exists():
            shard = Shard.read(self.path)
            head = shard.header
            if (head.game, head.shard_bits, head.first, head.count) != (game, shard_bits, self.first, count):
                raise AtlasError(f"{self.path}: a shard of {head.game} deals {head.first}-{head.first + head.count - 1}"
                                 f", not of {game} deals {self.first}-{self.first + count - 1}")
            self.data = shard.data
            self.unknowns = shard.unknowns
            self.solver_version = head.solver_version
        else:
            for stale in (self.sidecar, self.journal):  # left by a write killed before the shard existed
                stale.unlink(missing_ok=True)
            pending = False
            self.data = bytearray(data_size(count))
            self.unknowns = {}
            self.solver_version = ""
            self._create()
        self.fd = os.open(self.path, os.O_RDWR)
        self.counts = np.array(count_codes(self.data, count), dtype=np.int64)
        self.leaves = block_digests(self.data)
        self.lines = {number: sidecar_line(entry) for number, entry in self.unknowns.items()}
        self._side_text = b"".join(self.lines[n] for n in sorted(self.lines))
        if pending:
            self._replay_journal()
        self.solver_version_wanted = solver_version

    def _sidecar_entries(self) -> dict[int, Unknown]:
        try:
            return parse_sidecar(self.sidecar.read_bytes(), str(self.sidecar))
        except FileNotFoundError:
            return {}

    def _header(self) -> Header:
        return Header(self.game, self.solver_version, self.shard_bits, self.first, self.count,
                      tuple(int(c) for c in self.counts), tree_digest(self.leaves),  # type: ignore[arg-type]
                      sidecar_digest(self._side_text))

    def _create(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        header = Header(self.game, self.solver_version, self.shard_bits, self.first, self.count, (self.count, 0, 0, 0),
                        data_digest(self.data))
        with open(tmp, "wb") as handle:
            handle.write(header.pack())
            handle.truncate(HEADER_SIZE + len(self.data))  # zeros: not done (a sparse file)
            if self.sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, self.path)
        if self.sync:
            _fsync_directory(self.directory)

    def codes(self, start: int, stop: int) -> np.ndarray:
        return unpack_codes(self.data, start - self.first, stop - self.first)

    def update(self, start: int, codes: bytes | np.ndarray, unknowns: Iterable[Unknown] = (),
               solver_version: str | None = None) -> None:
        """Set deals start … start+len-1 to `codes` (KEEP: leave the deal), with the unknowns' entries.

        A deal set to UNKNOWN takes its entry from `unknowns`; a deal set to anything else loses its entry.
        The cost is that of the deals written (and of the shard's sidecar when it changes), not of the shard.
        """
        array = np.frombuffer(bytes(codes), dtype=np.uint8) if not isinstance(codes, np.ndarray) else codes
        array = array.astype(np.uint8)
        if start < self.first or start + len(array) > self.first + self.count:
            raise AtlasError(f"{self.path}: update of deals {start}-{start + len(array) - 1} outside the shard")
        if np.any((array > UNKNOWN) & (array != KEEP)):
            raise AtlasError(f"{self.path}: update with codes other than 0-3")
        entries = [entry.to_json() for entry in unknowns]
        given = {entry["number"] for entry in entries}
        wanted = set((np.flatnonzero(array == UNKNOWN) + start).tolist())
        if given != wanted:
            raise AtlasError(f"{self.path}: update names unknown deals {sorted(wanted ^ given)[:3]} inconsistently")
        version = merge_versions(self.solver_version, solver_version or self.solver_version_wanted)
        meta = {"format": FORMAT_VERSION, "shard": self.path.name, "start": start, "length": len(array),
                "solver_version": version, "unknowns": entries, "digest": bytes_digest(array.tobytes()).hex()}
        with _signals_deferred():  # a commit runs to its end: Ctrl-C and SIGTERM act once it is done
            _write_atomically(self.journal, json.dumps(meta, separators=(",", ":")).encode() + b"\n" + array.tobytes(),
                              self.sync)
            self._apply(start, array, entries, version)

    def _replay_journal(self) -> None:
        raw = self.journal.read_bytes()
        head, _, body = raw.partition(b"\n")
        try:
            meta = json.loads(head)
            ok = meta["shard"] == self.path.name and len(body) == meta["length"] \
                and bytes_digest(body).hex() == meta["digest"]
        except (ValueError, KeyError, TypeError):
            ok = False
        if not ok:
            raise AtlasCorruptError(f"{self.journal}: a damaged journal (an interrupted write): remove it and "
                                    f"build again (its deals are redone)")
        self._apply(int(meta["start"]), np.frombuffer(body, dtype=np.uint8), meta["unknowns"], meta["solver_version"],
                    replaying=True)

    def _apply(self, start: int, array: np.ndarray, entries: list[dict[str, Any]], version: str,
               replaying: bool = False) -> None:
        offset = start - self.first
        old = unpack_codes(self.data, offset, offset + len(array))
        b0, b1 = pack_codes(self.data, offset, array)
        new = unpack_codes(self.data, offset, offset + len(array))
        self.counts += np.bincount(new, minlength=4)[:4] - np.bincount(old, minlength=4)[:4]
        view = memoryview(self.data)
        for block in range(b0 // DIGEST_BLOCK, (b1 - 1) // DIGEST_BLOCK + 1) if b1 > b0 else ():
            self.leaves[block] = block_digest(view[block * DIGEST_BLOCK: (block + 1) * DIGEST_BLOCK])
        view.release()
        gone = [number for number in (np.flatnonzero((old == UNKNOWN) & (array != KEEP)) + start).tolist()
                if number in self.unknowns]
        for number in gone:
            del self.unknowns[number], self.lines[number]
        for entry in entries:
            known = Unknown.from_json(entry)
            self.unknowns[known.number] = known
            self.lines[known.number] = sidecar_line(known)
        self.solver_version = version
        if gone or entries or replaying:
            self._side_text = b"".join(self.lines[n] for n in sorted(self.lines))
            if self._side_text:
                _write_atomically(self.sidecar, self._side_text, self.sync)
            else:
                self.sidecar.unlink(missing_ok=True)
        os.pwrite(self.fd, bytes(self.data[b0:b1]), HEADER_SIZE + b0)
        os.pwrite(self.fd, self._header().pack(), 0)
        if self.sync:
            os.fsync(self.fd)
        self.journal.unlink()
        if self.sync:
            _fsync_directory(self.directory)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> ShardWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- reading a directory ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """What the atlas holds for one deal: its code (0-3), and the header of its shard (None: no shard)."""

    number: int
    code: int
    header: Header | None
    path: Path


class Atlas:
    """An atlas directory, read-only: O(1) lookups (one shard file: its header once, then one byte a deal)."""

    def __init__(self, directory: str | Path) -> None:
        self.path = atlas_directory(directory)
        self.layout: dict[str, int] = {}  # game -> shard bits
        self.indexes: dict[str, list[int]] = {}
        try:
            names = os.listdir(self.path)
        except OSError as error:
            raise AtlasError(f"atlas {directory}: cannot read: {error.strerror or error}") from None
        for name in sorted(names):
            parsed = parse_shard_name(name)
            if parsed is None:
                continue
            game, bits, index = parsed
            if self.layout.setdefault(game, bits) != bits:
                raise AtlasError(f"atlas {directory}: {game} shards of two sizes (2^{self.layout[game]} and 2^{bits})")
            self.indexes.setdefault(game, []).append(index)
        self._open: dict[Path, tuple[int, Header]] = {}

    def games(self) -> list[str]:
        return sorted(self.layout)

    def game(self, wanted: str | None = None) -> str:
        """The game asked for (a code prefix such as HM1-N), or the only game the atlas holds."""
        if not self.layout:
            raise AtlasError(f"atlas {self.path}: holds no shards")
        if wanted is None:
            if len(self.layout) > 1:
                raise AtlasError(f"atlas {self.path}: holds several games ({', '.join(self.games())}): name one")
            return next(iter(self.layout))
        if wanted not in self.layout:
            raise AtlasError(f"atlas {self.path}: holds no {wanted} shards (it holds {', '.join(self.games())})")
        return wanted

    def shard_paths(self, game: str) -> list[Path]:
        bits = self.layout[game]
        return [self.path / shard_name(game, bits, index) for index in self.indexes.get(game, [])]

    def header(self, path: Path) -> Header:
        """A shard's header, read fresh and checked (magic, format version, CRC, name)."""
        try:
            with open(path, "rb") as handle:
                raw = handle.read(HEADER_SIZE)
        except OSError as error:
            raise AtlasError(f"{path}: cannot read: {error.strerror or error}") from None
        header = Header.unpack(raw, str(path))
        if parse_shard_name(path.name) != (header.game, header.shard_bits, header.index):
            raise AtlasCorruptError(f"{path}: its header names another shard")
        return header

    def _shard(self, path: Path) -> tuple[int, Header] | None:
        known = self._open.get(path)
        if known is not None:
            return known
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise AtlasError(f"{path}: cannot read: {error.strerror or error}") from None
        try:
            header = Header.unpack(os.pread(fd, HEADER_SIZE, 0), str(path))
            if parse_shard_name(path.name) != (header.game, header.shard_bits, header.index):
                raise AtlasCorruptError(f"{path}: its header names another shard")
        except BaseException:
            os.close(fd)
            raise
        self._open[path] = (fd, header)
        return fd, header

    def cell(self, game: str, number: int) -> Cell:
        """The code of deal `number` of `game`: its shard's header is read once, then one byte."""
        bits = self.layout.get(game)
        if bits is None:
            self.game(game)  # raises the one-line error
            raise AssertionError
        index = number >> bits
        path = self.path / shard_name(game, bits, index)
        opened = self._shard(path)
        if opened is None:
            return Cell(number, NOT_DONE, None, path)
        fd, header = opened
        offset = number - header.first
        if not 0 <= offset < header.count:
            raise AtlasError(f"deal {number}: beyond the last deal of {path.name}")
        byte = os.pread(fd, 1, HEADER_SIZE + (offset >> 2))
        if len(byte) != 1:
            raise AtlasCorruptError(f"{path}: the data is truncated: the file is damaged")
        return Cell(number, (byte[0] >> (2 * (offset & 3))) & 3, header, path)

    def close(self) -> None:
        for fd, _ in self._open.values():
            os.close(fd)
        self._open.clear()

    def __enter__(self) -> Atlas:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


# -- merging ---------------------------------------------------------------------------------------


@dataclass
class MergeReport:
    """What a merge did: shards written, deals that changed (newly done, unknown made exact)."""

    game: str
    shard_bits: int
    shards: int = 0
    changed: int = 0
    decided: int = 0  # unknown in the target, exact now
    added: int = 0  # not done in the target, done now

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "shard_bits": self.shard_bits, "shards": self.shards, "changed": self.changed,
                "decided": self.decided, "added": self.added}


def _merge_shards(shards: Sequence[Shard], game: str, bits: int, index: int
                  ) -> tuple[np.ndarray, dict[int, Unknown], str]:
    """The merged codes, unknown entries and solver versions of one shard's copies (the first is the target)."""
    where = [str(shard.path) for shard in shards]
    merged = shards[0].codes()
    source = np.zeros(len(merged), dtype=np.int16)  # which copy each merged code came from
    for k, shard in enumerate(shards[1:], start=1):
        codes = shard.codes()
        new, conflicts = merge_code_arrays(merged, codes)
        if len(conflicts):
            number = shards[0].first + int(conflicts[0])
            a, b = CODE_NAMES[merged[conflicts[0]]], CODE_NAMES[codes[conflicts[0]]]
            raise AtlasConflictError(
                f"deal {number}: {a} in {where[int(source[conflicts[0]])]} but {b} in {where[k]} "
                f"({len(conflicts)} conflicting deal{'s' * (len(conflicts) != 1)} in this shard): "
                "the merge stopped and wrote nothing")
        source[new != merged] = k
        merged = new
    unknowns: dict[int, Unknown] = {}
    for offset in np.flatnonzero(merged == UNKNOWN).tolist():
        number = shards[0].first + offset
        entries = [shard.unknowns[number] for shard in shards if number in shard.unknowns]
        if not entries:
            raise AtlasCorruptError(f"deal {number}: unknown without a sidecar entry in {where}")
        unknowns[number] = max(entries, key=lambda entry: entry.reach())  # the furthest-reaching try
    version = merge_versions(*(shard.header.solver_version for shard in shards))
    return merged, unknowns, version


def merge_atlases(target: str | Path, sources: Sequence[str | Path], game: str | None = None, *,
                  span: int = 1 << 20, sync: bool = True) -> MergeReport:
    """Merge the atlases `sources` into `target` (created when missing).

    Rules per deal: a deal done beats not done, an exact verdict beats unknown, two unknowns keep
    the entry that reached further; two different exact verdicts are a conflict: the merge raises
    `AtlasConflictError` before writing anything. Everything is checked first (games, shard
    sizes, format versions, checksums), then written shard by shard through the journal.
    """
    if not sources:
        raise AtlasError("merge: name at least one atlas to merge in")
    atlases = [Atlas(source) for source in sources]
    target_path = Path(target)
    for atlas in atlases:
        if target_path.exists() and atlas.path.resolve() == target_path.resolve():
            raise AtlasError(f"merge: {atlas.path} is the target itself")
    chosen = game if game is not None else atlases[0].game()
    bits = atlases[0].layout.get(chosen)
    for atlas in atlases:
        atlas.game(chosen)
        if atlas.layout[chosen] != bits:
            raise AtlasError(f"merge: {atlas.path} has {chosen} shards of 2^{atlas.layout[chosen]} deals, "
                             f"{atlases[0].path} of 2^{bits}")
    assert bits is not None
    out = atlas_directory(target, create=True)
    existing = Atlas(out)
    if chosen in existing.layout and existing.layout[chosen] != bits:
        raise AtlasError(f"merge: {out} has {chosen} shards of 2^{existing.layout[chosen]} deals, the sources 2^{bits}")
    indexes = sorted({index for atlas in atlases for index in atlas.indexes[chosen]})
    report = MergeReport(chosen, bits)

    def copies(index: int) -> list[Shard]:
        name = shard_name(chosen, bits, index)
        found = [Shard.read(out / name)] if (out / name).exists() else []
        found += [Shard.read(atlas.path / name) for atlas in atlases if (atlas.path / name).exists()]
        heads = {(shard.header.game, shard.header.first, shard.header.count) for shard in found}
        if len(heads) != 1:
            raise AtlasError(f"merge: copies of {name} disagree on the deals they cover")
        return found

    with writing(out):
        for index in indexes:  # first pass: everything checked, conflicts found, nothing written
            _merge_shards(copies(index), chosen, bits, index)
        for index in indexes:
            found = copies(index)
            merged, unknowns, version = _merge_shards(found, chosen, bits, index)
            head = found[0].header
            target_exists = (out / shard_name(chosen, bits, index)).exists()
            before = found[0].codes() if target_exists else np.zeros(len(merged), dtype=np.uint8)
            with ShardWriter(out, chosen, bits, index, head.count, version, sync=sync) as writer:
                differs = merged != before
                for number, entry in unknowns.items():
                    if writer.unknowns.get(number) != entry:
                        differs[number - head.first] = True
                report.changed += int(np.count_nonzero(merged != before))
                report.decided += int(np.count_nonzero((before == UNKNOWN) & ((merged == WINNABLE)
                                                                               | (merged == UNWINNABLE))))
                report.added += int(np.count_nonzero((before == NOT_DONE) & (merged != NOT_DONE)))
                spans = [lo for lo in range(0, head.count, span) if differs[lo:lo + span].any()]
                for lo in spans:
                    hi = min(head.count, lo + span)
                    update = np.where(differs[lo:hi], merged[lo:hi], KEEP).astype(np.uint8)
                    entries = [unknowns[n] for n in (np.flatnonzero(update == UNKNOWN) + head.first + lo).tolist()]
                    writer.update(head.first + lo, update, entries, version)
                if not spans and writer.solver_version != version:  # only the header's solver versions change
                    writer.update(head.first, np.zeros(0, dtype=np.uint8), (), version)
                report.shards += 1
    existing.close()
    return report
