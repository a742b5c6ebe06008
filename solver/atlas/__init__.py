"""The winnability atlas: every deal of a range decided, two bits a deal, in shards (docs/atlas.md).

`format`: the files (shards, header, sidecar, journalled writes, merge, O(1) lookup), nothing
about solving. `build`: the build over `core.batch` executors, the checks and the statistics.
"""

from .build import (
    DEFAULT_CHUNK,
    AtlasStats,
    BuildReport,
    VerifyReport,
    atlas_game,
    atlas_numbers,
    atlas_stats,
    build_atlas,
    check_atlas,
    unknown_entries,
    verify_atlas,
)
from .format import (
    CODE_NAMES,
    DEFAULT_SHARD_BITS,
    FORMAT_VERSION,
    Atlas,
    Header,
    MergeReport,
    Shard,
    ShardWriter,
    Unknown,
    merge_atlases,
)

__all__ = [
    "CODE_NAMES",
    "DEFAULT_CHUNK",
    "DEFAULT_SHARD_BITS",
    "FORMAT_VERSION",
    "Atlas",
    "AtlasStats",
    "BuildReport",
    "Header",
    "MergeReport",
    "Shard",
    "ShardWriter",
    "Unknown",
    "VerifyReport",
    "atlas_game",
    "atlas_numbers",
    "atlas_stats",
    "build_atlas",
    "check_atlas",
    "merge_atlases",
    "unknown_entries",
    "verify_atlas",
]
