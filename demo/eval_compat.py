#!/usr/bin/python3
"""Stopgap until `lakeqa eval` reads what `lakeqa run` writes: copies a run folder to <out> with
predictions.jsonl mapped to the fields src/eval/score.cc expects (status answered -> ok, max_turns /
token_limit / cost_limit -> turn_limit, error -> crashed; elapsed_s -> runtime_s; usage -> tokens), and the prediction's
returned/accessed dataset ids put on the task's first trace event (eval reads them from traces).
Usage: eval_compat.py <run> <out>"""
import json, os, shutil, sys
run, out = sys.argv[1], sys.argv[2]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
for name in ("traces",):
    if os.path.isdir(os.path.join(run, name)): shutil.copytree(os.path.join(run, name), os.path.join(out, name))
if os.path.exists(os.path.join(run, "run.json")): shutil.copyfile(os.path.join(run, "run.json"), os.path.join(out, "run.json"))
STATUS = {"answered": "ok", "max_turns": "turn_limit", "token_limit": "turn_limit", "cost_limit": "turn_limit",
          "timeout": "timeout", "error": "crashed", "crashed": "crashed"}
with open(os.path.join(run, "predictions.jsonl")) as f, open(os.path.join(out, "predictions.jsonl"), "w") as g:
    for line in f:
        if not line.strip(): continue
        p = json.loads(line)
        p["status"] = STATUS.get(p.get("status"), p.get("status"))
        if "elapsed_s" in p: p["runtime_s"] = p["elapsed_s"]
        u = p.get("usage") or {}
        p["tokens"] = {"input": u.get("input_tokens", 0), "output": u.get("output_tokens", 0), "cache_read": u.get("cache_read_tokens", 0)}
        g.write(json.dumps(p) + "\n")
        # The run keeps D_ret/D_acc per task in the prediction; eval reads them per trace event.
        tp = os.path.join(out, "traces", p["task_id"] + ".jsonl")
        if os.path.exists(tp):
            ev = [json.loads(l) for l in open(tp) if l.strip()]
            if ev and not any("returned" in e or "accessed" in e for e in ev):
                ev[0]["returned"] = p.get("returned", []); ev[0]["accessed"] = p.get("accessed", [])
                open(tp, "w").write("".join(json.dumps(e) + "\n" for e in ev))
