#!/usr/bin/env bash
# Measures the host matcher's impostor scores on real impressions (every different-finger pair
# of FVC2002 DB1_B … DB4_B sensor windows: each image's 192 × 192 centre and the windows 48 px
# off it) and writes the calibration the false-match rate is set through:
# Sources/HostMatching/ScoreCalibration+FVC2002.swift.
# Run it after any change to the extractor or the comparison, and commit the file with it.
#   tools/calibrate-host-matcher.sh [FVC-DIR]     (default $FPMOD_FVC2002, else ../shared/data/fvc2002)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-${FPMOD_FVC2002:-../shared/data/fvc2002}}
[ -d "$data/DB1_B" ] || { echo "calibrate-host-matcher: no DB1_B in $data; give the folder of the FVC2002 B sets" >&2; exit 2; }
swift build -c release --product HostMatchBench >&2
out=Sources/HostMatching/ScoreCalibration+FVC2002.swift
.build/release/HostMatchBench calibrate "$data" > "$out.new"
mv "$out.new" "$out"
echo "calibrate-host-matcher: wrote $out" >&2
grep '^// DB' "$out" >&2
