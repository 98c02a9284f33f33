#!/usr/bin/env bash
# Benchmark harness benchmark (issue 6): harness overhead per turn and 64 parallel tasks. In one run, on a
# generated test lake (`lakeqa lake synth`, indexed) and generated tasks, against the loopback scripted
# OpenAI-protocol model the tests use (tests/support/demo_model_server.cc, built from tests/llm/model_server.h:
# real SSE Chat Completions wire protocol; it answers `search_keyword` on turn 1 and `submit_answer` on turn 2):
#  1. N tasks run sequentially (--parallel 1) with `lakeqa run --agent llm --base-url <server>`; harness
#     overhead per turn = (sum over tasks of predictions' elapsed_s − sum over turns of the traces' model_ms −
#     sum over turns of the traces' tool elapsed_ms) / number of turns: everything the agent loop spends
#     outside the model call and the tool call (request building, SSE parsing, dataset tracking, trace,
#     status line). A second, conservative figure uses the process's wall time instead of Σ elapsed_s, so it
#     also counts process start, index open, tool-session set-up and the predictions/trace writes.
#  2. 64 tasks with --parallel 64: all must end `answered` with no error; wall time and peak RSS (GNU time).
#  3. Offline replay of run 2 from its cassette (--offline, --parallel 8): same answers, wall time.
# The floor to compare with is the scripted server's own time per answer (no model, no network): the reference
# Python harness cannot run here (its `openai` package is not installed and PyPI cannot be reached).
# Writes (replaces) one section of docs/benchmarks.md.
# Usage: bench/harness.sh [build-dir=build/release] [tasks=64] [datasets=300]
#   build-dir must hold `lakeqa` and `tests/agent/demo_model_server` (a build with tests on).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build/release}
N=${2:-64}
DS=${3:-300}
LAKEQA=$(realpath "$BUILD/lakeqa")
SERVER_BIN=$(realpath "$BUILD/tests/agent/demo_model_server")
WORK=${LAKEQA_BENCH_DIR:-.cache/bench}/harness
mkdir -p "$WORK"
chmod 755 "$WORK"  # the code sandbox's unprivileged user must reach the run folders
LAKE=$WORK/lake-$DS
IDX=$WORK/index-$DS

SERVER_PID=
cleanup() { if [ -n "$SERVER_PID" ]; then kill -TERM "$SERVER_PID" 2>/dev/null || true; fi; }
trap cleanup EXIT INT TERM

if [ ! -e "$LAKE/.synth-done" ]; then
  rm -rf "$LAKE"
  "$LAKEQA" lake synth --out "$LAKE" --datasets "$DS" --seed 7 -q --json > "$WORK/synth.json"
  touch "$LAKE/.synth-done"
fi
if [ ! -e "$IDX/.build-done" ]; then
  rm -rf "$IDX"
  "$LAKEQA" index build --lake "$LAKE" --index "$IDX" -q --json > "$WORK/index.json"
  touch "$IDX/.build-done"
fi

# Tasks: one per dataset (first N datagov datasets), a one-node question naming the dataset's title words.
rm -rf "$WORK/tasks" && mkdir -p "$WORK/tasks/k-1-d-1"
/usr/bin/python3 - "$LAKE" "$WORK/tasks/k-1-d-1" "$N" <<'PY'
import json, os, sys
lake, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
ds = sorted(os.listdir(os.path.join(lake, "datagov")))[:n]
assert len(ds) == n, f"the lake has {len(ds)} datagov datasets, {n} tasks asked for"
for i, d in enumerate(ds, 1):
    f = sorted(os.listdir(os.path.join(lake, "datagov", d, "files")))[0]
    src = f"datagov/{d}/files/{f}"
    words = " ".join(w for w in d.split("-") if not w.isdigit())
    t = {"question_id": f"H{i:03d}", "question": f"Task {i}: how many rows does the {words} dataset have? [Answer]",
         "answer": "42",
         "nodes": {"1": {"source": src, "subquestion": f"{words} rows", "fact": "42", "answer": "42"}},
         "datasets_used": [src],
         "reasoning_hops": [{"hop": 1, "node_ids": [1], "reasoning": ["Count."], "answer": "42"}]}
    json.dump(t, open(os.path.join(out, f"task_{i}.json"), "w"))
PY

"$SERVER_BIN" > "$WORK/server.url" 2> "$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 100); do [ -s "$WORK/server.url" ] && break; sleep 0.05; done
URL=$(cat "$WORK/server.url")
echo "bench: scripted model at $URL" >&2

run() {  # run <out> <time-file> <extra args...>
  local out=$1 tf=$2; shift 2
  rm -rf "$out"
  /usr/bin/time -f '%e %M' -o "$tf" "$LAKEQA" run --tasks "$WORK/tasks" --index "$IDX" --lake "$LAKE" \
    --agent llm --model openai:gpt-5-mini --base-url "$URL" --out "$out" -q --json "$@" > "$out.json" 2> "$out.log" ||
    { echo "bench: lakeqa run failed ($out)"; tail -20 "$out.log"; exit 1; }
}
LOAD0=$(cut -d' ' -f1 /proc/loadavg)
run "$WORK/seq" "$WORK/seq.time" --parallel 1
LOAD1=$(cut -d' ' -f1 /proc/loadavg)
run "$WORK/par" "$WORK/par.time" --parallel 64
LOAD2=$(cut -d' ' -f1 /proc/loadavg)
# Replay: the cassette answers, the model server is not asked (its call count must not move).
rm -rf "$WORK/replay"
/usr/bin/time -f '%e %M' -o "$WORK/replay.time" "$LAKEQA" run --tasks "$WORK/tasks" --index "$IDX" --lake "$LAKE" \
  --agent llm --model openai:gpt-5-mini --offline --cassette "$WORK/par/cassette.jsonl" --out "$WORK/replay" \
  --parallel 8 -q --json > "$WORK/replay.json" 2> "$WORK/replay.log" ||
  { echo "bench: replay failed"; tail -20 "$WORK/replay.log"; exit 1; }
LOAD3=$(cut -d' ' -f1 /proc/loadavg)
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=
SERVER_CALLS=$(grep -o '[0-9]* calls' "$WORK/server.log" | cut -d' ' -f1)

# The floor: the scripted server's own time per answer, one keep-alive client, sequential (stdlib only).
"$SERVER_BIN" > "$WORK/server2.url" 2> "$WORK/server2.log" &
SERVER_PID=$!
for _ in $(seq 100); do [ -s "$WORK/server2.url" ] && break; sleep 0.05; done
FLOOR=$(/usr/bin/python3 - "$(cat "$WORK/server2.url")" <<'PY'
# One fresh connection per request with TCP_NODELAY (a keep-alive Python client would mostly measure the
# 40 ms delayed-ACK stall of a server that writes SSE chunks without TCP_NODELAY, not the server's work).
import http.client, json, socket, sys, time, urllib.parse
u = urllib.parse.urlparse(sys.argv[1])
body = json.dumps({"model": "gpt-5-mini", "stream": True, "messages": [
    {"role": "system", "content": "x"}, {"role": "user", "content": "Task 1: how many rows? [Answer]"}]}).encode()
ts = []
for _ in range(200):
    t = time.perf_counter()
    c = http.client.HTTPConnection(u.hostname, u.port)
    c.connect()
    c.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    c.request("POST", u.path + "/chat/completions", body, {"Content-Type": "application/json"})
    r = c.getresponse(); r.read(); c.close()
    ts.append((time.perf_counter() - t) * 1000)
ts.sort()
print(f"{ts[len(ts)//2]:.3f}")
PY
)
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=

/usr/bin/python3 - "$WORK" "$BUILD" "$N" "$DS" "$LOAD0" "$LOAD1" "$LOAD2" "$LOAD3" "$SERVER_CALLS" "$FLOOR" <<'PY'
import datetime, glob, json, os, platform, sys
w, build, n, ds, l0, l1, l2, l3, server_calls, floor = sys.argv[1:]
n = int(n)
def preds(run):
    return [json.loads(l) for l in open(f"{w}/{run}/predictions.jsonl") if l.strip()]
def tm(run):
    e, m = open(f"{w}/{run}.time").read().split()[-2:]
    return float(e), int(m) / 1024
seq = preds("seq")
turns = model = tool = 0
for p in seq:
    for l in open(f"{w}/seq/traces/{p['task_id']}.jsonl"):
        if not l.strip(): continue
        e = json.loads(l)
        turns += 1
        model += e.get("model_ms", 0.0)
        tool += e.get("elapsed_ms", 0.0) or 0.0
task_ms = sum(p["elapsed_s"] for p in seq) * 1000
over = (task_ms - model - tool) / turns
seq_wall, seq_rss = tm("seq")
over_wall = (seq_wall * 1000 - model - tool) / turns
par = preds("par")
par_ok = sum(p["status"] == "answered" and not p.get("error") for p in par)
par_err = [p for p in par if p["status"] != "answered" or p.get("error")]
par_wall, par_rss = tm("par")
rep = preds("replay")
same = {p["task_id"]: p["answer"] for p in rep} == {p["task_id"]: p["answer"] for p in par}
rep_ok = sum(p["status"] == "answered" for p in rep)
rep_wall, rep_rss = tm("replay")
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
pct = over / 5000 * 100
pct_wall = over_wall / 5000 * 100
body = f"""
Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC. Machine: {os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}, shared
with other engineers' builds and tests. Command: `bench/harness.sh {build} {n} {ds}`.
Lake: `lakeqa lake synth --datasets {ds} --seed 7`, indexed; {n} generated one-hop tasks (one per datagov
dataset, the question names the dataset's title words). Model: the loopback scripted OpenAI-protocol server
of the tests (`tests/support/demo_model_server.cc` over `tests/llm/model_server.h`, real SSE Chat Completions),
which answers `search_keyword` (the question's two longest words) on turn 1 and `submit_answer` on turn 2, so
every task is 2 model turns and 1 real tool call (`search_keyword` through the real tool environment).

**Overhead per turn.** {n} tasks run sequentially (`--parallel 1`): {turns} turns. Overhead = (Σ over tasks
of `elapsed_s` in predictions.jsonl − Σ over turns of `model_ms` in the traces − Σ over turns of the tool's
`elapsed_ms` in the traces) / turns. It counts everything the harness does outside the model request and the
tool call: request building, SSE parsing, dataset tracking, the status line and the trace event.
Result: **{over:.2f} ms/turn** inside the agent loop (model {model / turns:.2f} ms, tool {tool / turns:.2f} ms
per turn) = {pct:.4f}% of a 5 s model turn. `elapsed_s` starts when the agent starts, so it leaves out each
task's tool-session set-up and its predictions/trace write; the conservative figure uses the whole process's
wall time instead (process start, index open, sessions, fsyncs, everything): ({seq_wall:.2f} s wall −
Σ model − Σ tool) / {turns} turns = **{over_wall:.2f} ms/turn** = {pct_wall:.4f}% of a 5 s turn (peak RSS
{seq_rss:.0f} MB). The < 1% target (50 ms/turn) is **{"met" if pct_wall < 1 else "not met"}** on both figures{"" if pct < 1 else " (not met inside the loop)"}.
1-minute load average {l0} before, {l1} after.

**64 parallel tasks** (`--parallel 64`): {par_ok}/{len(par)} answered without error{"" if not par_err else f" — errors: {[(p['task_id'], p['status'], p.get('error')) for p in par_err][:5]}"};
wall {par_wall:.2f} s, peak RSS {par_rss:.0f} MB (the sequential run's wall was {seq_wall:.2f} s: on 2 cores, 64
concurrent tasks gain nothing when the model answers in about a millisecond; where the time goes at
`--parallel 64` was not investigated). Load average {l1} before, {l2} after.

**Replay** of that run from its cassette (`--offline --cassette <run>/cassette.jsonl --parallel 8`, no model
server asked): {rep_ok}/{len(rep)} answered, answers {"identical to" if same else "DIFFERENT from"} the recorded run; wall
{rep_wall:.2f} s, peak RSS {rep_rss:.0f} MB. Load average {l2} before, {l3} after. The scripted server answered
{server_calls} model calls over the three runs (2 × {n} sequential + 2 × {n} parallel; replay adds none).

**Competitor.** The reference Python harness (`evaluation/agent_runner.py`) cannot run here: `/usr/bin/python3
-c 'import openai'` fails (ModuleNotFoundError) and PyPI cannot be reached, so there is no like-for-like number.
The honest floor instead: the scripted server's own time per answer, measured from Python (`http.client`,
a fresh TCP_NODELAY connection per request, 200 sequential requests): p50 **{float(floor):.2f} ms** per model
call, request to full SSE body. lakeqa's `model_ms` per turn ({model / turns:.2f} ms) is that plus lakeqa's
own HTTP client and SSE parsing, i.e. the harness adds {model / turns - float(floor):.2f} ms per model call on top of the
floor, which is also far below 1% of a 5 s turn. (A keep-alive client without TCP_QUICKACK sees ~44 ms per
answer from this server: the test server writes its SSE chunks without TCP_NODELAY, and the client's delayed
ACK stalls the last chunk; that is an artefact of the test server, not model time.)
"""
sys.path.insert(0, "bench")
from bench_doc import replace_section
replace_section("## Benchmark harness: overhead per turn and 64 parallel tasks", body)
print(body)
PY
