"""The results store seen from the event loop: one writer thread, one reader thread.

Why threads: `sqlite3` calls block, and a connection belongs to the thread that opened it. One
writer connection commits every row as it is written (so an answer a client has seen is on disk,
and SQLite's own locking serialises us with a `halfmoon survey` writing the same file); one
reader connection answers look-ups without waiting behind writes (WAL lets both run at once).

The curated feed reads the `ratings` table in the order rows were written (``updated``, then
code): generation only appends, so a cursor ``after=CODE`` stays valid while deals are added.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, TypeVar

from halfmoon.solver.errors import InputError
from halfmoon.solver.registry import GameEntry
from halfmoon.solver.store import ResultStore, StoredRating, StoredResult
from halfmoon.solver.survey import line_wins

T = TypeVar("T")

_RATING_COLUMNS = "code, game, number, solver_version, rating_version, score, tier, detail, seconds"


class StoreGateway:
    """Async access to one store file (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="store-writer")
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="store-reader")
        self._local = threading.local()
        self.writes = 0
        self.bad_lines = 0  # stored winning lines that failed to replay (never served)

    # -- plumbing ----------------------------------------------------------------------------

    def _store(self) -> ResultStore:
        store = getattr(self._local, "store", None)
        if store is None:
            # Commits happen only where a method calls flush(): one transaction per operation.
            store = self._local.store = ResultStore(self.path, flush_every=1 << 62, flush_seconds=float("inf"))
        return store

    def _raw(self) -> sqlite3.Connection:
        conn = getattr(self._local, "raw", None)
        if conn is None:
            conn = self._local.raw = sqlite3.connect(str(self.path), timeout=60.0, isolation_level=None)
            conn.execute("PRAGMA busy_timeout = 60000")
        return conn

    async def _read(self, fn: Callable[[ResultStore], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._reader, lambda: fn(self._store()))

    async def _write(self, fn: Callable[[ResultStore], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._writer, lambda: fn(self._store()))

    async def open(self) -> None:
        """Open (creating if needed) both connections; a bad file fails here, before serving."""
        await self._write(lambda store: None)
        await self._read(lambda store: None)

    async def close(self) -> None:
        def close_here() -> None:
            for name in ("store", "raw"):
                resource = getattr(self._local, name, None)
                if resource is not None:
                    resource.close()
                    setattr(self._local, name, None)

        for pool in (self._writer, self._reader):
            await asyncio.get_running_loop().run_in_executor(pool, close_here)
            pool.shutdown(wait=True)

    # -- results ------------------------------------------------------------------------------

    async def lookup(self, entry: GameEntry, number: int, code: str, time_limit: float | None) -> StoredResult | None:
        """The stored result the store's trust rules allow, its winning line replayed first."""

        def run(store: ResultStore) -> StoredResult | None:
            hit = store.lookup(code, entry.solver_version, time_limit, None)
            if hit is not None and hit.verdict == "winnable" and not line_wins(entry, number, hit.line):
                self.bad_lines += 1
                return None
            return hit

        return await self._read(run)

    @staticmethod
    def _put_unless_downgrade(store: ResultStore, result: StoredResult) -> bool:
        """Write `result` unless it would replace a decided verdict of the same version by `unknown`.

        A node-limited rating run or a short request can end `unknown` on a deal another run
        decided; the decided row (a certificate or a proof) is worth more and stays.
        """
        if result.verdict == "unknown":
            existing = store.get(result.code, result.solver_version)
            if existing is not None and existing.verdict != "unknown" and existing.error is None:
                return False
        store.put(result)
        return True

    async def put(self, result: StoredResult) -> bool:
        """Write and commit one result; False when a decided row was kept instead."""

        def run(store: ResultStore) -> bool:
            wrote = self._put_unless_downgrade(store, result)
            store.flush()
            return wrote

        wrote = await self._write(run)
        self.writes += wrote
        return wrote

    async def put_rated(self, result: StoredResult, rating: StoredRating | None) -> None:
        """Write a rating run's result (same rule as `put`) and its rating, committed together."""

        def run(store: ResultStore) -> bool:
            wrote = self._put_unless_downgrade(store, result)
            if rating is not None:
                store.put_rating(rating)
            store.flush()
            return wrote

        self.writes += await self._write(run)

    async def curation_state(self, code: str, solver_version: str, rating_version: str, node_limit: int) -> str | None:
        """``rated`` (already in the feed), ``settled`` (known not curatable) or None (rate it)."""

        def run(store: ResultStore) -> str | None:
            if store.get_rating(code, solver_version, rating_version) is not None:
                return "rated"
            row = store.get(code, solver_version)
            if row is None or row.error is not None:
                return None
            if row.verdict == "unwinnable":
                return "settled"
            if row.verdict == "unknown" and (row.node_limit is None or row.node_limit >= node_limit) and row.time_limit is None:
                return "settled"
            return None

        return await self._read(run)

    # -- the curated feed ----------------------------------------------------------------------

    async def feed(
        self, game: str, solver_version: str, rating_version: str, tier: str | None, after: str | None, limit: int
    ) -> list[StoredRating]:
        """Rated deals in the order they were written, after the cursor deal `after`."""

        def run(store: ResultStore) -> list[StoredRating]:
            conn = self._raw()
            where = "game = ? AND solver_version = ? AND rating_version = ?"
            args: list[Any] = [game, solver_version, rating_version]
            if tier is not None:
                where += " AND tier = ?"
                args.append(tier)
            if after is not None:
                row = conn.execute(
                    "SELECT updated FROM ratings WHERE code = ? AND solver_version = ? AND rating_version = ?",
                    (after, solver_version, rating_version),
                ).fetchone()
                if row is None:
                    raise InputError(f"after {after}: not a curated deal of this store (no rating for it)")
                where += " AND (updated > ? OR (updated = ? AND code > ?))"
                args += [row[0], row[0], after]
            args.append(limit)
            cursor = conn.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE {where} ORDER BY updated, code LIMIT ?", args
            )
            return [StoredRating(*values) for values in cursor]

        return await self._read(run)

    # -- health and size -------------------------------------------------------------------------

    async def counts(self) -> dict[str, int]:
        def run(store: ResultStore) -> dict[str, int]:
            ratings = self._raw().execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
            return {"results": store.count(), "ratings": ratings}

        return await self._read(run)

    async def ping(self) -> None:
        """Raise unless the store file can be read."""
        await self._read(lambda store: self._raw().execute("SELECT COUNT(*) FROM meta").fetchone())

    async def integrity(self) -> str:
        return await self._read(lambda store: store.integrity())
