#!/usr/bin/env bash
# The demo end to end from the raw sources: fetch + convert (scripts/demo_data), build the lake and the
# index, validate and verify the tasks, run the oracle and the baseline, score both.
# Usage: demo/pipeline.sh [lakeqa binary] [work folder]   (defaults: build/harness/lakeqa, .cache/demo)
set -euo pipefail
cd "$(dirname "$0")/.."
LAKEQA=${1:-build/harness/lakeqa}
WORK=${2:-.cache/demo}
SRC=.deps/demo-src/source
scripts/demo_data
if [ ! -e "$WORK/lake.done" ]; then
  rm -rf "$WORK/lake" "$WORK/index"
  "$LAKEQA" lake build --source "datagov:$SRC/datagov" --out "$WORK/lake" -q
  "$LAKEQA" lake build --source "dir:$SRC/wikipedia" --namespace wikipedia --out "$WORK/lake" -q
  touch "$WORK/lake.done"
fi
"$LAKEQA" index build --lake "$WORK/lake" --index "$WORK/index"
"$LAKEQA" tasks validate demo/tasks
"$LAKEQA" tasks verify demo/tasks --lake "$WORK/lake" --index "$WORK/index"
for agent in oracle baseline; do
  rm -rf "$WORK/run-$agent"
  "$LAKEQA" run --tasks demo/tasks --index "$WORK/index" --lake "$WORK/lake" --agent $agent --out "$WORK/run-$agent" --parallel 2
  "$LAKEQA" eval --run "$WORK/run-$agent" --tasks demo/tasks
done
