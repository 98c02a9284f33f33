#!/usr/bin/python3
"""Load client for bench/tools_latency.sh: per-tool latency through `lakeqa serve`, over the HTTP JSON API
(/v1) and MCP streamable HTTP (/mcp), with N concurrent sessions (one thread and one keep-alive connection
each). Standard library only. Every phase is one tool: all sessions call it `calls` times, then a barrier.

Usage: tools_latency_client.py --port P --targets FILE [--sessions 16] [--calls 50] [--exec-calls 3] [--query-calls 5]
                               [--deadline-s 900]
FILE: one `dataset_id<TAB>file_path` per line (CSV files of the lake). Prints one JSON object on stdout.
"""
import argparse
import http.client
import json
import random
import sys
import threading
import socket
import time

TIMEOUT_S = 120
# --quickack: ask the kernel to ACK at once before each response, so a server that writes headers and body in
# two segments without TCP_NODELAY is not stalled by Nagle + delayed ACK (shows the latency after that fix).
QUICKACK = False


class Deadline(Exception):
    pass


class Conn:
    def __init__(self, port):
        self.port = port
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)

    def request(self, method, path, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        h = {"Content-Length": str(len(data) if data else 0)}
        if data is not None:
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        for attempt in (0, 1):  # one reconnect if the server closed an idle keep-alive connection
            try:
                self.c.request(method, path, body=data, headers=h)
                if QUICKACK and self.c.sock is not None:
                    self.c.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
                r = self.c.getresponse()
                raw = r.read()
                return r.status, dict(r.getheaders()), raw
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.c.close()
                self.c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT_S)
                if attempt:
                    raise


class HttpSession:
    proto = "http"

    def __init__(self, port):
        self.conn = Conn(port)
        st, _, raw = self.conn.request("POST", "/v1/sessions")
        assert st == 201, (st, raw[:200])
        self.id = json.loads(raw)["session_id"]

    def call(self, tool, args):
        st, _, raw = self.conn.request("POST", f"/v1/sessions/{self.id}/tools/{tool}", args)
        res = json.loads(raw)
        return st == 200 and "error" not in res, res

    def trace(self):
        st, _, raw = self.conn.request("GET", f"/v1/sessions/{self.id}/trace")
        return json.loads(raw).get("events", []) if st == 200 else []

    def close(self):
        self.conn.request("DELETE", f"/v1/sessions/{self.id}")


class McpSession:
    proto = "mcp"

    def __init__(self, port):
        self.conn = Conn(port)
        self.n = 0
        self.hdr = {"Accept": "application/json, text/event-stream"}
        st, h, raw = self.conn.request("POST", "/mcp", self._msg("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "lakeqa-bench", "version": "1"}}), self.hdr)
        assert st == 200, (st, raw[:200])
        sid = next(v for k, v in h.items() if k.lower() == "mcp-session-id")
        self.hdr = dict(self.hdr, **{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-06-18"})
        st, _, _ = self.conn.request("POST", "/mcp", {"jsonrpc": "2.0", "method": "notifications/initialized"},
                                     self.hdr)
        assert st in (200, 202), st

    def _msg(self, method, params):
        self.n += 1
        return {"jsonrpc": "2.0", "id": self.n, "method": method, "params": params}

    def call(self, tool, args):
        st, _, raw = self.conn.request("POST", "/mcp", self._msg("tools/call", {"name": tool, "arguments": args}),
                                       self.hdr)
        res = json.loads(raw)
        if st != 200 or "error" in res:
            return False, res
        r = res["result"]
        return not r.get("isError", False), r.get("structuredContent", r)

    def close(self):
        self.conn.request("DELETE", "/mcp", None, self.hdr)


def pct(xs, p):
    if not xs:
        return None
    xs = sorted(xs)
    k = max(0, min(len(xs) - 1, int(round(p / 100.0 * len(xs) + 0.5)) - 1))  # nearest-rank
    return xs[k]


def summarize(lat_ms, errors):
    return {"n": len(lat_ms), "errors": errors, "p50_ms": pct(lat_ms, 50), "p99_ms": pct(lat_ms, 99),
            "mean_ms": (sum(lat_ms) / len(lat_ms)) if lat_ms else None, "max_ms": max(lat_ms) if lat_ms else None}


def make_args(tool, rnd, targets, words, session_files):
    ds, fp = rnd.choice(targets)
    if tool == "search":
        return {"prefix": ds[:3]}
    if tool == "search_keyword":
        return {"keyword": rnd.choice(words)}
    if tool == "list_files":
        return {"dataset_id": ds}
    if tool == "inspect_file":
        return {"dataset_id": ds, "file_path": fp}
    if tool == "download":
        return {"dataset_id": ds, "file_path": fp}
    if tool == "get_sandbox_info":
        return {}
    if tool == "query":
        rel = rnd.choice(session_files)
        return {"sql": f"SELECT count(*) AS n FROM read_csv('{rel}')"}
    if tool == "execute_code":
        return {"code": "print(1)"}
    raise ValueError(tool)


TOOLS = ["search", "search_keyword", "list_files", "inspect_file", "download", "get_sandbox_info", "query",
         "execute_code"]


def run_proto(cls, port, targets, words, sessions, calls, exec_calls, query_calls, deadline):
    lat = {t: [] for t in TOOLS}
    errs = {t: 0 for t in TOOLS}
    err_samples = {}
    server_ms = {t: [] for t in TOOLS}
    lock = threading.Lock()
    barrier = threading.Barrier(sessions)
    failures = []

    def worker(i):
        rnd = random.Random(1000 + i)
        try:
            s = cls(port)
            # Each session first downloads 3 files so that `query` and `get_sandbox_info` have something to see.
            files = []
            for _ in range(3):
                ds, fp = rnd.choice(targets)
                ok, res = s.call("download", {"dataset_id": ds, "file_path": fp})
                if ok:
                    files += [d["relative_path"] for d in res["downloaded"]]
            if not files:
                raise RuntimeError("no file downloaded")
            for tool in TOOLS:
                barrier.wait(timeout=TIMEOUT_S * 4)
                n = {"execute_code": exec_calls, "query": query_calls}.get(tool, calls)
                for _ in range(n):
                    if time.monotonic() > deadline:
                        raise Deadline()
                    a = make_args(tool, rnd, targets, words, files)
                    t0 = time.perf_counter()
                    ok, res = s.call(tool, a)
                    dt = (time.perf_counter() - t0) * 1000
                    with lock:
                        if ok:
                            lat[tool].append(dt)
                        else:
                            errs[tool] += 1
                            err_samples.setdefault(tool, json.dumps(res)[:300])
            if cls is HttpSession:
                ev = s.trace()
                with lock:
                    for e in ev:
                        if e.get("tool") in server_ms and e.get("status") == "ok":
                            server_ms[e["tool"]].append(float(e.get("elapsed_ms", 0)))
            s.close()
        except Exception as e:  # noqa: BLE001 - reported, never hidden
            barrier.abort()
            with lock:
                failures.append(f"session {i}: {type(e).__name__}: {e}")

    t0 = time.perf_counter()
    th = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(sessions)]
    for t in th:
        t.start()
    for t in th:
        t.join(max(1, deadline - time.monotonic()))
    out = {"wall_s": time.perf_counter() - t0, "failures": failures[:5], "error_samples": err_samples,
           "tools": {t: summarize(lat[t], errs[t]) for t in TOOLS}}
    if cls is HttpSession:
        out["server_tools"] = {t: summarize(server_ms[t], 0) for t in TOOLS}
    return out


def sandbox_start(port, n):
    """execute_code `print(1)` in one session, one call at a time: the sandbox start cost without contention."""
    s = HttpSession(port)
    lat, srv = [], []
    for _ in range(n):
        t0 = time.perf_counter()
        ok, res = s.call("execute_code", {"code": "print(1)"})
        dt = (time.perf_counter() - t0) * 1000
        if ok and res.get("output", "").strip() == "1":
            lat.append(dt)
            srv.append(float(res.get("elapsed_ms", 0)))
    s.close()
    return {"client": summarize(lat, n - len(lat)), "server_elapsed": summarize(srv, 0)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--targets", required=True)
    ap.add_argument("--sessions", type=int, default=16)
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--exec-calls", type=int, default=3)
    ap.add_argument("--query-calls", type=int, default=5)
    ap.add_argument("--sandbox-calls", type=int, default=20)
    ap.add_argument("--deadline-s", type=float, default=900)
    ap.add_argument("--quickack", action="store_true", help="also run the HTTP phase with TCP_QUICKACK")
    a = ap.parse_args()
    targets = [tuple(l.rstrip("\n").split("\t", 1)) for l in open(a.targets) if "\t" in l]
    words = sorted({w for ds, _ in targets for w in ds.split("-") if w.isalpha() and len(w) > 3})
    deadline = time.monotonic() + a.deadline_s
    out = {"sessions": a.sessions, "calls_per_session": a.calls, "exec_calls_per_session": a.exec_calls,
           "query_calls_per_session": a.query_calls,
           "targets": len(targets), "keywords": len(words)}
    out["sandbox_start"] = sandbox_start(a.port, a.sandbox_calls)
    out["http"] = run_proto(HttpSession, a.port, targets, words, a.sessions, a.calls, a.exec_calls, a.query_calls, deadline)
    out["mcp"] = run_proto(McpSession, a.port, targets, words, a.sessions, a.calls, a.exec_calls, a.query_calls, deadline)
    if a.quickack:
        global QUICKACK
        QUICKACK = True
        out["http_quickack"] = run_proto(HttpSession, a.port, targets, words, a.sessions, a.calls, a.exec_calls,
                                         a.query_calls, deadline)
        out["mcp_quickack"] = run_proto(McpSession, a.port, targets, words, a.sessions, a.calls, a.exec_calls,
                                        a.query_calls, deadline)
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
