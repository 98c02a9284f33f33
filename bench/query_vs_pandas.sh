#!/usr/bin/env bash
# `query` (DuckDB, through the tool) against `execute_code` with pandas (same server, same session, same file),
# on the same three questions over one generated CSV (issue: the agent tool environment, "Performance"):
#   Q1 group-by + aggregate, Q2 filter + aggregate, Q3 top-k.
# The CSV is a dataset of a one-dataset lake; the session downloads it (stream into the shared cache once, then
# a hard link into the sandbox), so both tools read the same sandbox file from a warm page cache.
# Times are tool calls through the HTTP API as the client sees them (sandbox start and `import pandas`
# included for execute_code: that is what an agent pays); the pandas code also reports its own compute time.
# `query` is measured three ways: direct (read_csv with an explicit option, which the columnar cache leaves
# alone, so the CSV is parsed every time), the first query naming the file (includes the one-time import into
# the columnar cache) and later queries (served from the cache). Answers are compared.
# Writes (replaces) one subsection of docs/benchmarks.md.
# Usage: bench/query_vs_pandas.sh [build-dir=build/release] [csv_mb=1000] [query_reps=3] [pandas_reps=1]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build/release}
CSV_MB=${2:-1000}
QREPS=${3:-3}
PREPS=${4:-1}
LAKEQA=$BUILD/lakeqa
WORK=${LAKEQA_BENCH_DIR:-.cache/bench}
LAKE=$WORK/qvp-lake-$CSV_MB
IDX=$WORK/qvp-index-$CSV_MB
RUN=$WORK/qvp-run
DS=bench-incidents
CSV=$LAKE/datagov/$DS/files/incidents.csv
mkdir -p "$WORK"

SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$RUN"
}
trap cleanup EXIT INT TERM

if [ ! -e "$LAKE/.gen-done" ]; then
  echo "bench: generating a $CSV_MB MB CSV at $CSV" >&2
  rm -rf "$LAKE" "$IDX"
  mkdir -p "$(dirname "$CSV")"
  timeout 1800 /usr/bin/python3 - "$CSV" "$CSV_MB" <<'PY'
import random, sys
path, mb = sys.argv[1], int(sys.argv[2])
rnd = random.Random(7)
sectors = ["Adam", "Baker", "Charlie", "David", "Edward", "Frank", "George", "Henry", "Ida"]
with open(path, "w") as f:
    f.write("Incident Number,Occurred Date,Occurred Year,Sector,Council District,Description,Latitude,Longitude\n")
    target, size, i = mb * 1000 * 1000, 0, 0
    while size < target:
        rows = []
        for _ in range(10000):
            i += 1
            rows.append(f'{20230000000+i},{rnd.randint(1,12):02d}/{rnd.randint(1,28):02d}/{rnd.randint(2015,2024)},'
                        f'{rnd.randint(2015,2024)},{rnd.choice(sectors)},{rnd.randint(1,10)},'
                        f'"Call, type {rnd.randint(1,500)}",{30+rnd.random():.6f},{-97-rnd.random():.6f}\n')
        chunk = "".join(rows)
        f.write(chunk)
        size += len(chunk)
PY
  printf 'Synthetic incident calls for the query-vs-pandas benchmark.\n' > "$LAKE/datagov/$DS/readme.txt"
  touch "$LAKE/.gen-done"
fi
if [ ! -e "$IDX/.build-done" ]; then
  rm -rf "$IDX"
  timeout 600 "$LAKEQA" index build --lake "$LAKE" --index "$IDX" -q --json > "$WORK/qvp-index.json"
  touch "$IDX/.build-done"
fi
CSV_BYTES=$(stat -c %s "$CSV")
LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)

rm -rf "$RUN" && mkdir -p "$RUN/sessions" "$RUN/cache"
"$LAKEQA" serve --index "$IDX" --lake "$LAKE" --listen 127.0.0.1:0 --sessions-dir "$RUN/sessions" \
  --cache-dir "$RUN/cache" --call-timeout-ms 600000 --json > "$RUN/serve.json" 2> "$RUN/serve.log" &
SERVER_PID=$!
for _ in $(seq 100); do [ -s "$RUN/serve.json" ] && break; sleep 0.1; done
PORT=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' "$RUN/serve.json")
echo "bench: lakeqa serve on 127.0.0.1:$PORT (pid $SERVER_PID)" >&2

timeout 3000 /usr/bin/python3 - "$PORT" "$DS" "$QREPS" "$PREPS" > "$WORK/qvp-result-$CSV_MB.json" <<'PY'
import json, statistics, sys, time, urllib.request
port, ds, qreps, preps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
base = f"http://127.0.0.1:{port}"

def post(path, body=None):
    data = b"" if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method="POST",
                                 headers={"Content-Type": "application/json", "Content-Length": str(len(data))})
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=900) as r:
            res = json.loads(r.read())
    except urllib.error.HTTPError as e:
        res = json.loads(e.read() or b"{}")
    return res, time.perf_counter() - t0

sid = post("/v1/sessions")[0]["session_id"]
call = lambda tool, args: post(f"/v1/sessions/{sid}/tools/{tool}", args)
dl, dl_s = call("download", {"dataset_id": ds, "file_path": "files/incidents.csv"})
rel = dl["downloaded"][0]["relative_path"]
out = {"download_s": dl_s, "relative_path": rel, "questions": {}}

SRC = f"read_csv('{rel}')"
DIRECT = f"read_csv('{rel}', sample_size = 20480)"  # same reader, but not rewritten to the cache
QUESTIONS = {
  "Q1 group-by": (
    f'SELECT Sector, "Occurred Year" AS year, count(*) AS n, round(avg(Latitude), 6) AS lat FROM {SRC} '
    f'GROUP BY ALL ORDER BY Sector, year',
    "df = pd.read_csv(P, usecols=['Sector', 'Occurred Year', 'Latitude'], dtype={'Sector': 'category'})\n"
    "g = df.groupby(['Sector', 'Occurred Year'], observed=True)['Latitude'].agg(['size', 'mean']).reset_index()\n"
    "g = g.sort_values(['Sector', 'Occurred Year'])\n"
    "ans = [[str(r[0]), int(r[1]), int(r[2]), round(float(r[3]), 6)] for r in g.itertuples(index=False)]\n"),
  "Q2 filter": (
    f'SELECT count(*) AS n, round(avg(Longitude), 6) AS lon FROM {SRC} '
    f'WHERE Sector = \'Adam\' AND "Council District" = 3 AND "Occurred Year" >= 2020',
    "df = pd.read_csv(P, usecols=['Sector', 'Council District', 'Occurred Year', 'Longitude'],"
    " dtype={'Sector': 'category'})\n"
    "f = df[(df['Sector'] == 'Adam') & (df['Council District'] == 3) & (df['Occurred Year'] >= 2020)]\n"
    "ans = [[int(len(f)), round(float(f['Longitude'].mean()), 6)]]\n"),
  "Q3 top-k": (
    f'SELECT Description, count(*) AS n FROM {SRC} GROUP BY Description ORDER BY n DESC, Description LIMIT 5',
    "df = pd.read_csv(P, usecols=['Description'], dtype={'Description': 'category'})\n"
    "c = df['Description'].value_counts().reset_index()\n"
    "c.columns = ['Description', 'n']\n"
    "c = c.sort_values(['n', 'Description'], ascending=[False, True]).head(5)\n"
    "ans = [[str(r[0]), int(r[1])] for r in c.itertuples(index=False)]\n"),
}
for name, (sql, pycode) in QUESTIONS.items():
    q = {"sql": sql, "query_s": [], "direct_s": [], "pandas_s": [], "pandas_compute_s": [], "errors": [],
         "cache_states": []}
    for _ in range(qreps + 1):
        res, dt = call("query", {"sql": sql})
        if "error" in res:
            q["errors"].append(("query", res["error"])); continue
        states = [c["state"] for c in res.get("columnar_cache", [])]
        q["cache_states"].append(states)
        if "imported" in states:
            q["first_s"] = dt  # the import happens in the first query naming the file
        else:
            q["query_s"].append(dt)
        q["query_answer"] = res["rows"]
    # After the cached calls: naming the file triggers the import, which belongs to the first cached call.
    for _ in range(qreps):
        res, dt = call("query", {"sql": sql.replace(SRC, DIRECT)})
        if "error" in res:
            q["errors"].append(("direct query", res["error"])); continue
        q["direct_s"].append(dt)
        q["direct_answer"] = res["rows"]
    code = ("import json, time\nt0 = time.perf_counter()\nimport pandas as pd\nt1 = time.perf_counter()\n"
            f"P = {rel!r}\n" + pycode +
            "print(json.dumps({'ans': ans, 'import_s': t1 - t0, 'compute_s': time.perf_counter() - t1}))\n")
    q["pandas_code"] = code
    for _ in range(preps):
        res, dt = call("execute_code", {"code": code})
        if not res.get("success"):
            q["errors"].append(("execute_code", {k: res.get(k) for k in ("error", "stderr", "exit_code")}))
            continue
        o = json.loads(res["output"].strip().splitlines()[-1])
        q["pandas_s"].append(dt)
        q["pandas_compute_s"].append(o["compute_s"])
        q["pandas_import_s"] = o["import_s"]
        q["pandas_answer"] = o["ans"]
    qa, pa, da = q.get("query_answer"), q.get("pandas_answer"), q.get("direct_answer")
    q["answers_equal"] = None if qa is None or pa is None or da is None else (
        json.dumps(qa, sort_keys=True) == json.dumps(pa, sort_keys=True) == json.dumps(da, sort_keys=True))
    if q["answers_equal"] is False:
        q["answer_diff"] = {"query": qa[:5], "pandas": pa[:5]}
    q["query_median_s"] = statistics.median(q["query_s"]) if q["query_s"] else None
    q["direct_median_s"] = statistics.median(q["direct_s"]) if q["direct_s"] else None
    q["pandas_median_s"] = statistics.median(q["pandas_s"]) if q["pandas_s"] else None
    q.pop("query_answer", None); q.pop("pandas_answer", None); q.pop("direct_answer", None)
    out["questions"][name] = q
    print(f"bench: {name}: direct {q['direct_median_s']} s, first {q.get('first_s')} s, "
          f"cached {q['query_median_s']} s, pandas {q['pandas_median_s']} s, "
          f"equal {q['answers_equal']}", file=sys.stderr)
req = urllib.request.Request(f"{base}/v1/sessions/{sid}", method="DELETE")
urllib.request.urlopen(req, timeout=60).read()
json.dump(out, sys.stdout, indent=1)
PY

/usr/bin/python3 - "$BUILD" "$CSV_MB" "$CSV_BYTES" "$QREPS" "$PREPS" "$WORK/qvp-result-$CSV_MB.json" "$LOAD_BEFORE" <<'PY'
import datetime, json, os, platform, sys
build, mb, csv_bytes, qreps, preps, res_path, load_before = sys.argv[1:]
load_after = open("/proc/loadavg").read().split()[0]
r = json.load(open(res_path))
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
rows = []
verdicts = []
for name, q in r["questions"].items():
    qs, ps, ds, fs = q["query_median_s"], q["pandas_median_s"], q["direct_median_s"], q.get("first_s")
    pc = q["pandas_compute_s"]
    f = lambda x: f"{x:.2f} s" if x else "—"
    x = lambda a, b: f"{a / b:.1f}x" if a and b else "—"
    rows.append(f"| {name} | {f(ps)} (compute {pc[0]:.2f} s) | {f(ds)} ({x(ps, ds)}) | "
                f"{f(fs)} ({x(ps, fs)}) | {f(qs)} ({x(ps, qs)}) | {q['answers_equal']} |" if ps else
                f"| {name} | failed | {f(ds)} | {f(fs)} | {f(qs)} | {q['answers_equal']} |")
    if name.startswith("Q1") and qs and ps:
        verdicts.append(f"later queries (from the cache) {ps / qs:.1f}x: **{'met' if ps / qs >= 10 else 'not met'}**")
    if name.startswith("Q1") and fs and ps:
        verdicts.append(f"the first query (includes the import) {ps / fs:.1f}x: "
                        f"**{'met' if ps / fs >= 10 else 'not met'}**")
verdict = "; ".join(verdicts) or "— (a side failed)"
errors = {n: q["errors"] for n, q in r["questions"].items() if q["errors"]}
imp = next((q.get("pandas_import_s") for q in r["questions"].values() if q.get("pandas_import_s")), None)
body = f"""
Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC. Machine: {os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}.
Command: `bench/query_vs_pandas.sh {build} {mb} {qreps} {preps}`: one generated CSV of {int(csv_bytes)/1e6:,.0f} MB
(8 columns, incident-call shape as in the catalog benchmark){'' if int(mb) >= 1000 else f" — **{mb} MB, not the issue's 1 GB** (time)"},
the only dataset of a lake; one HTTP session downloads it ({r['download_s']:.1f} s: streamed into the cache,
hashed, hard-linked into the sandbox), then asks each question through `query` — *direct*: `read_csv` with
an explicit option, which the columnar cache leaves alone, so every call parses the CSV (median of {qreps});
*first*: the first call naming the file, which imports it into the columnar cache (ZSTD Parquet, once per file
content; only Q1 pays it); *cached*: later calls (median of {qreps}) — and through
`execute_code` with pandas (`pd.read_csv` of only the needed columns, categories for strings, as an agent
working under the sandbox's 2 GiB address-space cap would; median of {preps}). Times are whole tool
calls seen by the client, so `execute_code` includes the sandbox start and `import pandas` ({imp or 0:.2f} s);
"pandas compute" is the time inside the code after the import. DuckDB runs with the tool's limits (1 GiB
memory, {os.cpu_count()} threads); pandas is single-threaded. 1-minute load average {load_before} before the run,
{load_after} after it (the machine is shared: other work ran at the same time).

In brackets: pandas time / `query` time.

| question | `execute_code` (pandas) | `query` direct | `query` first (with the import) | `query` cached | same answer |
|---|---|---|---|---|---|
""" + "\n".join(rows) + f"""

Target "`query` at least 10x faster than pandas on the 1 GB group-by": {verdict}{'' if int(mb) >= 1000 else f' (on {mb} MB)'}.
Cache states seen by the `query` calls: {json.dumps({n: q["cache_states"] for n, q in r["questions"].items()})}.
The first query is slower than pandas because the import parses the CSV *and* encodes ~200 MB of
Parquet with the same 2 threads (the import alone measured 21–42 s for this file with various Parquet
settings, see docs/sandbox.md, "Columnar cache"); every later query of the file, in any session, is
served from the entry.
""" + (f"\nErrors: {json.dumps(errors)[:1500]}\n" if errors else "")
# Replace only this subsection in place (docs/benchmarks.md is shared).
import re
HEAD = "### query (DuckDB) vs execute_code (pandas)"
doc = open("docs/benchmarks.md").read()
m = re.search(re.escape(HEAD) + r".*?(?=\n##|\Z)", doc, flags=re.S)
new = HEAD + "\n" + body.strip("\n") + "\n"
doc = doc[:m.start()] + new + doc[m.end():] if m else doc.rstrip("\n") + "\n\n" + new
open("docs/benchmarks.md", "w").write(doc)
print(body)
PY
