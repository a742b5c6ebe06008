"""Helpers for the atlas tests: builds of the toy solitaire (tests/support/toy_solitaire.py) in 2^10-deal shards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from batch.test_runner import SerialSource
from support.toy_solitaire import TAG, toy_deal, toy_solve  # noqa: F401 - importing registers the toy game
from halfmoon.solver.atlas import build_atlas
from halfmoon.solver.catalogue import solitaire
from halfmoon.solver.core.verdicts import Limits

GAME = "TY1-N"  # the toy's code prefix
BITS = 10
RANGE = range(900, 2200)  # three shards: the end of shard 0, all of shard 1, part of shard 2
NODES = 60  # a node limit that leaves about one toy deal in six unknown


def build(directory: Path, numbers: range = RANGE, nodes: int = NODES, source: Any = None, **options: Any) -> Any:
    options.setdefault("shard_bits", BITS)
    options.setdefault("chunk", 128)
    return build_atlas(solitaire(TAG), numbers, directory, source or SerialSource(), limits=Limits(nodes=nodes),
                       **options)


def files(directory: Path) -> dict[str, bytes]:
    """Every file of an atlas directory but its lock, by name."""
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir()) if path.name != ".atlas.lock"}


def expected_code(number: int, nodes: int = NODES) -> int:
    """The code the toy solver gives a deal under `nodes` (1 winnable, 2 unwinnable, 3 unknown)."""
    return {"winnable": 1, "unwinnable": 2, "unknown": 3}[toy_solve(toy_deal(number), node_limit=nodes).verdict]
