"""The results store: verdicts, winning lines, ratings and timings in an embedded SQLite file.

Why SQLite: it is in the standard library, one file, safe for several processes at once
(WAL journal, short ``BEGIN IMMEDIATE`` write transactions, a busy timeout), and a batch run
can stream every result to disk as it arrives, so nothing per deal stays in memory and an
interrupted survey resumes from what was written.

Rows are keyed by (deal code, solver version). What is trusted on reading:

- a ``winnable`` row from *any* solver version, because its winning line is a certificate that
  the caller replays through the rules before using it;
- ``unwinnable`` only from the *same* solver version (a proof is only as good as the solver that
  made it, and a version bump usually means the search changed);
- ``unknown`` only from the same solver version *and* when it was reached with limits at least
  as large as the ones asked for now (a bigger budget may decide it).

Within a batch only the parent process writes (one writer); separate runs on the same file are
serialised by SQLite's own locking.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterator, Mapping

from halfmoon.solver.errors import InputError, NotFoundError, StoreError

SCHEMA_VERSION = 2  # 2: results.stopped (which limit ended an unknown); version 1 files are upgraded
DB_ENV = "HALFMOON_DB"
VERDICTS = ("winnable", "unwinnable", "unknown")
_COLUMNS = "code, game, number, solver_version, verdict, line, method, nodes, seconds, time_limit, node_limit, error, stopped"
_RATING_COLUMNS = "code, game, number, solver_version, rating_version, score, tier, detail, seconds"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    code TEXT NOT NULL,
    solver_version TEXT NOT NULL,
    game TEXT NOT NULL,
    number INTEGER NOT NULL,
    verdict TEXT NOT NULL CHECK (verdict IN ('winnable', 'unwinnable', 'unknown')),
    line TEXT,
    method TEXT NOT NULL DEFAULT '',
    nodes INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,
    time_limit REAL,
    node_limit INTEGER,
    error TEXT,
    updated REAL NOT NULL,
    stopped TEXT,
    PRIMARY KEY (code, solver_version)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS results_by_game ON results (game, number);
CREATE TABLE IF NOT EXISTS ratings (
    code TEXT NOT NULL,
    solver_version TEXT NOT NULL,
    rating_version TEXT NOT NULL,
    game TEXT NOT NULL,
    number INTEGER NOT NULL,
    score REAL NOT NULL,
    tier TEXT NOT NULL,
    detail TEXT NOT NULL,
    seconds REAL NOT NULL DEFAULT 0,
    updated REAL NOT NULL,
    PRIMARY KEY (code, solver_version, rating_version)
) WITHOUT ROWID;
"""


def default_db_path() -> Path:
    """``$HALFMOON_DB``, else ``$XDG_CACHE_HOME/halfmoon/results.sqlite3`` (``~/.cache`` by default)."""
    explicit = os.environ.get(DB_ENV)
    if explicit:
        return Path(explicit).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache).expanduser() / "halfmoon" / "results.sqlite3"


@dataclass(frozen=True)
class StoredResult:
    """One solve of one deal as the store keeps it (a plain value, JSON round-trips)."""

    code: str
    game: str
    number: int
    solver_version: str
    verdict: str
    line: str | None = None  # the winning line in the game's text form, moves separated by spaces
    method: str = ""
    nodes: int = 0
    seconds: float = 0.0
    time_limit: float | None = None
    node_limit: int | None = None
    error: str | None = None
    stopped: str | None = None  # the limit that ended an unknown ("time", "nodes", ...)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise StoreError(f"result for {self.code}: verdict {self.verdict!r} is not one of {', '.join(VERDICTS)}")
        if (self.verdict == "winnable") != (self.line is not None):
            raise StoreError(f"result for {self.code}: a winning line goes with a 'winnable' verdict and only with it")

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game,
            "number": self.number,
            "solver_version": self.solver_version,
            "verdict": self.verdict,
            "line": self.line,
            "method": self.method,
            "nodes": self.nodes,
            "seconds": self.seconds,
            "time_limit": self.time_limit,
            "node_limit": self.node_limit,
            "error": self.error,
            "stopped": self.stopped,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StoredResult:
        try:
            return cls(**{name: data[name] for name in cls.__dataclass_fields__ if name in data})
        except TypeError as error:
            raise StoreError(f"stored result: {error}") from None


@dataclass(frozen=True)
class StoredRating:
    """A difficulty rating of a winnable deal; `detail` is the rating's exact JSON text."""

    code: str
    game: str
    number: int
    solver_version: str
    rating_version: str
    score: float
    tier: str
    detail: str
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StoredRating:
        try:
            return cls(**{name: data[name] for name in cls.__dataclass_fields__ if name in data})
        except TypeError as error:
            raise StoreError(f"stored rating: {error}") from None


def covers(stored: float | int | None, wanted: float | int | None) -> bool:
    """Whether a run with limit `stored` searched at least as far as one with `wanted` would."""
    if stored is None:  # stored run had no such limit
        return True
    if wanted is None:
        return False
    return stored >= wanted


@dataclass
class ResultStore:
    """A connection to one store file. Use as a context manager; writes are batched.

    `flush_every` results (or `flush_seconds`) are committed together: an interrupted run
    loses at most that much work and the file stays consistent.
    """

    path: Path
    flush_every: int = 64
    flush_seconds: float = 2.0
    readonly: bool = False  # read a store this process may not write: look-ups work, writes are skipped
    _conn: sqlite3.Connection = field(init=False, repr=False)
    _pending: int = field(default=0, init=False, repr=False)
    _last_flush: float = field(default=0.0, init=False, repr=False)
    bad_lines: int = field(default=0, init=False)  # stored winning lines that failed to replay (never served)
    #: What a store that cannot be used raises (corrupt, gone, locked past the busy timeout, unreadable):
    #: callers that must stay up (the service) catch these and answer "unavailable".
    FAILURES: ClassVar[tuple[type[BaseException], ...]] = (sqlite3.Error, StoreError, OSError)

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        if self.readonly:
            self._open_readonly()
            self._last_flush = time.monotonic()
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(str(self.path), timeout=60.0, isolation_level=None)
            self._conn.execute("PRAGMA busy_timeout = 60000")
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._conn.execute("BEGIN IMMEDIATE")
            for statement in filter(str.strip, _SCHEMA.split(";")):
                self._conn.execute(statement)
            row = self._conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                self._conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) == 1:  # an additive upgrade: the column that says which limit ended an unknown
                self._conn.execute("ALTER TABLE results ADD COLUMN stopped TEXT")
                self._conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
            elif int(row[0]) != SCHEMA_VERSION:
                self._conn.execute("ROLLBACK")
                raise StoreError(f"results store {self.path}: schema version {row[0]}, this program reads {SCHEMA_VERSION}")
            self._conn.execute("COMMIT")
        except sqlite3.DatabaseError as error:
            conn = getattr(self, "_conn", None)
            if conn is not None:
                conn.close()
            if self.path.is_file() and ("readonly" in str(error) or "unable to open" in str(error)):
                raise StoreReadOnly(f"results store {self.path}: cannot write: {error}") from None
            raise StoreError(f"results store {self.path}: cannot open: {error}") from None
        except OSError as error:
            raise StoreError(f"results store {self.path}: cannot create: {error.strerror or error}") from None
        self._last_flush = time.monotonic()

    def _open_readonly(self) -> None:
        """Open for reading only: ``mode=ro``, or, when even that needs a write (a WAL store in a folder
        this process cannot write), as an immutable snapshot."""
        if not self.path.is_file():
            raise StoreError(f"results store {self.path}: no such file to read")
        uri = self.path.resolve().as_uri()
        last: Exception | None = None
        for flags in ("mode=ro", "immutable=1"):
            conn = None
            try:
                conn = sqlite3.connect(f"{uri}?{flags}", uri=True, timeout=60.0, isolation_level=None)
                conn.execute("PRAGMA busy_timeout = 60000")
                row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            except sqlite3.DatabaseError as error:
                last = error
                if conn is not None:
                    conn.close()
                continue
            if row is None or row[0] != str(SCHEMA_VERSION):
                conn.close()
                raise StoreError(f"results store {self.path}: schema version {row and row[0]}, this program reads "
                                 f"{SCHEMA_VERSION} (and cannot upgrade a read-only file)")
            self._conn = conn
            return
        raise StoreError(f"results store {self.path}: cannot read: {last}")

    # -- context and transactions ---------------------------------------------------------

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if getattr(self, "_conn", None) is None:
            return
        self.flush()
        self._conn.close()
        self._conn = None  # type: ignore[assignment]

    def flush_if_due(self) -> None:
        """Commit pending writes once the commit window (`flush_seconds`) has passed: call it while idle,
        so a result written before a quiet spell is on disk within the window, not at the next write."""
        if self._pending and time.monotonic() - self._last_flush >= self.flush_seconds:
            self.flush()

    def _begin_write(self) -> None:
        if not self._conn.in_transaction:
            self._conn.execute("BEGIN IMMEDIATE")

    def _wrote(self) -> None:
        self._pending += 1
        if self._pending >= self.flush_every or time.monotonic() - self._last_flush >= self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        """Commit what was written so far (other readers see it from now on)."""
        if self._conn is not None and self._conn.in_transaction:
            self._conn.execute("COMMIT")
        self._pending = 0
        self._last_flush = time.monotonic()

    # -- results --------------------------------------------------------------------------

    def put(self, result: StoredResult) -> bool:
        """Write a result; an exact verdict is never overwritten by an `unknown` of the same version.

        A later run with smaller limits (or a worker that died) must not erase what an earlier
        run proved, whichever writer (CLI, batch, service) gets there last: the rule lives in
        this one statement. Returns whether the row was written (False: a decided row stays, or the
        store is read-only).
        """
        if self.readonly:
            return False
        self._begin_write()
        cursor = self._conn.execute(
            f"INSERT INTO results ({_COLUMNS}, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (code, solver_version) DO UPDATE SET"
            " game = excluded.game, number = excluded.number, verdict = excluded.verdict, line = excluded.line,"
            " method = excluded.method, nodes = excluded.nodes, seconds = excluded.seconds,"
            " time_limit = excluded.time_limit, node_limit = excluded.node_limit, error = excluded.error,"
            " stopped = excluded.stopped, updated = excluded.updated"
            " WHERE excluded.verdict != 'unknown' OR results.verdict = 'unknown'",
            (
                result.code, result.game, result.number, result.solver_version, result.verdict, result.line,
                result.method, result.nodes, result.seconds, result.time_limit, result.node_limit, result.error,
                result.stopped, time.time(),
            ),
        )
        self._wrote()
        return cursor.rowcount > 0

    def _rows(self, code: str) -> list[StoredResult]:
        cursor = self._conn.execute(
            f"SELECT {_COLUMNS}"
            " FROM results WHERE code = ? ORDER BY updated DESC",
            (code,),
        )
        return [StoredResult(*row) for row in cursor]

    def get(self, code: str, solver_version: str) -> StoredResult | None:
        """The row for exactly this code and solver version, trusted or not."""
        row = self._conn.execute(
            f"SELECT {_COLUMNS}"
            " FROM results WHERE code = ? AND solver_version = ?",
            (code, solver_version),
        ).fetchone()
        return StoredResult(*row) if row else None

    def lookup(
        self, code: str, solver_version: str, time_limit: float | None = None, node_limit: int | None = None
    ) -> StoredResult | None:
        """The stored result this run may use instead of solving, under the trust rules above.

        A winnable row is preferred (it carries a certificate); the caller must replay its line.
        """
        rows = self._rows(code)
        for row in rows:
            if row.verdict == "winnable":
                return row
        for row in rows:
            if row.solver_version != solver_version:
                continue
            if row.verdict == "unwinnable":
                return row
            if row.verdict == "unknown" and row.error is None and covers(row.time_limit, time_limit) and covers(
                row.node_limit, node_limit
            ):
                return row
        return None

    def trusted(
        self, code: str, solver_version: str, line_wins: Callable[[str | None], bool],
        time_limit: float | None = None, node_limit: int | None = None,
    ) -> StoredResult | None:
        """`lookup`, with a winning line accepted only once `line_wins(line)` replays it to a win.

        A stored line that fails to replay (a damaged row, or rules that changed) is passed over,
        never served.
        """
        hit = self.lookup(code, solver_version, time_limit, node_limit)
        if hit is not None and hit.verdict == "winnable" and not line_wins(hit.line):
            self.bad_lines += 1
            rows = [row for row in self._rows(code) if row.verdict != "winnable" and row.solver_version == solver_version]
            hit = next((row for row in rows if row.verdict == "unwinnable"), None)
        return hit

    def effort(self, code: str) -> float | None:
        """The most seconds any stored solve of `code` took (a hint for hardest-first)."""
        row = self._conn.execute("SELECT MAX(seconds) FROM results WHERE code = ?", (code,)).fetchone()
        return row[0] if row and row[0] is not None else None

    def hardest(self, game: str, numbers: range | None = None, limit: int | None = None) -> Iterator[tuple[int, float]]:
        """(deal number, most seconds) of a game's stored deals, slowest first, streamed."""
        sql = "SELECT number, MAX(seconds) AS s FROM results WHERE game = ?"
        args: list[Any] = [game]
        if numbers is not None:
            sql += " AND number >= ? AND number < ?"
            args += [numbers.start, numbers.stop]
        sql += " GROUP BY number ORDER BY s DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        yield from self._conn.execute(sql, args)

    def count(self, game: str | None = None) -> int:
        if game is None:
            return self._conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        return self._conn.execute("SELECT COUNT(*) FROM results WHERE game = ?", (game,)).fetchone()[0]

    def results(self, game: str, solver_version: str, numbers: range) -> Iterator[StoredResult]:
        """A game's rows of one solver version over a range of deal numbers, by number, streamed."""
        cursor = self._conn.execute(
            f"SELECT {_COLUMNS}"
            " FROM results WHERE game = ? AND solver_version = ? AND number >= ? AND number < ? ORDER BY number",
            (game, solver_version, numbers.start, numbers.stop),
        )
        for row in cursor:
            yield StoredResult(*row)

    def all_results(self) -> Iterator[StoredResult]:
        cursor = self._conn.execute(
            f"SELECT {_COLUMNS}"
            " FROM results ORDER BY code, solver_version"
        )
        for row in cursor:
            yield StoredResult(*row)

    # -- ratings --------------------------------------------------------------------------

    def put_rating(self, rating: StoredRating) -> None:
        if self.readonly:
            return
        self._begin_write()
        self._conn.execute(
            "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                rating.code, rating.solver_version, rating.rating_version, rating.game, rating.number, rating.score,
                rating.tier, rating.detail, rating.seconds, time.time(),
            ),
        )
        self._wrote()

    def get_rating(self, code: str, solver_version: str, rating_version: str) -> StoredRating | None:
        row = self._conn.execute(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE code = ? AND solver_version = ? AND rating_version = ?",
            (code, solver_version, rating_version),
        ).fetchone()
        return StoredRating(*row) if row else None

    def feed(
        self, game: str, solver_version: str, rating_version: str, tier: str | None, after: str | None, limit: int
    ) -> list[StoredRating]:
        """Rated deals in the order they were written (the curated feed), after the cursor deal `after`.

        Generation only appends, so a cursor stays valid while deals are added.
        """
        where = "game = ? AND solver_version = ? AND rating_version = ?"
        args: list[Any] = [game, solver_version, rating_version]
        if tier is not None:
            where += " AND tier = ?"
            args.append(tier)
        if after is not None:
            row = self._conn.execute(
                "SELECT updated FROM ratings WHERE code = ? AND solver_version = ? AND rating_version = ?",
                (after, solver_version, rating_version),
            ).fetchone()
            if row is None:
                raise NotFoundError(f"after {after}: not a curated deal of this store (no rating for it)")
            where += " AND (updated > ? OR (updated = ? AND code > ?))"
            args += [row[0], row[0], after]
        args.append(limit)
        cursor = self._conn.execute(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE {where} ORDER BY updated, code LIMIT ?", args
        )
        return [StoredRating(*values) for values in cursor]

    def curation_state(self, code: str, solver_version: str, rating_version: str, node_limit: int) -> str | None:
        """Whether a deal needs rating: ``rated`` (in the feed already), ``settled`` (proved unwinnable, or
        left unknown by a node-bounded run at least as large as the rating's), or None (rate it)."""
        if self.get_rating(code, solver_version, rating_version) is not None:
            return "rated"
        row = self.get(code, solver_version)
        if row is None or row.error is not None:
            return None
        if row.verdict == "unwinnable":
            return "settled"
        if row.verdict == "unknown" and row.time_limit is None and covers(row.node_limit, node_limit):
            return "settled"
        return None

    def counts(self) -> dict[str, int]:
        """How many results and ratings the store holds."""
        results = self._conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        ratings = self._conn.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
        return {"results": results, "ratings": ratings}

    def ping(self) -> None:
        """Raise unless the store file can be read."""
        self._conn.execute("SELECT COUNT(*) FROM meta").fetchone()

    def integrity(self) -> str:
        return self._conn.execute("PRAGMA integrity_check").fetchone()[0]


class StoreReadOnly(StoreError):
    """The store file exists but this process cannot write it (permissions, a read-only disk)."""


def open_store(path: str | Path | None = None, readonly: bool | None = None) -> ResultStore:
    """Open (creating if needed) the store at `path`, or at the default path.

    ``readonly``: True opens for reading only; None (the default) opens for writing and falls back
    to reading only when the file exists but cannot be written (the store's ``readonly`` then
    says so: look-ups work, writes are skipped).
    """
    where = Path(path) if path is not None else default_db_path()
    if readonly:
        return ResultStore(where, readonly=True)
    try:
        return ResultStore(where)
    except StoreReadOnly:
        if readonly is False:
            raise
        return ResultStore(where, readonly=True)


__all__ = [
    "DB_ENV",
    "ResultStore",
    "StoreError",
    "StoreReadOnly",
    "StoredRating",
    "StoredResult",
    "covers",
    "default_db_path",
    "open_store",
]
