#!/usr/bin/env bash
# Old vs new searcher on one index, in one run: two release builds of bench_search_engines (say, of main
# and of a branch) query the same lakeqa index in alternation, ROUNDS times, and the median of each
# binary's per-round top-k p50 is printed per query length as a Markdown table. Before timing, both
# binaries write every query's top-10 and top-100 ids and scores (`--scores`, which also checks them
# against exhaustive scoring): the run fails unless the two files are identical, so a speed-up that
# changes a ranking is never reported.
#
#   bench/search_speed_ab.sh OLD_BIN NEW_BIN (--tsv FILE | --synth N) [--queries 200] [--rounds 3]
#                            [--work /tmp/lakeqa-search-ab] [--old-engine lakeqa] [--new-engine lakeqa]
#
# --old-engine / --new-engine pick each side's ranking (bench_search_engines' engines on a lakeqa index:
# lakeqa, or lakeqa-fieldsum for the per-field sum BM25F replaced). When they differ the two rankings are
# not compared with each other, but each side is still checked against its own exhaustive scoring.
#
# --tsv takes "id \t title \t text" lines, e.g. the GCIDE file bench/search_engines.sh writes
# (/tmp/lakeqa-search-bench/gcide.tsv); --synth N generates N synthetic catalog documents (all fields of
# Schema::Datasets(), data fields included). The index is built once, by OLD_BIN.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n 2,18p "$0" >&2; exit 2; }
OLD=$1 NEW=$2
shift 2
CORPUS=() QUERIES=200 ROUNDS=3 WORK=/tmp/lakeqa-search-ab OLD_ENGINE=lakeqa NEW_ENGINE=lakeqa
while [ $# -gt 0 ]; do
  case "$1" in
    --tsv|--synth) CORPUS=("$1" "$2"); shift 2 ;;
    --queries) QUERIES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --old-engine) OLD_ENGINE=$2; shift 2 ;;
    --new-engine) NEW_ENGINE=$2; shift 2 ;;
    *) echo "search_speed_ab.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ ${#CORPUS[@]} -eq 2 ] || { echo "search_speed_ab.sh: give --tsv FILE or --synth N" >&2; exit 2; }
for b in "$OLD" "$NEW"; do [ -x "$b" ] || { echo "search_speed_ab.sh: $b is not an executable" >&2; exit 2; }; done
mkdir -p "$WORK"
IDX=$WORK/ab.idx
"$OLD" --engine lakeqa --dir "$IDX" --out "$WORK/build" "${CORPUS[@]}" --queries "$QUERIES" >/dev/null
"$OLD" --engine "$OLD_ENGINE" --reuse --dir "$IDX" --out "$WORK/check-old" "${CORPUS[@]}" --queries "$QUERIES" \
  --scores "$WORK/old.scores" >/dev/null
"$NEW" --engine "$NEW_ENGINE" --reuse --dir "$IDX" --out "$WORK/check-new" "${CORPUS[@]}" --queries "$QUERIES" \
  --scores "$WORK/new.scores" >/dev/null
if [ "$OLD_ENGINE" != "$NEW_ENGINE" ]; then
  echo "rankings $OLD_ENGINE and $NEW_ENGINE not compared; each identical to its exhaustive scoring" >&2
elif ! cmp -s "$WORK/old.scores" "$WORK/new.scores"; then
  echo "search_speed_ab.sh: rankings differ ($WORK/old.scores vs $WORK/new.scores):" >&2
  diff "$WORK/old.scores" "$WORK/new.scores" | head -20 >&2
  exit 1
else
  echo "identical ids and scores: $(wc -l <"$WORK/old.scores") query runs (top-10 and top-100)" >&2
fi
for r in $(seq 1 "$ROUNDS"); do
  for side in old new; do
    bin=$OLD engine=$OLD_ENGINE
    [ $side = new ] && bin=$NEW engine=$NEW_ENGINE
    echo "round $r: $side (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    "$bin" --engine "$engine" --reuse --dir "$IDX" --out "$WORK/$side-$r" "${CORPUS[@]}" --queries "$QUERIES" >/dev/null
  done
done
python3 - "$WORK" "$ROUNDS" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
runs = {s: [json.load(open(f"{work}/{s}-{r}.json"))["latency_us"] for r in range(1, rounds + 1)] for s in ("old", "new")}
keys = list(runs["old"][0])
print("| query | queries | old p50 µs (per round) | new p50 µs (per round) | old → new median p50 µs | change |")
print("|---|---|---|---|---|---|")
for k in keys:
    o = [x[k]["p50"] for x in runs["old"]]
    n = [x[k]["p50"] for x in runs["new"]]
    mo, mn = statistics.median(o), statistics.median(n)
    print(f"| {k.replace('_', ' ')} | {runs['old'][0][k]['queries']} | {' / '.join(f'{v:.1f}' for v in o)} | "
          f"{' / '.join(f'{v:.1f}' for v in n)} | {mo:.1f} → {mn:.1f} | {100 * (mn - mo) / mo:+.0f}% |")
PY
