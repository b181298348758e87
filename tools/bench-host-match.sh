#!/usr/bin/env bash
# Prints the host matcher's accuracy and speed table (false match / false non-match rates over
# all probe-template pairs, time per 1:N search at 10, 100 and 1000 templates) for impressions
# made from the NIST prints: each turned by up to ±15°, moved by up to ±12 px, cut to the
# FPC1020's 192×192 and given noise.
#
#   tools/bench-host-match.sh [IMAGE-DIR] [PROBES-PER-FINGER]
#
# IMAGE-DIR defaults to $FPMOD_NIST_PRINTS, else Debian 13's libfprint-2-tests folder. On
# Debian 12, which has no such package, unpack trixie's .deb without installing it:
#   tools/bench-host-match.sh --fetch-nist   (puts the prints in /tmp/fpmod-nist-prints)
# `--synthetic` instead of a folder uses generated fingers (SyntheticFinger). Extra options go
# to the bench: --noise SIGMA --rotation DEGREES --shift PIXELS --sensor SIDE --accuracy-only
# --matcher swift|libfprint|both (default both: libfprint's bozorth3, then fpmod's Swift
# MinutiaeMatcher on the same templates and probes; `swift` skips libfprint's slow run).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = "--fetch-nist" ]; then
  # A private apt state with only trixie in it, so the host's own sources and packages stay as
  # they are; apt-get download fetches, dpkg-deb -x unpacks, nothing is installed.
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  mkdir -p "$scratch/sources" "$scratch/state/lists/partial" "$scratch/cache/archives/partial"
  printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    >"$scratch/sources/trixie.sources"
  touch "$scratch/state/status"
  apt_options=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$scratch/sources"
    -o "Dir::State=$scratch/state" -o "Dir::State::status=$scratch/state/status" -o "Dir::Cache=$scratch/cache")
  apt-get "${apt_options[@]}" update -qq
  (cd "$scratch" && apt-get "${apt_options[@]}" download libfprint-2-tests 2>/dev/null)
  dpkg-deb -x "$scratch"/libfprint-2-tests_*.deb "$scratch/root"
  rm -rf /tmp/fpmod-nist-prints
  cp -r "$scratch/root/usr/share/installed-tests/libfprint-2/prints" /tmp/fpmod-nist-prints
  echo "fpmod: NIST prints in /tmp/fpmod-nist-prints; run: FPMOD_NIST_PRINTS=/tmp/fpmod-nist-prints $0"
  exit 0
fi

# The folder is the first argument unless that is an option (other than --synthetic).
if [ $# -gt 0 ] && { [ "${1#--}" = "$1" ] || [ "$1" = "--synthetic" ]; }; then
  directory=$1
  shift
else
  directory=${FPMOD_NIST_PRINTS:-/usr/share/installed-tests/libfprint-2/prints}
fi
if [ "$directory" != "--synthetic" ] && [ ! -r "$directory/arch.png" ]; then
  echo "fpmod: no NIST prints in $directory; install libfprint-2-tests (Debian 13) or run $0 --fetch-nist" >&2
  exit 66
fi
cd "$here"
swift build -c release --product HostMatchBench >&2
# libfprint's warnings about images without minutiae go to stderr; the table to stdout.
exec .build/release/HostMatchBench "$directory" "$@" 2>/dev/null
