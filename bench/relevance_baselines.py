"""Two baselines for bench/relevance_engines.py (issue 25): Lucene, what most users would reach for, and the
CMDBench paper's own table retriever.

- Lucene: bench/lucene/LuceneBench.java (Lucene 8 from Debian's liblucene8-java, BM25Similarity with each
  field's b and the index's k1, EnglishAnalyzer), the same documents (`lakeqa index docs`), the same text
  fields and field weights as the lakeqa index's manifest, a query ORing every term in every field boosted by
  the field's weight. Run once per collection in one JVM.
- paper-bm25: BM25Okapi as the rank_bm25 package computes it (k1 1.5, b 0.75, epsilon 0.25: an idf of
  log((N - n + 0.5) / (n + 0.5)), negative ones replaced by epsilon times the mean idf; query terms counted as
  often as they occur), written here from its formula, over LlamaIndex's table node text: "Schema of table
  <name>:" with the table's columns, then "Context of table <name>:" and the context JSON, tokenized as
  LlamaIndex's BM25 retriever does (lower-case \\w+ words, NLTK's English stop words dropped, NLTK's Porter
  stemmer). For CMDBench the node text is built from the lake's sources (the pg_dump's columns and
  metadata.nba_context's doc JSON, as the paper's SQL database held them); elsewhere from the lakeqa document
  (columns, and the other fields as the context JSON).
"""
import json
import math
import os
import re
import subprocess
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))

# NLTK's English stop words (nltk.corpus.stopwords.words("english"), 179 words), which LlamaIndex removes.
NLTK_STOP = set("""i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
yourselves he him his himself she she's her hers herself it it's its itself they them their theirs themselves
what which who whom this that that'll these those am is are was were be been being have has had having do does
did doing a an the and but if or because as until while of at by for with about against between into through
during before after above below to from up down in out on off over under again further then once here there
when where why how all any both each few more most other some such no nor not only own same so than too very s
t can will just don don't should should've now d ll m o re ve y ain aren aren't couldn couldn't didn didn't
doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't mustn mustn't needn needn't
shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn wouldn't""".split())


def _porter():
    try:
        from nltk.stem import PorterStemmer
    except ImportError:
        subprocess.run(["apt-get", "install", "-y", "python3-nltk"], check=True, stdout=subprocess.DEVNULL)
        from nltk.stem import PorterStemmer
    return PorterStemmer()


class Lucene:
    name = "lucene"

    def __init__(self, docs, ranking, work):
        self.work = os.path.join(work, "lucene")
        os.makedirs(self.work, exist_ok=True)
        self.cp = subprocess.run([os.path.join(HERE, "lucene", "build.sh"), os.path.join(self.work, "classes")],
                                 check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
        fields = ranking["fields"]
        with open(os.path.join(self.work, "params.tsv"), "w") as f:
            f.write(f"k1\t{ranking['k1']}\n")
            for name, p in sorted(fields.items()):
                f.write(f"field\t{name}\t{p['weight']}\t{p['b']}\n")
        clean = lambda s: " ".join(str(s).split())
        with open(os.path.join(self.work, "docs.tsv"), "w") as f:
            for d in docs:
                cells = [d["id"]]
                for name, values in d["fields"].items():
                    if name in fields:
                        for v in values:
                            cells += [name, clean(v)]
                f.write("\t".join(cells) + "\n")

    def rank_all(self, questions, k, query_text):
        qpath, opath = os.path.join(self.work, "queries.tsv"), os.path.join(self.work, "ranked.tsv")
        with open(qpath, "w") as f:
            for i, (_, q, _) in enumerate(questions):
                f.write(f"{i}\t{query_text(q)}\n")
        subprocess.run(["java", "-cp", self.cp, "LuceneBench", "rank", os.path.join(self.work, "params.tsv"),
                        os.path.join(self.work, "docs.tsv"), qpath, opath, str(k)], check=True)
        out = [[] for _ in questions]
        for line in open(opath):
            qi, _, did, _ = line.rstrip("\n").split("\t")
            out[int(qi)].append(did)
        return out


class PaperBM25:
    """rank_bm25's BM25Okapi over LlamaIndex table nodes."""
    name = "paper-bm25"

    def __init__(self, docs, cmdbench_tables=None, k1=1.5, b=0.75, epsilon=0.25):
        self.stem = _porter().stem
        self._memo = {}
        nodes = cmdbench_nodes(cmdbench_tables, docs) if cmdbench_tables else {}
        self.ids = [d["id"] for d in docs]
        corpus = [self.tokens(nodes.get(d["id"]) or generic_node(d)) for d in docs]
        self.k1, self.b = k1, b
        self.freqs = [Counter(t) for t in corpus]
        self.lens = [len(t) for t in corpus]
        self.n = len(corpus)
        self.avgdl = sum(self.lens) / max(1, self.n)
        nd = Counter(w for f in self.freqs for w in f)
        self.idf = {w: math.log(self.n - c + 0.5) - math.log(c + 0.5) for w, c in nd.items()}
        average = sum(self.idf.values()) / max(1, len(self.idf))
        for w, v in self.idf.items():
            if v < 0:
                self.idf[w] = epsilon * average
        self.postings = {}
        for i, f in enumerate(self.freqs):
            for w in f:
                self.postings.setdefault(w, []).append(i)
        self.from_cmdbench = len(nodes)

    def tokens(self, text):
        out = []
        for w in re.findall(r"\w+", text.lower()):
            if w in NLTK_STOP:
                continue
            s = self._memo.get(w)
            if s is None:
                s = self._memo[w] = self.stem(w)
            out.append(s)
        return out

    def search(self, text, k):
        scores = {}
        for q in self.tokens(text):  # every occurrence counts, as in BM25Okapi.get_scores
            idf = self.idf.get(q)
            if idf is None:
                continue
            for i in self.postings[q]:
                tf = self.freqs[i][q]
                denom = tf + self.k1 * (1 - self.b + self.b * self.lens[i] / self.avgdl)
                scores[i] = scores.get(i, 0.0) + idf * tf * (self.k1 + 1) / denom
        ranked = sorted(scores.items(), key=lambda x: (-x[1], self.ids[x[0]]))
        return [self.ids[i] for i, _ in ranked[:k]]


def node_text(name, columns, context):
    # SQLTableNodeMapping.to_node: the schema line of SQLDatabase.get_single_table_info, then the context.
    cols = ", ".join(f"{c} (TEXT)" for c in columns)
    return (f"Schema of table {name}:\nTable '{name}' has columns: {cols}, and foreign keys: .\n"
            f"Context of table {name}:\n{context}")


def generic_node(doc):
    f = doc["fields"]
    context = {k: v for k, v in f.items() if k not in ("columns",)}
    return node_text(doc["id"], f.get("columns", []), json.dumps(context, ensure_ascii=False))


def _pg_unescape(s):
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}.get(m.group(1), m.group(1)), s)


def cmdbench_nodes(tables_dir, docs):
    """Node text per lakeqa dataset id from CMDBench's tables/: columns from nba_wikisql.sql's CREATE TABLE,
    the context JSON from metadata.sql's nba_context.doc (id 1-2-3 is table t_1_2_3)."""
    columns, name = {}, None
    for line in open(os.path.join(tables_dir, "nba_wikisql.sql"), encoding="utf-8"):
        m = re.match(r"CREATE TABLE nba_wikisql\.(\S+) \(", line)
        if m:
            name = m.group(1)
            columns[name] = []
        elif name is not None:
            if line.startswith(");"):
                name = None
            else:
                col = line.strip().rstrip(",")
                col = col[:col.rfind(" ")].strip()
                columns[name].append(col[1:-1] if col.startswith('"') else col)
    context = {}
    with open(os.path.join(tables_dir, "metadata.sql"), encoding="utf-8") as f:
        copying = False
        for line in f:
            if line.startswith("COPY metadata.nba_context"):
                copying = True
                continue
            if copying:
                if line.startswith("\\."):
                    break
                cells = line.rstrip("\n").split("\t")
                if len(cells) >= 5:
                    context["t_" + cells[0].replace("-", "_")] = _pg_unescape(cells[4])
    by_table = {d["id"].rsplit("/", 1)[-1]: d["id"] for d in docs}
    return {by_table[t]: node_text(t, columns.get(t, []), context.get(t, "")) for t in columns if t in by_table}
