#!/usr/bin/env bash
# `make demo`'s pipeline as an integration test, on a reduced task set (one task of each hop count): the demo
# lake built from its raw sources, indexed, tasks validated and verified, the oracle and the baseline run
# through the real tools, both scored by `lakeqa eval`. Passes when the oracle's EM is 100%, every node is
# grounded, and the baseline is scored (its EM is whatever it is). Exit 77 (skipped) when the demo's raw
# data cannot be fetched (no npm registry).
# Usage: demo_reduced.sh <lakeqa binary>
set -euo pipefail
cd "$(dirname "$0")/../.."
LAKEQA=$(realpath "$1")
if ! scripts/demo_data >/dev/null 2>&1; then
  echo "SKIP: scripts/demo_data could not fetch the demo's raw data"; exit 77
fi
WORK=$(mktemp -d /tmp/lakeqa-demo-test-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # the code sandbox's unprivileged user must reach the sessions
SRC=.deps/demo-src/source
mkdir -p "$WORK/tasks"
for d in demo/tasks/k-*; do
  mkdir -p "$WORK/tasks/$(basename "$d")"
  cp "$(ls "$d"/*.json | sort | head -1)" "$WORK/tasks/$(basename "$d")/"
done
"$LAKEQA" lake build --source "datagov:$SRC/datagov" --out "$WORK/lake" -q --strict >/dev/null
"$LAKEQA" lake build --source "dir:$SRC/wikipedia" --namespace wikipedia --out "$WORK/lake" -q --strict >/dev/null
"$LAKEQA" index build --lake "$WORK/lake" --index "$WORK/index" -q >/dev/null
"$LAKEQA" tasks validate "$WORK/tasks" >/dev/null
"$LAKEQA" tasks verify "$WORK/tasks" --lake "$WORK/lake" --index "$WORK/index" -q
for agent in oracle baseline; do
  "$LAKEQA" run --tasks "$WORK/tasks" --index "$WORK/index" --lake "$WORK/lake" --agent $agent --out "$WORK/run-$agent" \
    --parallel 2 -q >/dev/null
  "$LAKEQA" eval --run "$WORK/run-$agent" --tasks "$WORK/tasks" --json > "$WORK/eval-$agent.json"
done
/usr/bin/python3 - "$WORK" <<'PY'
import json, sys
w = sys.argv[1]
o = json.load(open(f"{w}/run-oracle/report.json"))
b = json.load(open(f"{w}/run-baseline/report.json"))
assert o["tasks"] >= 6 and o["em"] == 1.0, f"oracle EM {o['em']} over {o['tasks']} tasks"
assert o["funnel"]["correct"] == o["tasks"], o["funnel"]
assert b["tasks"] == o["tasks"] and sum(b["funnel"].values()) == b["tasks"], b["funnel"]
print(f"demo pipeline: oracle EM {o['em']:.0%} on {o['tasks']} tasks; baseline EM {b['em']:.0%}, funnel {b['funnel']}")
PY
