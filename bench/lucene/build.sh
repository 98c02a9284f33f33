#!/usr/bin/env bash
# Compiles bench/lucene/LuceneBench.java with Debian's JDK against Debian's Lucene 8 (liblucene8-java),
# installing both when missing, into OUT_DIR; prints the classpath to run it with (`java -cp <it> LuceneBench`).
#
#   bench/lucene/build.sh OUT_DIR
set -euo pipefail
OUT=${1:?usage: bench/lucene/build.sh OUT_DIR}
SRC=$(cd "$(dirname "$0")" && pwd)/LuceneBench.java
need=()
command -v javac >/dev/null 2>&1 || need+=(default-jdk-headless)
ls /usr/share/java/lucene-core-8*.jar >/dev/null 2>&1 || need+=(liblucene8-java)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}" >&2
  apt-get install -y "${need[@]}" >&2
fi
core=$(ls /usr/share/java/lucene-core-8*.jar | head -1)
analyzers=$(ls /usr/share/java/lucene-analyzers-common-8*.jar | head -1)
CP="$core:$analyzers"
mkdir -p "$OUT"
if [ ! -s "$OUT/LuceneBench.class" ] || [ "$SRC" -nt "$OUT/LuceneBench.class" ]; then
  javac -d "$OUT" -cp "$CP" "$SRC" >&2
fi
echo "$OUT:$CP"
