"""The results store seen from the event loop: one writer thread, one reader thread, no SQL here.

Why threads: `sqlite3` calls block, and a connection belongs to the thread that opened it. The
writer's store commits every row as it is written (so an answer a client has seen is on disk,
and SQLite's own locking serialises us with a `halfmoon survey` writing the same file); the
reader's store answers look-ups without waiting behind writes (WAL lets both run at once).
Every question is the facade's or a `halfmoon.service.ResultStore` method (solver/store.py holds the
SQL and its rules, e.g. that an `unknown` never overwrites an exact verdict).

A store that cannot be used (corrupted, deleted, locked past the busy timeout) raises
`StoreUnavailable` (answered 503, never 500); a store this process may only read is opened
read-only: look-ups are served, writes are skipped and counted.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, TypeVar

import halfmoon

from .errors import StoreUnavailable

T = TypeVar("T")


class StoreGateway:
    """Async access to one store file (see the module docstring)."""

    def __init__(self, path: Path | None, readonly: bool = False) -> None:
        self.path = path
        self.asked_readonly = readonly
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="store-writer")
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="store-reader")
        self._local = threading.local()
        self.bad_lines = 0  # stored winning lines that failed to replay on reading (never served)
        self.writes = 0
        self.skipped_writes = 0  # not written: the store is read-only
        self.readonly = readonly

    # -- plumbing ----------------------------------------------------------------------------

    def _store(self) -> halfmoon.service.ResultStore:
        store = getattr(self._local, "store", None)
        if store is None:
            readonly = True if self.asked_readonly else None
            store = self._local.store = halfmoon.service.open_store(self.path, readonly=readonly)
            self.path = store.path
            self.readonly = self.readonly or store.readonly
        return store

    def _guarded(self, fn: Callable[[halfmoon.service.ResultStore], T], commit: bool) -> T:
        try:
            store = self._store()
            try:
                return fn(store)
            finally:
                if commit:
                    store.flush()  # one transaction per operation, committed before the answer goes out
        except halfmoon.service.ResultStore.FAILURES as error:
            self._drop()  # a fresh connection next time (the file may be back, or replaced)
            raise StoreUnavailable(f"results store {self.path}: {error}") from None

    def _drop(self) -> None:
        store = getattr(self._local, "store", None)
        self._local.store = None
        if store is not None:
            try:
                store.close()
            except halfmoon.service.ResultStore.FAILURES:
                pass

    async def _read(self, fn: Callable[[halfmoon.service.ResultStore], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._reader, self._guarded, fn, False)

    async def _write(self, fn: Callable[[halfmoon.service.ResultStore], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._writer, self._guarded, fn, True)

    async def open(self) -> None:
        """Open (creating if needed) both stores; a bad file fails here, before serving."""
        await self._write(lambda store: None)
        await self._read(lambda store: None)

    async def close(self) -> None:
        for pool in (self._writer, self._reader):
            await asyncio.get_running_loop().run_in_executor(pool, self._drop)
            pool.shutdown(wait=True)

    # -- solutions ------------------------------------------------------------------------------

    async def from_store(self, code: str, limits: halfmoon.Limits) -> halfmoon.SolveResult | None:
        """The answer the store's trust rules allow for a deal (its winning line replayed first), or None."""
        def run(store: halfmoon.service.ResultStore) -> halfmoon.SolveResult | None:
            before = store.bad_lines
            try:
                return halfmoon.service.from_store(code, store=store, limits=limits)
            finally:
                self.bad_lines += store.bad_lines - before

        return await self._read(run)

    async def put(self, result: halfmoon.service.StoredResult) -> bool:
        """Write and commit one result; False when the store kept a decided verdict instead (or is read-only)."""
        wrote = await self._write(lambda store: store.put(result))
        self.writes += wrote
        self.skipped_writes += self.readonly
        return wrote

    # -- curation -------------------------------------------------------------------------------

    async def put_rated(self, result: halfmoon.service.StoredResult,
                        rating: halfmoon.service.StoredRating | None) -> None:
        """Write a rating run's result (same rule as `put`) and its rating, committed together."""

        def run(store: halfmoon.service.ResultStore) -> bool:
            wrote = store.put(result)
            if rating is not None:
                store.put_rating(rating)
            return wrote

        self.writes += await self._write(run)
        self.skipped_writes += self.readonly

    async def curation_state(self, code: str, params: Any) -> str | None:
        """``rated``, ``settled`` or None (rate it): `halfmoon.service.curation_state`."""
        return await self._read(lambda store: halfmoon.service.curation_state(store, code, params=params))

    async def curated(self, game: str, tier: str | None, after: str | None, count: int,
                      params: Any) -> halfmoon.service.CuratedPage:
        """A page of the curated feed (`halfmoon.service.curated`: every line replayed, on the reader thread)."""
        return await self._read(lambda store: halfmoon.service.curated(store, game, tier=tier, after=after, count=count,
                                                               params=params))

    # -- health and size -------------------------------------------------------------------------

    async def counts(self) -> dict[str, int]:
        return await self._read(lambda store: store.counts())

    async def ping(self) -> None:
        """Raise unless the store file can be read."""
        await self._read(lambda store: store.ping())
