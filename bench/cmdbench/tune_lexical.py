#!/usr/bin/env python3
"""Tunes the lexical router's thresholds (docs/cmdbench.md, "Routers") on a development question set.

Usage: bench/cmdbench/tune_lexical.py <dev.json> [<held-out.json>...]
where each file is the --json output of
  lakeqa eval cmdbench --task source --router lexical --questions <questions> --index <index> --json
(the per-source scores in each row do not depend on the thresholds). A grid of 0, 0.05, ..., 1 per source;
the best macro F1 on the first file wins, ties going to the lowest thresholds (more recall); the others are
scored with the chosen thresholds.
"""
import json
import sys

CLASSES = ("graph", "doc", "table")


def macro_f1(rows, th):
    tp = {c: 0 for c in CLASSES}
    fp, fn = dict(tp), dict(tp)
    for r in rows:
        sc = {c: r["detail"][c]["score"] for c in CLASSES}
        best = max(CLASSES, key=lambda c: sc[c])  # the router always keeps its best source
        pred = {c for c in CLASSES if sc[c] >= th[c]} | {best}
        gold = set(r["gold"])
        for c in CLASSES:
            if c in pred and c in gold:
                tp[c] += 1
            elif c in pred:
                fp[c] += 1
            elif c in gold:
                fn[c] += 1
    per = {}
    for c in CLASSES:
        p = tp[c] / (tp[c] + fp[c]) if tp[c] + fp[c] else 0.0
        r = tp[c] / (tp[c] + fn[c]) if tp[c] + fn[c] else 0.0
        per[c] = 2 * p * r / (p + r) if p + r else 0.0
    return sum(per.values()) / 3, per


def main():
    dev = json.load(open(sys.argv[1]))["per_question"]
    grid = [i / 20 for i in range(21)]
    best = max((macro_f1(dev, {"doc": d, "table": t, "graph": g})[0], -(d + t + g), (d, t, g))
               for d in grid for t in grid for g in grid)
    d, t, g = best[2]
    th = {"doc": d, "table": t, "graph": g}
    print(f"thresholds doc {d} table {t} graph {g}: dev macro F1 {100 * best[0]:.2f}")
    for f in sys.argv[2:]:
        m, per = macro_f1(json.load(open(f))["per_question"], th)
        print(f"{f}: macro F1 {100 * m:.2f} " + " ".join(f"{c} {100 * per[c]:.2f}" for c in CLASSES))


if __name__ == "__main__":
    main()
