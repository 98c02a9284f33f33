#!/usr/bin/env python3
"""Search quality of lakeqa against other engines on the same documents and the same questions.

    relevance_engines.py --lakeqa BIN --work DIR --collection NAME:INDEX:KIND:PATH [...]
        [--cmdbench-tables DIR] [--engines bm25-plain,xapian,fts5,lucene,paper-bm25] [--glove FILE]

KIND is cmdbench (a q_table JSON file), lakeqa (a folder of LakeQA tasks) or kramabench (workload JSON files
of a KramaBench checkout, comma-separated). For every collection the script runs `lakeqa eval discovery
--json` once: its questions and gold datasets (lakeqa's own resolution of the collection, e.g. KramaBench's
data_sources globs) and its ranking are what every engine is scored on. It reads the index's documents
(`lakeqa index docs`: exactly what lakeqa searches) and the index's ranking (field weights, b, k1), then
ranks them with
  - bm25-plain: BM25 (k1 1.2, b 0.75) written here, over title + description + column names, lower-cased
    words, English stop words removed, each distinct query word counted once (the baseline of issue 13);
  - xapian: Xapian's BM25 over every text field (title words counted 3 times), English stemmer;
  - fts5: SQLite FTS5, one column per field, bm25() with lakeqa's default field weights, porter stemmer;
  - lucene: Lucene 8 (BM25Similarity, EnglishAnalyzer) with the same fields and weights (relevance_baselines.py);
  - paper-bm25: the CMDBench paper's retriever, rank_bm25's BM25Okapi over LlamaIndex table node text
    (relevance_baselines.py; with --cmdbench-tables, CMDBench nodes come from the lake's own SQL dumps);
all with the query's stop words removed (paper-bm25: NLTK's, as LlamaIndex); and lakeqa in each mode.
Prints one Markdown table (P@1 / R@5 / MRR / nDCG@10 per engine and collection) and writes it, with the
command, to DIR/relevance.md.
"""
import argparse
import json
import math
import os
import re
import sqlite3
import subprocess
import sys
from collections import Counter, defaultdict

from relevance_baselines import Lucene, PaperBM25

# A common English stop list (the words of the NLTK list), for the competitors' queries and the plain BM25.
STOP = set("""a about above after again against all am an and any are as at be because been before being below
between both but by can did do does doing don down during each few for from further had has have having he her
here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of
off on once only or other our ours ourselves out over own same she should so some such than that the their theirs
them themselves then there these they this those through to too under until up very was we were what when where
which while who whom why will with you your yours yourself yourselves can could would tell list identify
calculate many much""".split())


def words(text):
    return re.findall(r"[0-9a-z]+", text.lower())


def query_words(text):
    seen, out = set(), []
    for w in words(text):
        if w not in STOP and w not in seen:
            seen.add(w)
            out.append(w)
    return out


def load_docs(lakeqa, index):
    out = subprocess.run([lakeqa, "index", "docs", "--index", index], check=True, capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def field(doc, name):
    return " ".join(doc["fields"].get(name, []))


class PlainBM25:
    def __init__(self, docs, k1=1.2, b=0.75):
        self.ids = [d["id"] for d in docs]
        self.tfs = [Counter(words(" ".join([field(d, "title"), field(d, "description"), field(d, "columns")])))
                    for d in docs]
        self.lens = [sum(t.values()) for t in self.tfs]
        self.avg = sum(self.lens) / max(1, len(self.lens))
        self.df = Counter(w for t in self.tfs for w in t)
        self.k1, self.b, self.n = k1, b, len(docs)

    def search(self, text, k):
        scores = defaultdict(float)
        for w in query_words(text):
            df = self.df.get(w, 0)
            if df == 0:
                continue
            idf = math.log(1 + (self.n - df + 0.5) / (df + 0.5))
            for i, t in enumerate(self.tfs):
                tf = t.get(w, 0)
                if tf:
                    norm = self.k1 * (1 - self.b + self.b * self.lens[i] / self.avg)
                    scores[i] += idf * tf * (self.k1 + 1) / (tf + norm)
        ranked = sorted(scores.items(), key=lambda x: (-x[1], self.ids[x[0]]))
        return [self.ids[i] for i, _ in ranked[:k]]


FIELDS = ["title", "description", "tags", "theme", "columns", "values", "content", "coverage"]
FTS_WEIGHTS = [3.0, 1.0, 2.0, 1.5, 1.0, 1.0, 0.3, 1.0]


class Fts5:
    def __init__(self, docs):
        self.db = sqlite3.connect(":memory:")
        cols = ", ".join(FIELDS)
        self.db.execute(f"CREATE VIRTUAL TABLE d USING fts5(id UNINDEXED, {cols}, "
                        "tokenize='porter unicode61 remove_diacritics 2')")
        self.db.executemany(f"INSERT INTO d VALUES ({', '.join('?' * (len(FIELDS) + 1))})",
                            [[d["id"]] + [field(d, f) for f in FIELDS] for d in docs])

    def search(self, text, k):
        ws = query_words(text)
        if not ws:
            return []
        match = " OR ".join('"' + w + '"' for w in ws)
        weights = ", ".join(str(w) for w in FTS_WEIGHTS)
        rows = self.db.execute(f"SELECT id, bm25(d, 0, {weights}) AS s FROM d WHERE d MATCH ? ORDER BY s, id LIMIT ?",
                               (match, k)).fetchall()
        return [r[0] for r in rows]


class XapianEngine:
    def __init__(self, docs):
        import xapian
        self.x = xapian
        self.db = xapian.WritableDatabase("", xapian.DB_BACKEND_INMEMORY)
        tg = xapian.TermGenerator()
        tg.set_stemmer(xapian.Stem("english"))
        for d in docs:
            doc = xapian.Document()
            tg.set_document(doc)
            for f in FIELDS:
                tg.index_text(field(d, f), 3 if f == "title" else 1)
                tg.increase_termpos()
            doc.set_data(d["id"])
            self.db.add_document(doc)
        self.stem = xapian.Stem("english")

    def search(self, text, k):
        x = self.x
        terms = [x.Query("Z" + self.stem(w).decode()) for w in query_words(text)]
        if not terms:
            return []
        enq = x.Enquire(self.db)
        enq.set_query(x.Query(x.Query.OP_OR, terms))
        enq.set_weighting_scheme(x.BM25Weight())
        hits = [(m.weight, m.document.get_data().decode()) for m in enq.get_mset(0, max(k, 50))]
        hits.sort(key=lambda h: (-h[0], h[1]))
        return [h[1] for h in hits[:k]]


def metrics(ranked, gold):
    """P@1, R@5, MRR and nDCG@10 (binary gains) at depth 10, as `lakeqa eval discovery` computes them."""
    g = set(gold)
    if not g:
        return 0.0, 0.0, 0.0, 0.0
    ranked = ranked[:10]
    p1 = 1.0 if ranked and ranked[0] in g else 0.0
    r5 = len(g & set(ranked[:5])) / len(g)
    mrr = next((1.0 / (i + 1) for i, d in enumerate(ranked) if d in g), 0.0)
    dcg = sum(1.0 / math.log2(i + 2) for i, d in enumerate(ranked) if d in g)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(g), 10)))
    return p1, r5, mrr, dcg / ideal


METRICS = ("p@1", "r@5", "mrr", "ndcg@10")


def lakeqa_discovery(lakeqa, index, kind, path, mode, glove):
    """`lakeqa eval discovery --json` on the collection: its per-question questions, gold and top-10."""
    args = [lakeqa, "eval", "discovery", "--index", index, "--mode", mode, "--json"]
    if kind == "cmdbench":
        args += ["--questions", path]
    elif kind == "kramabench":
        args += ["--tasks"] + path.split(",") + ["--skip-bad-tasks"]
    else:
        args += ["--tasks", path]
    if mode != "bm25":
        args += ["--glove", glove]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"lakeqa eval discovery failed: {' '.join(args)}\n{out.stdout}{out.stderr}")
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lakeqa", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--glove", default="")
    ap.add_argument("--cmdbench-tables", default="", help="CMDBench's tables/ folder: paper-bm25's node text")
    ap.add_argument("--engines", default="bm25-plain,xapian,fts5,lucene,paper-bm25")
    ap.add_argument("--collection", action="append", required=True, help="NAME:INDEX:KIND:PATH")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    engines = a.engines.split(",")
    modes = ["bm25", "vector", "hybrid"] if a.glove else ["bm25"]
    built = {}
    rows = []
    for spec in a.collection:
        name, index, kind, path = spec.split(":", 3)
        runs = {m: lakeqa_discovery(a.lakeqa, index, kind, path, m, a.glove) for m in modes}
        base = runs["bm25"]
        qs = [(q["qid"], q["question"], q["gold"]) for q in base["per_question"] if q["gold"]]
        key = (index, kind)
        if key not in built:
            docs = load_docs(a.lakeqa, index)
            made = {"docs": len(docs)}
            for e in engines:
                if e == "bm25-plain":
                    made[e] = PlainBM25(docs)
                elif e == "xapian":
                    made[e] = XapianEngine(docs)
                elif e == "fts5":
                    made[e] = Fts5(docs)
                elif e == "lucene":
                    made[e] = Lucene(docs, base["ranking"], os.path.join(a.work, name))
                elif e == "paper-bm25":
                    made[e] = PaperBM25(docs, a.cmdbench_tables if kind == "cmdbench" and a.cmdbench_tables else None)
                else:
                    sys.exit(f"unknown engine {e}")
            built[key] = made
        row = {"collection": name, "questions": len(qs), "docs": built[key]["docs"]}
        for e in engines:
            eng = built[key][e]
            if hasattr(eng, "rank_all"):
                ranked = eng.rank_all(qs, 10, lambda q: " ".join(query_words(q)))
            else:
                ranked = [eng.search(q, 10) for _, q, _ in qs]
            m = [metrics(r, gold) for r, (_, _, gold) in zip(ranked, qs)]
            row[e] = tuple(sum(x[i] for x in m) / max(1, len(m)) for i in range(4))
        for mode, run in runs.items():
            per = [q for q in run["per_question"] if q["gold"]]
            m = [metrics([t["id"] for t in q["top"]], q["gold"]) for q in per]
            mine = tuple(sum(x[i] for x in m) / max(1, len(m)) for i in range(4))
            # The same formulas as lakeqa's own: its overall figures must agree (questions without gold aside).
            theirs = tuple(run["overall"][k] for k in METRICS)
            if len(per) == len(run["per_question"]) and any(abs(x - y) > 1e-6 for x, y in zip(mine, theirs)):
                sys.exit(f"{name} {mode}: metrics here {mine} differ from lakeqa's {theirs}")
            row["lakeqa " + mode] = mine
        rows.append(row)
    cols = engines + ["lakeqa " + m for m in modes]
    lines = ["| collection (questions / datasets) | " + " | ".join(cols) + " | lakeqa bm25 − best other |",
             "|---|" + "---|" * (len(cols) + 1)]
    for r in rows:
        best = [max(r[e][i] for e in engines) for i in range(4)]
        lq = r["lakeqa bm25"]
        cells = [" / ".join(f"{v:.3f}" for v in r[c]) for c in cols]
        delta = " / ".join(f"{100 * (lq[i] - best[i]):+.1f}" for i in range(4))
        lines.append(f"| {r['collection']} ({r['questions']} / {r['docs']}) | " + " | ".join(cells) + f" | {delta} |")
    lines.append("")
    lines.append("Cells: P@1 / R@5 / MRR / nDCG@10 (depth 10). Last column: lakeqa bm25 minus the best of "
                 + ", ".join(engines) + ", in points.")
    lines.append("")
    lines.append("Command: `" + " ".join(sys.argv) + "`; load average at the end: "
                 + " ".join(f"{x:.2f}" for x in os.getloadavg()) + ".")
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(a.work, "relevance.md"), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
