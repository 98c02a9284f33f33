#!/usr/bin/env bash
# Kept for old instructions: the demo pipeline is now the `lakeqa demo` verb (see scripts/demo).
# Usage: demo/pipeline.sh [lakeqa binary] [work folder]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/demo_data && exec "${1:-build/release/lakeqa}" demo --work "${2:-.cache/demo}"
