#!/usr/bin/env bash
# A busy door with faults on real processes: `fpmod bench soak` (docs/soak.md) with the
# debug build the README's test command made.
#   tools/soak.sh             # 2 minutes, as CI runs it
#   tools/soak.sh 1h          # the README's hour
#   tools/soak.sh 8h --seed 5 # extra arguments go to fpmod bench soak
# Exit 1 when a decision was wrong, a decision has no audit row, or the service grew past a
# bound within one of its runs; 69 when the soak could not run.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-2m}
[ $# -gt 0 ] && shift
[ -x .build/debug/fpmod ] || swift build --product fpmod
command -v sqlite3 >/dev/null || echo "soak: no sqlite3 shell (apt-get install sqlite3): the store-locked fault is skipped" >&2
exec .build/debug/fpmod bench soak --duration "$duration" "$@"
