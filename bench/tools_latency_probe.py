#!/usr/bin/python3
"""Where the time of one tool call goes, without client-side contention: one HTTP session and one MCP session,
one call at a time, `calls` calls each of search / list_files / inspect_file against a running `lakeqa serve`.
For HTTP it prints the client p50 next to the server's own `elapsed_ms` (session trace) p50; the difference is
HTTP + JSON + Python client time. Standard library only; reuses tools_latency_client's sessions and arguments.
Usage: tools_latency_probe.py --port P --targets FILE [--calls 100]
"""
import argparse
import json
import random
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import tools_latency_client as c  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--targets", required=True)
ap.add_argument("--calls", type=int, default=100)
a = ap.parse_args()
targets = [tuple(l.rstrip("\n").split("\t", 1)) for l in open(a.targets) if "\t" in l]
out = {}
for cls in (c.HttpSession, c.McpSession):
    s = cls(a.port)
    rnd = random.Random(1)
    for tool in ("search", "list_files", "inspect_file"):
        lat = []
        for _ in range(a.calls):
            args = c.make_args(tool, rnd, targets, ["data"], [])
            t = time.perf_counter()
            ok, _ = s.call(tool, args)
            lat.append((time.perf_counter() - t) * 1000)
        out.setdefault(cls.proto, {})[tool] = {"client_p50_ms": c.pct(lat, 50), "client_p99_ms": c.pct(lat, 99)}
    if cls is c.HttpSession:
        srv = {}
        for e in s.trace():
            srv.setdefault(e.get("tool"), []).append(float(e.get("elapsed_ms", 0)))
        for tool, xs in srv.items():
            if tool in out["http"]:
                out["http"][tool]["server_p50_ms"] = c.pct(xs, 50)
    s.close()
print(json.dumps(out))
