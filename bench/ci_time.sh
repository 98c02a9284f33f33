#!/usr/bin/env bash
# How long CI (`bash .ci/run` = `make test`) takes on a fresh clone, as CI runs it: a new checkout at a path
# no build has used, shared/ beside it. Reports the wall and CPU time of the whole run, the test phase
# (CTest's own total) and ccache's hit count for the build.
#   bench/ci_time.sh <repo> <branch or commit> warm   # the machine's ccache as it is (this machine = CI)
#   bench/ci_time.sh <repo> <branch or commit> cold   # an empty ccache: a machine that never built lakeqa
# Appends nothing by itself: the numbers (with the load average at start and end) go to stdout for
# docs/benchmarks.md. The clone is left in $LAKEQA_BENCH_DIR (default /tmp/lakeqa-ci-time) for inspection.
set -euo pipefail
REPO=$1 REV=$2 CACHE=${3:-warm}
ROOT=${LAKEQA_BENCH_DIR:-/tmp/lakeqa-ci-time}/$CACHE-$(date +%s)
mkdir -p "$ROOT"
SHARED=$(realpath "$(dirname "$0")/../../shared" 2>/dev/null || true)
[ -d "$SHARED" ] && ln -s "$SHARED" "$ROOT/shared"
git clone -q "$REPO" "$ROOT/lakeqa"
git -C "$ROOT/lakeqa" checkout -q "$REV"
if [ "$CACHE" = cold ]; then
  export CCACHE_DIR=$ROOT/ccache-empty
fi
export CCACHE_STATSLOG=$ROOT/ccache.statslog CI=true
load0=$(cut -d' ' -f1-3 /proc/loadavg)
set +e
( cd "$ROOT/lakeqa" && /usr/bin/time -f "%e %U %S" -o "$ROOT/time" bash .ci/run ) > "$ROOT/ci.log" 2>&1
rc=$?
set -e
load1=$(cut -d' ' -f1-3 /proc/loadavg)
read -r wall user sys < "$ROOT/time"
tests=$(grep -o 'Total Test time (real) = *[0-9.]* sec' "$ROOT/ci.log" | grep -o '[0-9.]*' || echo "?")
hits=$(grep -c '^direct_cache_hit\|^preprocessed_cache_hit' "$ROOT/ccache.statslog" 2>/dev/null || echo 0)
misses=$(grep -c '^cache_miss' "$ROOT/ccache.statslog" 2>/dev/null || echo 0)
echo "ci_time: $REV ($CACHE ccache) exit $rc: ${wall} s wall (${user} s user + ${sys} s sys CPU); tests ${tests} s;" \
     "ccache ${hits} hits, ${misses} misses; load average ${load0} at start, ${load1} at end; log $ROOT/ci.log"
exit $rc
