#!/usr/bin/env python3
"""Tunes a source router's free parameter on a collection of questions someone else wrote (docs/cmdbench.md,
"Routers"): the lexical router's three thresholds, or the embedding router's margin.

Usage: bench/cmdbench/tune_lexical.py [--router lexical|embedding] <tuning.json> [<other.json>...]
where each file is the --json output of
  lakeqa eval cmdbench --task source --router lexical|embedding --questions <questions>... --index <index> --json
(the per-source scores in each row do not depend on the thresholds or the margin).
lexical: a grid of 0, 0.05, ..., 1 per source; the router always keeps its best source.
embedding: margins 0, 0.005, ..., 0.3; a source is kept when its similarity is within the margin of the best.
The best macro F1 on the first file wins (with --mean: the mean macro F1 over every file given, e.g. one run
per summary source), ties going to the lowest thresholds (more recall) or the smallest margin; every file is
then scored with the chosen setting and with the current defaults.
"""
import argparse
import json

CLASSES = ("graph", "doc", "table")
LEXICAL_DEFAULTS = {"doc": 0.05, "table": 0.0, "graph": 0.1}  # include/lakeqa/cmdbench/source_router.h
EMBEDDING_DEFAULT = 0.175  # kDefaultEmbeddingMargin


def scores(rows):
    """Macro F1 and per-class F1 of rows whose "predicted" is a set, as eval::ScoreSourceSelection."""
    tp = {c: 0 for c in CLASSES}
    fp, fn = dict(tp), dict(tp)
    for gold, pred in rows:
        for c in CLASSES:
            if c in pred and c in gold:
                tp[c] += 1
            elif c in pred:
                fp[c] += 1
            elif c in gold:
                fn[c] += 1
    per = {}
    for c in CLASSES:
        per[c] = 2 * tp[c] / (2 * tp[c] + fp[c] + fn[c]) if 2 * tp[c] + fp[c] + fn[c] else 0.0
    return sum(per.values()) / 3, per


def lexical(rows, th):
    out = []
    for r in rows:
        sc = {c: r["detail"][c]["score"] for c in CLASSES}
        best = max(CLASSES, key=lambda c: sc[c])
        out.append((set(r["gold"]), {c for c in CLASSES if sc[c] >= th[c]} | {best}))
    return scores(out)


def embedding(rows, margin):
    out = []
    for r in rows:
        sim = {c: r["detail"][c]["similarity"] for c in CLASSES if r["detail"].get(c)}
        best = max(sim.values())
        out.append((set(r["gold"]), {c for c in sim if sim[c] >= best - margin}))
    return scores(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--router", default="lexical", choices=("lexical", "embedding"))
    ap.add_argument("--mean", action="store_true", help="tune on the mean macro F1 over every file")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    data = [json.load(open(f))["per_question"] for f in a.files]
    tuned = data if a.mean else data[:1]
    on = "the mean over every file" if a.mean else a.files[0]
    if a.router == "lexical":
        grid = [i / 20 for i in range(21)]
        best = max((sum(lexical(x, {"doc": d, "table": t, "graph": g})[0] for x in tuned) / len(tuned),
                    -(d + t + g), (d, t, g))
                   for d in grid for t in grid for g in grid)
        d, t, g = best[2]
        chosen, current = {"doc": d, "table": t, "graph": g}, LEXICAL_DEFAULTS
        fn = lexical
        print(f"thresholds doc {d} table {t} graph {g}: macro F1 {100 * best[0]:.2f} on {on}")
    else:
        grid = [i / 200 for i in range(61)]
        best = max((sum(embedding(x, m)[0] for x in tuned) / len(tuned), -m) for m in grid)
        chosen, current = -best[1], EMBEDDING_DEFAULT
        fn = embedding
        print(f"margin {chosen}: macro F1 {100 * best[0]:.2f} on {on}")
    for f, rows in zip(a.files, data):
        for name, setting in (("chosen", chosen), ("current", current)):
            m, per = fn(rows, setting)
            print(f"{f} ({name} {setting}): macro F1 {100 * m:.2f} " + " ".join(f"{c} {100 * per[c]:.2f}" for c in CLASSES))


if __name__ == "__main__":
    main()
