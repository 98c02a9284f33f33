#!/usr/bin/python3
"""Hits a model sees per search under the paper's protocol (docs/tools.md, "What the model sees").

Runs `lakeqa mcp` over stdio, calls search_keyword (and search, for prefixes) with each query in the full
view and in the compact view, and cuts each result's JSON text as the paper's runner does (over 4,000
characters: the first 2,500 and the last 1,000). A hit counts as visible when its id is inside the first
2,500 characters (the head the cut keeps; with no cut, the whole text). Standard library only.

Usage: model_view.py LAKEQA --index DIR --lake DIR [--limit 20] KEYWORDS... [--prefix P ...]
KEYWORDS: one query per argument, words separated by spaces ("police stops").
Prints one JSON object: per query, hits returned, characters and hits visible in each view, and the means.
"""
import argparse
import json
import subprocess
import sys

HEAD, CUT_ABOVE = 2500, 4000


def rpc(proc, msg_id, method, params):
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}) + "\n")
    proc.stdin.flush()
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit("lakeqa mcp ended: " + proc.stderr.read()[-2000:])
        reply = json.loads(line)
        if reply.get("id") == msg_id:
            return reply


def call(proc, msg_id, tool, args):
    reply = rpc(proc, msg_id, "tools/call", {"name": tool, "arguments": args})
    if "error" in reply:
        sys.exit(f"{tool} {args}: {reply['error']}")
    result = reply["result"]
    structured = result.get("structuredContent")
    if structured is None:
        structured = json.loads(result["content"][0]["text"])
    return structured


def compact_json(j):
    # The llm agent serialises a result as compact JSON with UTF-8 kept (lakeqa's DumpJson).
    return json.dumps(j, separators=(",", ":"), ensure_ascii=False)


def visible(text, ids):
    head = text if len(text) <= CUT_ABOVE else text[:HEAD]
    return sum(1 for i in ids if i in head)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lakeqa")
    ap.add_argument("--index", required=True)
    ap.add_argument("--lake", required=True)
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--prefix", action="append", default=[])
    ap.add_argument("queries", nargs="*")
    a = ap.parse_args()
    proc = subprocess.Popen([a.lakeqa, "mcp", "--index", a.index, "--lake", a.lake], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rpc(proc, 1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "model_view.py", "version": "1"}})
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    proc.stdin.flush()
    rows, n = [], 10
    calls = [("search_keyword", {"keywords": q.split(), "limit": a.limit}) for q in a.queries]
    calls += [("search", {"prefixes": [p]}) for p in a.prefix]
    for tool, args in calls:
        full = call(proc, n, tool, args)
        compact = call(proc, n + 1, tool, dict(args, view="compact"))
        n += 2
        ids = [r["id"] for r in full.get("results", [])]
        ft, ct = compact_json(full), compact_json(compact)
        rows.append({"tool": tool, "arguments": args, "hits": len(ids),
                     "full_chars": len(ft), "full_visible": visible(ft, ids),
                     "compact_chars": len(ct), "compact_visible": visible(ct, ids)})
    proc.stdin.close()
    proc.wait(timeout=30)
    kw = [r for r in rows if r["tool"] == "search_keyword"]
    mean = lambda k: round(sum(r[k] for r in kw) / len(kw), 1) if kw else None
    print(json.dumps({"calls": rows, "search_keyword_mean": {"hits": mean("hits"),
                                                            "full_visible": mean("full_visible"),
                                                            "compact_visible": mean("compact_visible")}},
                     indent=1))


if __name__ == "__main__":
    main()
