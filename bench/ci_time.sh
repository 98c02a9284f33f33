#!/usr/bin/env bash
# How long CI (`bash .ci/run` = `make test`) takes on a fresh clone, as CI runs it: a new checkout at a path
# no build has used, shared/ beside it. Reports the wall and CPU time of the whole run, the test phase
# (CTest's own total) and ccache's hit count for the build.
#   bench/ci_time.sh <repo> <branch or commit> warm   # the machine's ccache as it is (this machine = CI)
#   bench/ci_time.sh <repo> <branch or commit> cold   # an empty ccache: a machine that never built lakeqa
#   bench/ci_time.sh <repo> <branch or commit> one-file [FILE]
#       # a newcomer's edit-compile loop: build the clone as `make test` does (the debug preset, every
#       # target), then change one file (FILE, default src/ingest/profile.cc: a comment line appended, so
#       # no compiler cache has it) and time the rebuild of every target, not the tests. Reports the
#       # objects recompiled and the binaries relinked.
# Appends nothing by itself: the numbers (with the load average at start and end) go to stdout for
# docs/benchmarks.md. The clone is left in $LAKEQA_BENCH_DIR (default /tmp/lakeqa-ci-time) for inspection.
set -euo pipefail
REPO=$1 REV=$2 CACHE=${3:-warm} FILE=${4:-src/ingest/profile.cc}
case $CACHE in
  warm|cold|one-file) ;;
  *) echo "ci_time.sh: the mode is warm, cold or one-file, not '$CACHE'" >&2; exit 2 ;;
esac
HERE=$(cd "$(dirname "$0")/.." && pwd)
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
JOBS=$(nproc)

if [ "$CACHE" = one-file ]; then
  [ -f "$ROOT/lakeqa/$FILE" ] || { echo "ci_time.sh: no $FILE in $REV" >&2; exit 2; }
  # The dependencies scripts/setup would fetch: this checkout's, when it has them (the measure is the
  # rebuild, not the download).
  if [ -d "$HERE/.deps" ]; then
    ln -s "$(realpath "$HERE/.deps")" "$ROOT/lakeqa/.deps"
  else
    bash "$ROOT/lakeqa/scripts/setup"
  fi
  cd "$ROOT/lakeqa"
  cmake --preset debug > "$ROOT/configure.log"
  /usr/bin/time -f "%e" -o "$ROOT/time.first" cmake --build build/debug -j "$JOBS" > "$ROOT/first.log" 2>&1
  echo "// bench/ci_time.sh: a one-file change" >> "$FILE"
  load0=$(cut -d' ' -f1-3 /proc/loadavg)
  set +e
  /usr/bin/time -f "%e %U %S" -o "$ROOT/time" cmake --build build/debug -j "$JOBS" > "$ROOT/rebuild.log" 2>&1
  rc=$?
  set -e
  load1=$(cut -d' ' -f1-3 /proc/loadavg)
  read -r wall user sys < "$ROOT/time"
  objects=$(grep -c 'Building CXX object' "$ROOT/rebuild.log" || true)
  links=$(grep -c 'Linking CXX' "$ROOT/rebuild.log" || true)
  echo "ci_time: $REV one-file change to $FILE, exit $rc: rebuild ${wall} s wall (${user} s user +" \
       "${sys} s sys CPU); ${objects} objects recompiled, ${links} binaries relinked;" \
       "first build $(cat "$ROOT/time.first") s;" \
       "load average ${load0} at start, ${load1} at end; log $ROOT/rebuild.log"
  exit $rc
fi

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
