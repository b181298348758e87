#!/usr/bin/env bash
# The host matcher's speed on real impressions (FVC2002 B, each image's 192 × 192 centre as an
# FPC1020 sees it), in a release build: extraction per image, comparisons per second on one
# core, and 1:N identify at 20 (a door), 100, 1,000 and 10,000 templates of 8 impressions on every core.
#   tools/bench-host-match.sh [FVC-DIR]     (default $FPMOD_FVC2002, else ../shared/data/fvc2002)
# Accuracy is `fpmod bench accuracy DIR` (docs/accuracy.md).
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-${FPMOD_FVC2002:-../shared/data/fvc2002}}
[ -d "$data/DB1_B" ] || { echo "bench-host-match: no DB1_B in $data; give the folder of the FVC2002 B sets" >&2; exit 2; }
swift build -c release --product HostMatchBench >&2
.build/release/HostMatchBench speed "$data"
