"""Atlas I/O costs on full-size shards: lookup time (in process) and the cost of one commit.

Writes two full-size Half Moon shards of random codes (2^24 deals: the first shard, and the
last, shorter one of the 26^7 range) to a temporary directory, then measures:

- `halfmoon.atlas.lookup` in process: cold (a fresh `Atlas`: directory listing, open, header,
  one byte; the modules already imported) and warm (the shard's header known: one byte read),
  over random deal numbers;
- one journalled commit (`ShardWriter.update`) of a chunk of N deals, with and without fsync:
  the client's cost per chunk, which bounds the deals a second one client can take in.

No solving. Run: python benchmarks/atlas_io.py [--chunk 4096] [--lookups 2000] [--out results/atlas_io.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

import halfmoon
from halfmoon.solver.atlas import Atlas, ShardWriter, Unknown
from halfmoon.solver.atlas.format import DEFAULT_SHARD_BITS, UNKNOWN

BITS = DEFAULT_SHARD_BITS


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median_ms": round(1000 * statistics.median(ordered), 4),
            "p99_ms": round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 4),
            "max_ms": round(1000 * ordered[-1], 4)}


def fill(directory: Path, index: int, rng: np.random.Generator) -> None:
    first = index << BITS
    count = min(1 << BITS, halfmoon.service.DEAL_COUNT - first)
    codes = rng.choice(np.array([1, 2], dtype=np.uint8), size=count, p=[0.97, 0.03]).astype(np.uint8)
    codes[:: 100_000] = UNKNOWN
    unknowns = [Unknown(int(first + k), halfmoon.code(int(first + k)), "time", 10.0, None)
                for k in np.flatnonzero(codes == UNKNOWN).tolist()]
    with ShardWriter(directory, "HM1-N", BITS, index, count, "bench", sync=False) as writer:
        writer.update(first, codes, unknowns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunk", type=int, default=4096)
    parser.add_argument("--lookups", type=int, default=2000)
    parser.add_argument("--commits", type=int, default=20)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    last_index = (halfmoon.service.DEAL_COUNT - 1) >> BITS
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        started = time.perf_counter()
        fill(directory, 0, rng)
        fill(directory, last_index, rng)
        fill_seconds = time.perf_counter() - started
        pick = random.Random(2)
        numbers = [pick.randrange(1 << BITS) for _ in range(args.lookups // 2)] + \
            [pick.randrange(last_index << BITS, halfmoon.service.DEAL_COUNT) for _ in range(args.lookups // 2)]
        cold, warm = [], []
        with Atlas(directory) as atlas:  # the modules a lookup needs, imported once
            halfmoon.atlas.lookup(0, atlas)
        for number in numbers[:200]:
            t0 = time.perf_counter()
            atlas = Atlas(directory)
            halfmoon.atlas.lookup(number, atlas)
            cold.append(time.perf_counter() - t0)
            atlas.close()
        with Atlas(directory) as atlas:
            for number in numbers:
                t0 = time.perf_counter()
                halfmoon.atlas.lookup(number, atlas)
                warm.append(time.perf_counter() - t0)
            assert halfmoon.atlas.lookup(halfmoon.service.DEAL_COUNT - 1, atlas).verdict is not None
        commits = {}
        for sync in (False, True):
            times = []
            with ShardWriter(directory, "HM1-N", BITS, 1, 1 << BITS, "bench", sync=sync) as writer:
                for k in range(args.commits):
                    codes = np.ones(args.chunk, dtype=np.uint8)
                    t0 = time.perf_counter()
                    writer.update((1 << BITS) + k * args.chunk, codes)
                    times.append(time.perf_counter() - t0)
            commits["fsync" if sync else "no_fsync"] = quantiles(times) | {
                "max_deals_per_second": round(args.chunk / statistics.median(times))}
        sizes = {path.name: path.stat().st_size for path in directory.glob("*.atlas")}
    full_range = sum(256 + (min(1 << BITS, halfmoon.service.DEAL_COUNT - (i << BITS)) + 3) // 4
                     for i in range(last_index + 1))
    result = {
        "shard_bits": BITS, "chunk": args.chunk, "fill_seconds_two_shards": round(fill_seconds, 2),
        "lookup_cold": quantiles(cold), "lookup_warm": quantiles(warm), "commit": commits, "shard_bytes": sizes,
        "full_range_shards": last_index + 1, "full_range_bytes": full_range,
        "full_range_bytes_per_deal": round(full_range / halfmoon.service.DEAL_COUNT, 6),
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
