#!/usr/bin/env bash
# The power cut at every write: `fpmod bench power-loss` (docs/power-loss.md) with the debug
# build the README's test command made.
#   tools/power-loss.sh               # 1,000 cuts, as CI runs them
#   tools/power-loss.sh 10000         # a longer campaign
#   tools/power-loss.sh 200 --seed 5  # extra arguments go to fpmod bench power-loss
# Exit 1 when a restart found a damaged store, a half-applied change, store and module
# disagreeing or a broken audit chain; 69 when the campaign could not run.
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-1000}
[ $# -gt 0 ] && shift
[ -x .build/debug/fpmod ] || swift build --product fpmod
command -v sqlite3 >/dev/null || { echo "power-loss: the checks read the store with the sqlite3 shell: apt-get install sqlite3" >&2; exit 69; }
exec .build/debug/fpmod bench power-loss --iterations "$iterations" --jobs "${POWER_LOSS_JOBS:-8}" "$@"
