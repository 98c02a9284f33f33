#!/usr/bin/env bash
# The catalog issue's acceptance check at full size: the same synthetic lake (default 10k datasets) written
# to a folder and to a real S3 server (s3rver on loopback, SigV4), catalogued from each, must give
# identical catalogs (ETags and mtimes aside: each store has its own). Prints timings of both builds.
# Usage: bench/catalog_s3_equivalence.sh <build-dir> [datasets=10000]
set -euo pipefail
trap 'echo "failed at line $LINENO" >&2' ERR
cd "$(dirname "$0")/.."
BUILD=${1:-build/release}
N=${2:-10000}
LAKEQA=$BUILD/lakeqa
WORK=$(mktemp -d /tmp/lakeqa-s3eq-XXXXXX)
PKG=$PWD/.deps/s3rver/node_modules/@20minutes/s3rver
mkdir -p "$WORK/s3data"
coproc S3RVER { exec node --openssl-legacy-provider tests/support/s3rver.js "$PKG" "$WORK/s3data" lake; }
read -r _ PORT <&"${S3RVER[0]}"
cleanup() { kill "$S3RVER_PID" 2>/dev/null || true; if [ "${KEEP_WORK:-0}" = 1 ]; then echo "kept $WORK" >&2; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
export AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER
S3=(--s3-endpoint "http://127.0.0.1:$PORT")

"$LAKEQA" lake synth -q --out "$WORK/lake" --datasets "$N" --seed 11 --with-bad-files --json > "$WORK/synth-local.json"
"$LAKEQA" lake synth -q --out s3://lake/mirror "${S3[@]}" --datasets "$N" --seed 11 --with-bad-files --json > "$WORK/synth-s3.json"
/usr/bin/time -f '%e' -o "$WORK/t-local" "$LAKEQA" index build -q --lake "$WORK/lake" --index "$WORK/i-local" --json > "$WORK/b-local.json" 2>/dev/null
/usr/bin/time -f '%e' -o "$WORK/t-s3" "$LAKEQA" index build -q --lake s3://lake/mirror "${S3[@]}" --index "$WORK/i-s3" --json > "$WORK/b-s3.json" 2>/dev/null
"$LAKEQA" catalog dump --index "$WORK/i-local" --ignore-etag-mtime > "$WORK/local.dump"
"$LAKEQA" catalog dump --index "$WORK/i-s3" --ignore-etag-mtime > "$WORK/s3.dump"
LINES=$(wc -l < "$WORK/local.dump")
if cmp -s "$WORK/local.dump" "$WORK/s3.dump"; then
  echo "identical catalogs: $LINES rows; build from folder $(cat "$WORK/t-local") s, from S3 $(cat "$WORK/t-s3") s ($(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["requests"])' "$WORK/b-s3.json") requests)"
else
  echo "CATALOGS DIFFER:"; diff "$WORK/local.dump" "$WORK/s3.dump" | head -20; exit 1
fi
