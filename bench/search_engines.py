#!/usr/bin/env python3
"""Markdown summary of bench/search_engines.sh results: search_engines.py <work dir> <corpus> <engines...>."""
import json
import sys

work, corpus, engines = sys.argv[1], sys.argv[2], sys.argv[3:]
res = {}
top = {}
for e in engines:
    try:
        res[e] = json.load(open(f"{work}/{corpus}-{e}.json"))
    except FileNotFoundError:
        continue
    top[e] = [line.rstrip("\n").split("\t")[1].split() if "\t" in line else []
              for line in open(f"{work}/{corpus}-{e}.top10")]
engines = [e for e in engines if e in res]
if not engines:
    sys.exit(f"no results for {corpus} in {work}")
r0 = res[engines[0]]
print(f"Corpus: {r0['corpus']}: {r0['docs']:,} documents, {r0['text_bytes'] / 1e6:.0f} MB of field text.\n")
classes = [(k, t) for k in (10, 100) for t in (1, 2, 5)]
hdr = ["engine", "index docs/s", "index MB", "peak RSS MB"] + [f"top-{k} {t}-term p50 / p99 ms" for k, t in classes] + ["load before / after"]
print("| " + " | ".join(hdr) + " |")
print("|" + "---|" * len(hdr))
for e in engines:
    r = res[e]
    row = [e, f"{r['docs_per_s']:,.0f}", f"{r['index_bytes'] / 1e6:,.0f}", f"{r['peak_rss_kb'] / 1024:,.0f}"]
    for k, t in classes:
        l = r["latency_us"].get(f"top{k}_{t}term")
        row.append(f"{l['p50'] / 1000:.2f} / {l['p99'] / 1000:.2f}" if l else "–")
    row.append(f"{r.get('load_before', '?')} / {r.get('load_after', '?')}")
    print("| " + " | ".join(row) + " |")
q = res[engines[0]]["latency_us"]
counts = ", ".join("%d %s" % (v["queries"], k[6:]) for k, v in q.items() if k.startswith("top10_"))
print(f"\nQueries: {counts} (the same words for every engine, each list run at top-10 and at top-100 "
      "after 10 warm-up queries).")
if "lakeqa" in res:
    L = res["lakeqa"]
    for e in engines:
        if e == "lakeqa":
            continue
        o = res[e]
        parts = [f"indexing {L['docs_per_s'] / o['docs_per_s']:.2f}x {e}'s throughput"]
        for t in (1, 2, 5):
            a, b = L["latency_us"].get(f"top10_{t}term"), o["latency_us"].get(f"top10_{t}term")
            if a and b:
                parts.append(f"top-10 {t}-term p50 {a['p50'] / b['p50']:.3f}x {e}'s")
        print(f"\nlakeqa vs {e}: " + "; ".join(parts) + ".")
print("\nTop-10 overlap (mean |A ∩ B| / max(|A|, |B|) over all 1-, 2- and 5-term queries):\n")
for i, a in enumerate(engines):
    for b in engines[i + 1:]:
        n = min(len(top[a]), len(top[b]))
        tot = 0.0
        for x, y in zip(top[a][:n], top[b][:n]):
            d = max(len(x), len(y))
            tot += len(set(x) & set(y)) / d if d else 1.0
        print(f"- {a} / {b}: {tot / max(1, n):.2f}")
