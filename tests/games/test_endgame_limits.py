"""An endgame answer stays within the caller's limits, answers beyond the exact questions included.

Golf's max^n line (3+ players) and Spit's solitaire counts are `extra_answers`; they must be
bounded by the same `Limits` as the questions (never more than their own defaults either), so
`--node-limit` / `--time-limit` bound the whole command. Counted in positions, not seconds.
"""

from __future__ import annotations

import halfmoon


def test_golfs_maxn_line_keeps_to_the_callers_position_limit():
    result = halfmoon.endgame("GF1-3-AAAAAAC", limits=halfmoon.Limits(nodes=300))  # the whole round: a big tree
    extra = result.to_json()["extra_answers"]
    assert [answer["id"] for answer in extra] == ["maxn-line"]
    answer = extra[0]
    assert answer["positions"] <= 300, answer
    assert answer["status"] == "unknown" and "position limit 300" in answer["reason"], answer


def test_spits_solitaire_counts_keep_to_the_callers_position_limit():
    result = halfmoon.endgame("SP1-N-AAAAAAB", limits=halfmoon.Limits(nodes=50))
    extra = result.to_json()["extra_answers"]
    assert len(extra) == 2
    for answer in extra:
        if answer["status"] == "solved" and answer.get("clears_alone"):
            assert answer["positions"] <= 50, answer
        else:
            assert answer["status"] == "unknown" and "50" in answer["reason"], answer
