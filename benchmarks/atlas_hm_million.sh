#!/bin/sh
# The winnability atlas of Half Moon deals 0-999,999 (issue 15, item 5): first pass, re-decide pass,
# statistics, the lists, and a verify sample, with every figure written under $OUT.
#
#   sh benchmarks/atlas_hm_million.sh [ATLAS_DIR [WORKERS]]        (defaults: atlas-hm, 2)
#
# Resumable: run it again after an interruption (each build skips what the atlas already holds;
# the JSON of a resumed build then describes only the resumed part, so time an uninterrupted run).
# Time limits are wall clock: run it on a quiet machine.
set -eu
ATLAS=${1:-atlas-hm}
WORKERS=${2:-2}
RANGE=0:1000000
OUT=benchmarks/results/atlas_hm_0-999999
mkdir -p "$OUT"
halfmoon atlas build --range $RANGE --out "$ATLAS" --workers "$WORKERS" --time-limit 10 --json > "$OUT/build.json"
halfmoon atlas stats "$ATLAS" --range $RANGE --list unknown --no-summary --json > "$OUT/unknown_after_first_pass.jsonl"
halfmoon atlas build --range $RANGE --out "$ATLAS" --workers "$WORKERS" --time-limit 600 --redecide --json \
    > "$OUT/redecide.json"
halfmoon atlas stats "$ATLAS" --range $RANGE --json > "$OUT/stats.json"
halfmoon atlas stats "$ATLAS" --range $RANGE --list unwinnable --no-summary > "$OUT/unwinnable.txt"
halfmoon atlas stats "$ATLAS" --range $RANGE --list unknown --no-summary --json > "$OUT/unknown.jsonl"
halfmoon atlas verify "$ATLAS" --sample 2000 --workers "$WORKERS" --json > "$OUT/verify.json"
halfmoon atlas stats "$ATLAS" --range $RANGE
