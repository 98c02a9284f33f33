#!/usr/bin/env bash
# Search quality on the collections of questions this project did not write (issue 25): KramaBench's six
# domain workloads (each domain, then all 104 tasks together) over the KramaBench lake, and the shared
# CMDBench table examples over the CMDBench NBA lake; every engine of bench/relevance_engines.py (plain
# BM25, Xapian, FTS5, Lucene, the CMDBench paper's retriever) against lakeqa in one run. Builds the lakes and
# indexes with lakeqa's defaults (kept in the work folder: delete it to rebuild, e.g. after a ranking change).
#
#   bench/relevance_real.sh <lakeqa binary> [work dir, default /tmp/lakeqa-relevance-real] [relevance_engines.py flags]
#
# Data: KramaBench's checkout and the CMDBench NBA lake from ../shared/data (or $LAKEQA_KRAMABENCH,
# $LAKEQA_CMDBENCH_NBA). Installs python3-xapian, and (through relevance_engines.py) the JDK, Lucene and
# python3-nltk, when missing. Writes <work>/relevance.md.
set -euo pipefail
LAKEQA=$(realpath "${1:?usage: bench/relevance_real.sh <lakeqa binary> [work dir] [flags]}")
WORK=${2:-/tmp/lakeqa-relevance-real}
shift $(( $# >= 2 ? 2 : 1 ))
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KB=${LAKEQA_KRAMABENCH:-$ROOT/../shared/data/kramabench}
[ -d "$KB" ] || KB=/work/shared/data/kramabench
NBA=${LAKEQA_CMDBENCH_NBA:-$ROOT/../shared/data/cmdbench-nba}
[ -d "$NBA" ] || NBA=/work/shared/data/cmdbench-nba
# Debian's python3-xapian (and NLTK) are visible to /usr/bin/python3 only, not to a pyenv or venv python3.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
"$PY" -c 'import xapian' 2>/dev/null || apt-get install -y python3-xapian >&2
mkdir -p "$WORK"
cols=()
if [ -d "$KB/workload" ]; then
  if [ ! -s "$WORK/kb-idx/manifest.json" ]; then
    rm -rf "$WORK/kb-lake" "$WORK/kb-idx"
    "$LAKEQA" lake build -q --source "kramabench:$KB" --out "$WORK/kb-lake" >&2
    "$LAKEQA" index build -q --lake "$WORK/kb-lake" --index "$WORK/kb-idx" >&2
  fi
  all=()
  for d in archeology astronomy biomedical environment legal wildfire; do
    cols+=(--collection "kb-$d:$WORK/kb-idx:kramabench:$KB/workload/$d.json")
    all+=("$KB/workload/$d.json")
  done
  cols+=(--collection "kb-all:$WORK/kb-idx:kramabench:$(IFS=,; echo "${all[*]}")")
else
  echo "relevance_real: no KramaBench checkout at $KB: its collections are left out" >&2
fi
if [ -d "$NBA/tables" ]; then
  if [ ! -s "$WORK/nba-idx/manifest.json" ]; then
    rm -rf "$WORK/nba-lake" "$WORK/nba-idx"
    "$LAKEQA" lake build -q --source "cmdbench:$NBA" --out "$WORK/nba-lake" >&2
    "$LAKEQA" index build -q --lake "$WORK/nba-lake" --index "$WORK/nba-idx" >&2
  fi
  cols+=(--collection "cmdbench-examples:$WORK/nba-idx:cmdbench:$NBA/examples/q_table_examples.json")
else
  echo "relevance_real: no CMDBench NBA lake at $NBA: its collection is left out" >&2
fi
[ ${#cols[@]} -gt 0 ] || { echo "relevance_real: no collection found" >&2; exit 77; }
"$PY" "$ROOT/bench/relevance_engines.py" --lakeqa "$LAKEQA" --work "$WORK" --cmdbench-tables "$NBA/tables" \
  "${cols[@]}" "$@"
