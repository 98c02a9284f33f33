#!/usr/bin/env bash
# Search quality as a regression test (`make test`): builds the relevance collections' lakes and indexes
# through the CLI and runs `lakeqa eval discovery --expect` on every collection, split and mode; a metric
# lower than its checked-in value by more than the stated tolerance fails the test (exit != 0).
#
#   relevance_regression.sh <lakeqa binary> [nba|demo|real|all] [work dir]
#
# With LAKEQA_RELEVANCE_WRITE=<tolerance> it writes the expected files instead (the metrics measured now,
# with that tolerance unless the file already states one):
# only for a change meant to move the numbers (tests/data/relevance/README.md).
#
# Collections (tests/data/relevance/README.md): the NBA development set (dev and test splits) and the
# shared CMDBench examples over the CMDBench NBA lake (../shared/data/cmdbench-nba), and the demo lake's
# LakeQA tasks (demo/tasks over .deps/demo-src). `real` is the suite of collections written by others
# (real/suite.json: KramaBench's six domain workloads over a KramaBench lake, CMDBench's shared examples over
# the NBA lake), checked with `lakeqa eval suite --expect real/expected.json`, which fails on a drop and on a
# rise beyond the tolerance (an improvement re-pins: LAKEQA_RELEVANCE_WRITE rewrites the pins). A
# collection whose data is absent is skipped with a message; with none present the test reports itself
# skipped (exit 77).
set -uo pipefail
LAKEQA=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WHICH=${2:-all}
WORK=${3:-$(mktemp -d /tmp/lakeqa-relevance-XXXXXX)}
trap '[ -z "${3:-}" ] && rm -rf "$WORK"' EXIT
REL=$ROOT/tests/data/relevance
NBA=${LAKEQA_CMDBENCH_NBA:-$ROOT/../shared/data/cmdbench-nba}
[ -d "$NBA" ] || NBA=/work/shared/data/cmdbench-nba
GLOVE=${LAKEQA_GLOVE:-$ROOT/.deps/glove/glove100.bin}
DEMO_SRC=$ROOT/.deps/demo-src/source
failed=0 ran=0

modes=(bm25)
vectors=()
if [ -f "$GLOVE" ]; then
  modes=(bm25 vector hybrid)
  vectors=(--vectors glove --glove "$GLOVE")
else
  echo "relevance: no GloVe binary at $GLOVE: only mode bm25 is checked"
fi

# check <name> <index> <expected.json> <collection flags...>
check() {
  local name=$1 index=$2 expected=$3
  shift 3
  for mode in "${modes[@]}"; do
    local out
    if [ -n "${LAKEQA_RELEVANCE_WRITE:-}" ]; then
      "$LAKEQA" eval discovery --index "$index" "$@" --mode "$mode" --glove "$GLOVE" --json >"$WORK/got.json" || return 1
      python3 - "$expected" "$mode" "$LAKEQA_RELEVANCE_WRITE" "$WORK/got.json" <<'PY' || return 1
import json, os, sys
path, mode, tol, got = sys.argv[1], sys.argv[2], float(sys.argv[3]), json.load(open(sys.argv[4]))
e = json.load(open(path)) if os.path.exists(path) else {}
e.setdefault("tolerance", tol)
e.setdefault("modes", {})[mode] = {k: round(v, 4) for k, v in got["overall"].items()}
open(path, "w").write(json.dumps(e, indent=1, sort_keys=True) + "\n")
PY
      echo "relevance: $name $mode: wrote $expected"
      ran=$((ran + 1))
      continue
    fi
    out=$("$LAKEQA" eval discovery --index "$index" "$@" --mode "$mode" --glove "$GLOVE" --expect "$expected" 2>&1)
    local rc=$?
    ran=$((ran + 1))
    echo "$out" | grep -E "^all|REGRESSION" | sed "s/^/relevance: $name $mode: /"
    if [ $rc -ne 0 ]; then
      echo "relevance: $name $mode FAILED (exit $rc)"
      echo "$out" | tail -5
      failed=1
    fi
  done
}

KB=${LAKEQA_KRAMABENCH:-$ROOT/../shared/data/kramabench}
[ -d "$KB/workload" ] || KB=/work/shared/data/kramabench
if [ "$WHICH" = real ]; then
  if [ ! -d "$KB/workload" ] || [ ! -d "$NBA/tables" ]; then
    echo "relevance: skipping the real collections: need a KramaBench checkout at $KB and the CMDBench NBA lake at $NBA"
    exit 77
  fi
  if [ ! -f "$REL/real/expected.json" ] && [ -z "${LAKEQA_RELEVANCE_WRITE:-}" ]; then
    echo "relevance: skipping the real collections: no pins in $REL/real/expected.json yet (LAKEQA_RELEVANCE_WRITE=0.02 writes them)"
    exit 77
  fi
  "$LAKEQA" lake build -q --source "cmdbench:$NBA" --out "$WORK/nba-lake" >/dev/null || exit 1
  "$LAKEQA" index build -q --lake "$WORK/nba-lake" --index "$WORK/nba-idx" >/dev/null || exit 1
  "$LAKEQA" lake build -q --source "kramabench:$KB" --out "$WORK/kb-lake" >/dev/null || exit 1
  "$LAKEQA" index build -q --lake "$WORK/kb-lake" --index "$WORK/kb-idx" >/dev/null || exit 1
  suite=(eval suite --suite "$REL/real/suite.json" --set "KB_INDEX=$WORK/kb-idx" --set "NBA_INDEX=$WORK/nba-idx"
    --set "KRAMABENCH=$KB" --set "CMDBENCH_NBA=$NBA")
  if [ -n "${LAKEQA_RELEVANCE_WRITE:-}" ]; then
    "$LAKEQA" "${suite[@]}" --write-expected "$REL/real/expected.json" --tolerance "$LAKEQA_RELEVANCE_WRITE" || exit 1
    echo "relevance: real: wrote $REL/real/expected.json"
    exit 0
  fi
  "$LAKEQA" "${suite[@]}" --expect "$REL/real/expected.json" | sed "s/^/relevance: real: /"
  exit "${PIPESTATUS[0]}"
fi

if [ "$WHICH" != demo ] && [ -d "$NBA/tables" ]; then
  "$LAKEQA" lake build -q --source "cmdbench:$NBA" --out "$WORK/nba-lake" >/dev/null || exit 1
  "$LAKEQA" index build -q --lake "$WORK/nba-lake" --index "$WORK/nba-idx" "${vectors[@]}" >/dev/null || exit 1
  check nba-dev "$WORK/nba-idx" "$REL/nba/expected-dev.json" --questions "$REL/nba/dev.json"
  check nba-test "$WORK/nba-idx" "$REL/nba/expected-test.json" --questions "$REL/nba/test.json"
  check nba-examples "$WORK/nba-idx" "$REL/nba/expected-examples.json" \
    --questions "$NBA/examples/q_table_examples.json"
elif [ "$WHICH" != demo ]; then
  echo "relevance: skipping the NBA collections: no CMDBench NBA lake at $NBA"
fi

if [ "$WHICH" != nba ] && [ -d "$DEMO_SRC/datagov" ]; then
  "$LAKEQA" lake build -q --source "datagov:$DEMO_SRC/datagov" --out "$WORK/demo-lake" >/dev/null || exit 1
  "$LAKEQA" lake build -q --source "dir:$DEMO_SRC/wikipedia" --namespace wikipedia --out "$WORK/demo-lake" \
    >/dev/null || exit 1
  "$LAKEQA" index build -q --lake "$WORK/demo-lake" --index "$WORK/demo-idx" "${vectors[@]}" >/dev/null || exit 1
  check demo "$WORK/demo-idx" "$REL/demo/expected.json" --tasks "$ROOT/demo/tasks"
elif [ "$WHICH" != nba ]; then
  echo "relevance: skipping the demo collection: no demo sources at $DEMO_SRC (scripts/demo_data makes them)"
fi

[ $ran -eq 0 ] && exit 77
exit $failed
