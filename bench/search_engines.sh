#!/usr/bin/env bash
# lakeqa's text index vs Lucene, Xapian and SQLite FTS5 on the same documents and the same queries (one
# process per engine, so each peak RSS is that engine's own). Prints a Markdown table per corpus (also
# written to $WORK/<corpus>.md) for docs/benchmarks.md.
#
#   bench/search_engines.sh [--docs 1000000] [--queries 50] [--corpus synth|gcide|both]
#                           [--engines "lakeqa lakeqa-merged lucene fts5 xapian"] [--work /tmp/lakeqa-search-bench]
#
# Engine lakeqa-fieldsum is lakeqa's index queried with every field scored on its own: the per-field BM25
# sum that BM25F replaced, for comparing their speed in one run (bench/search_engines.cc, LakeqaEngine).
# Corpora: "synth", the catalog documents of a synthetic lake of --docs datasets (generated in the
# benchmark, see bench/search_engines.cc), and "gcide", the entries of the GNU Collaborative
# International Dictionary of English (Debian dict-gcide), one document per entry.
# Needs libxapian-dev (GPL: a benchmark competitor only, never linked into lakeqa; installed here, not
# by scripts/setup), libsqlite3-dev and dict-gcide; for lucene, Debian's JDK and liblucene8-java
# (bench/lucene/build.sh installs and compiles): the corpus and queries are written once by
# `bench_search_engines --engine dump` and read by bench/lucene/LuceneBench.java, whose reading and parsing
# time is excluded from its indexing time as generation time is for the others.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build/searchbench-rel}
DOCS=1000000
QUERIES=50
CORPUS=both
ENGINES="lakeqa lakeqa-merged lucene fts5 xapian"
WORK=/tmp/lakeqa-search-bench
while [ $# -gt 0 ]; do
  case "$1" in
    --docs) DOCS=$2; shift 2 ;;
    --queries) QUERIES=$2; shift 2 ;;
    --corpus) CORPUS=$2; shift 2 ;;
    --engines) ENGINES=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    *) echo "search_engines.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

need=()
for p in libxapian-dev libsqlite3-dev dict-gcide; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}" >&2
  apt-get install -y "${need[@]}" >&2
fi

cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DLAKEQA_BUILD_TESTS=OFF -DLAKEQA_BUILD_BENCH=ON \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
cmake --build "$BUILD" --target bench_search_engines -j"${JOBS:-1}" >/dev/null
BIN=$BUILD/bench/bench_search_engines
mkdir -p "$WORK"

corpus_args() {
  case "$1" in
    synth) echo "--synth $DOCS" ;;
    gcide)
      if [ ! -s "$WORK/gcide.tsv" ]; then
        # dictd's index: headword \t offset \t length, both in dictd's base64 digits.
        python3 - "$WORK/gcide.tsv" <<'PY'
import gzip, sys
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
def num(s):
    n = 0
    for c in s:
        n = n * 64 + B64.index(c)
    return n
data = gzip.open("/usr/share/dictd/gcide.dict.dz").read()
seen = set()
with open(sys.argv[1] + ".tmp", "w", encoding="utf-8") as out:
    for line in open("/usr/share/dictd/gcide.index", encoding="utf-8"):
        head, off, ln = line.rstrip("\n").split("\t")[:3]
        if head.startswith("00-") or (off, ln) in seen:
            continue
        seen.add((off, ln))
        text = data[num(off):num(off) + num(ln)].decode("utf-8", "replace")
        text = " ".join(text.replace("\t", " ").split())
        out.write(f"gcide/{len(seen)}\t{head}\t{text}\n")
import os
os.replace(sys.argv[1] + ".tmp", sys.argv[1])
PY
      fi
      echo "--tsv $WORK/gcide.tsv" ;;
    *) echo "unknown corpus $1" >&2; exit 2 ;;
  esac
}

run_corpus() {
  local c=$1 args
  args=$(corpus_args "$c")
  for e in $ENGINES; do
    local before after
    before=$(cut -d' ' -f1 /proc/loadavg)
    echo "== $c / $e (load $before)" >&2
    if [ "$e" = lucene ]; then
      "$BIN" --engine dump --dir "$WORK/$c-dump.idx" --out "$WORK/$c-dump" $args --queries "$QUERIES" >/dev/null
      java -Xmx8g -cp "$("$ROOT/bench/lucene/build.sh" "$WORK/lucene-classes")" LuceneBench speed \
        "$WORK/$c-dump.params.tsv" "$WORK/$c-dump.docs.tsv" "$WORK/$c-dump.queries.tsv" "$WORK/$c-lucene.idx" \
        "$WORK/$c-lucene" "$c" >/dev/null
      rm -rf "$WORK/$c-dump.idx" "$WORK/$c-dump.docs.tsv"
    else
      "$BIN" --engine "$e" --dir "$WORK/$c-$e.idx" --out "$WORK/$c-$e" $args --queries "$QUERIES" >/dev/null
    fi
    after=$(cut -d' ' -f1 /proc/loadavg)
    python3 -c 'import json,sys; p=sys.argv[1]; j=json.load(open(p)); j["load_before"]=float(sys.argv[2]); j["load_after"]=float(sys.argv[3]); json.dump(j,open(p,"w"))' \
      "$WORK/$c-$e.json" "$before" "$after"
    rm -rf "$WORK/$c-$e.idx"
  done
  python3 "$ROOT/bench/search_engines.py" "$WORK" "$c" $ENGINES | tee "$WORK/$c.md"
}

case "$CORPUS" in
  both) run_corpus synth; run_corpus gcide ;;
  *) run_corpus "$CORPUS" ;;
esac
