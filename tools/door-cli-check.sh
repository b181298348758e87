#!/usr/bin/env bash
# The door scenario through the real `fpmod` command on the simulated FPC1020, fed with real
# impressions (FVC2002 B, or any folders of NNN_K.png): per database, a fresh store; every finger
# enrolled from impressions 1–5 (`enroll --captures 5`), then impressions 6–8 identified, and every
# impression of the next database's fingers presented as a stranger. Prints, per database, the
# fingers enroll refused, the later touches identified as their owner, missed, or taken for
# someone else, and the strangers let in. The simulator serves each image's 192 × 192 centre, as
# the sensor sees it. What `fpmod bench accuracy DIR --door` measures in one process, here
# through the CLI, its store and its exit codes.
#   tools/door-cli-check.sh [FVC-DIR]     (default $FPMOD_FVC2002, else ../shared/data/fvc2002)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-${FPMOD_FVC2002:-../shared/data/fvc2002}}
swift build -c release --product fpmod >&2
fpmod=$PWD/.build/release/fpmod
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mapfile -t databases < <(find "$data" -mindepth 1 -maxdepth 1 -type d -name 'DB*' | sort)
[ ${#databases[@]} -gt 0 ] || { echo "door-cli-check: no DB* folders in $data" >&2; exit 2; }

total_refused=0 total_right=0 total_missed=0 total_wrong=0 total_later=0 total_let_in=0 total_strangers=0
for index in "${!databases[@]}"; do
  db=${databases[$index]}
  strangers_db=${databases[$(((index + 1) % ${#databases[@]}))]}
  name=$(basename "$db")
  run="$work/$name"
  mkdir -p "$run/images"
  sim=(--sim --sim-profile fpc1020 --sim-images "$run/images" --store "$run/store.db")
  refused=0 right=0 missed=0 wrong=0 later=0 let_in=0 strangers=0
  fingers=$(find "$db" -name '*_1.png' -printf '%f\n' | sed 's/_1\.png$//' | sort)
  for finger in $fingers; do
    mkdir -p "$run/images/f$finger-right-index"
    for k in 1 2 3 4 5; do ln -s "$(realpath "$db/${finger}_$k.png")" "$run/images/f$finger-right-index/$k.png"; done
    if ! "$fpmod" "${sim[@]}" enroll "f$finger" --finger right-index --captures 5 >/dev/null 2>"$run/enroll-$finger.err"; then
      refused=$((refused + 1))
    fi
  done
  identify() { # finger-name → the user named, or nothing
    "$fpmod" "${sim[@]}" --json identify --sim-finger "$1" 2>/dev/null \
      | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("user") or "")' || true
  }
  for finger in $fingers; do
    for k in 6 7 8; do
      [ -f "$db/${finger}_$k.png" ] || continue
      mkdir -p "$run/images/p$finger-$k"
      ln -s "$(realpath "$db/${finger}_$k.png")" "$run/images/p$finger-$k/1.png"
      later=$((later + 1))
      who=$(identify "p$finger-$k")
      if [ "$who" = "f$finger" ]; then right=$((right + 1))
      elif [ -z "$who" ]; then missed=$((missed + 1))
      else wrong=$((wrong + 1)); fi
    done
  done
  for image in "$strangers_db"/*.png; do
    base=$(basename "$image" .png)
    mkdir -p "$run/images/s$base"
    ln -s "$(realpath "$image")" "$run/images/s$base/1.png"
    strangers=$((strangers + 1))
    [ -z "$(identify "s$base")" ] || let_in=$((let_in + 1))
  done
  echo "$name: enroll refused $refused of $(echo "$fingers" | wc -w) fingers; later touches: $right identified, $missed missed, $wrong taken for another, of $later; strangers ($(basename "$strangers_db")) let in: $let_in of $strangers"
  total_refused=$((total_refused + refused)) total_right=$((total_right + right)) total_missed=$((total_missed + missed))
  total_wrong=$((total_wrong + wrong)) total_later=$((total_later + later))
  total_let_in=$((total_let_in + let_in)) total_strangers=$((total_strangers + strangers))
done
echo "all: enroll refused $total_refused; later touches identified $total_right of $total_later ($((100 * total_right / total_later)) %), taken for another $total_wrong; strangers let in $total_let_in of $total_strangers"
echo "FVC2002 (if that is what was measured): D. Maio, D. Maltoni, R. Cappelli, J.L. Wayman, A.K. Jain, Proc. 16th ICPR, 2002."
