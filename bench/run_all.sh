#!/usr/bin/env bash
# `make bench`: every benchmark in bench/ with its default sizes, one after the other (they would compete
# for the cores otherwise). Each script writes its own section of docs/benchmarks.md. A failed benchmark is
# reported and the others still run; the exit status is the number of failures (0: all ran).
# Usage: bench/run_all.sh <build-dir> [name...]   (names: catalog lake_build search_engines ...; default all)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build/release}
shift || true
if [ $# -gt 0 ]; then
  names=("$@")
else
  names=()
  for f in bench/*.sh; do
    n=$(basename "$f" .sh)
    [ "$n" = run_all ] || names+=("$n")
  done
fi
failed=0
for n in "${names[@]}"; do
  if [ ! -f "bench/$n.sh" ]; then echo "run_all: no benchmark bench/$n.sh" >&2; failed=$((failed + 1)); continue; fi
  printf '\n\033[1m== bench/%s.sh %s\033[0m (started %s)\n' "$n" "$BUILD" "$(date -u +%H:%M:%S)"
  start=$(date +%s)
  if bash "bench/$n.sh" "$BUILD"; then
    echo "== $n: done in $(( $(date +%s) - start )) s"
  else
    echo "== $n: FAILED (exit $?) after $(( $(date +%s) - start )) s" >&2
    failed=$((failed + 1))
  fi
done
exit "$failed"
