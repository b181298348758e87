#!/usr/bin/env bash
# The CI's accuracy regression check: `fpmod bench accuracy` on one real database (FVC2002
# DB3_B, the capacitive set, each image's 192 × 192 centre as an FPC1020 sees it), fpmod beside
# NBIS, failing when fpmod's EER or FMR1000 is worse than the bounds (a little above what it
# measures today; tighten them when the matcher improves). Not a check of time.
#   tools/accuracy-check.sh [FVC-DIR]     (default $FPMOD_FVC2002, else ../shared/data/fvc2002)
# Then the same database's whole images. The full tables (four databases, --full, --door) are
# docs/accuracy.md's command.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-${FPMOD_FVC2002:-../shared/data/fvc2002}}
[ -d "$data/DB3_B" ] || { echo "accuracy-check: no DB3_B in $data; give the folder of the FVC2002 B sets" >&2; exit 2; }
# Bounds in percent, measured 6.4 / 23.2 (docs/accuracy.md, 2026-12-07, every kept pair
# proposing a placement; 8.7 / 22.5 on 2026-12-06 with the placements
# judged by the ridges' flow; 10.0 / 25.0 with the directions weighed on one placement, 10.4 / 27.9
# on 2026-12-05, 15.0 / 39.3 with 2026-12-04's extractor); the door: later touches missed at the
# product's thresholds, measured 5 of 30 (17 %: with the calibration measured on sensor windows
# the two-impression threshold rose; 4 of 30 before, 6 of 30 earlier on 2026-12-06, 7 of 30 on
# 2026-12-05, 9 of 30 on 2026-12-04), and no stranger (the check runs DB3_B alone, so it presents none).
eer_bound=8
fmr1000_bound=25
door_bound=20
swift build -c release --product fpmod >&2
.build/release/fpmod bench accuracy "$data/DB3_B" --door --check "$eer_bound,$fmr1000_bound,$door_bound"
# Whole images, fpmod alone (NBIS's whole-image figures are in docs/accuracy.md): measured
# 1.5 / 4.3 on 2026-12-07 (4.8 / 8.6 the day before, when DB3_B 108_1, a small finger on the
# large image, was refused as no finger and every pair the consolidation kept did not yet
# propose a placement).
.build/release/fpmod bench accuracy "$data/DB3_B" --full --no-baseline --check 3,7
