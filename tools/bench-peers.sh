#!/usr/bin/env bash
# fpmod side by side with pyfingerprint 1.5, adafruit-circuitpython-fingerprint and a minimal C
# program (the floor: one write, blocking reads of exactly the reply), on the same `fpmod sim`,
# interleaved round by round so machine load affects every client alike. Prints RATIOS.
#
# Usage: tools/bench-peers.sh
# Env:   PEERS_VENV   virtual environment to create or reuse (default .build/peers-venv)
#        ROUNDS       interleaved rounds (default 3)
#        COMMANDS     round trips of each command per client per round, instant timing (default 300)
#        CYCLES       identify cycles per client per round, datasheet timing (default 5)
#        TRANSFERS    UpChar uploads per client per round, datasheet timing (default 5)
#        IDLE_SECONDS seconds of GenImg polling per peer for the idle row (default 10)
#        BAUD         line speed of every client and the simulator (default 57600)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
venv="${PEERS_VENV:-$root/.build/peers-venv}"
rounds="${ROUNDS:-3}" commands="${COMMANDS:-300}" cycles="${CYCLES:-5}" transfers="${TRANSFERS:-5}"
idle_seconds="${IDLE_SECONDS:-10}" baud="${BAUD:-57600}" templates=10

if [ ! -x "$venv/bin/python" ] || ! PYTHONPATH="$root/tools/peers/stubs" "$venv/bin/python" -c 'import pyfingerprint, serial, adafruit_fingerprint' 2>/dev/null; then
    echo "bench-peers: creating $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'pyfingerprint==1.5' pyserial
    # Only busio.UART and micropython.const are needed: tools/peers/stubs stands in for Blinka.
    "$venv/bin/pip" install --quiet --no-deps adafruit-circuitpython-fingerprint
fi
py() { PYTHONPATH="$root/tools/peers:$root/tools/peers/stubs" "$venv/bin/python" "$@"; }

echo "bench-peers: building fpmod (release) and the C floor" >&2
swift build -c release --product fpmod >&2
fpmod="$(swift build -c release --product fpmod --show-bin-path)/fpmod"
work="$(mktemp -d "${TMPDIR:-/tmp}/fpmod-bench-peers.XXXXXX")"
cc -O2 -o "$work/floor" tools/bench/floor.c

sim_pid=""
stop_sim() {
    if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi
    sim_pid=""
}
trap 'stop_sim; rm -rf "$work"' EXIT

# start_sim TIMING [extra args…]: a r307 simulator keeping its library in $work/state.json.
start_sim() {
    local timing="$1"; shift
    rm -f "$work/sim0" "$work/control"
    "$fpmod" --baud "$baud" sim --profile r307 --timing "$timing" --state "$work/state.json" \
        --link "$work/sim0" --control "$work/control" "$@" >"$work/device" 2>"$work/sim.log" &
    sim_pid=$!
    for _ in $(seq 1 100); do
        [ -S "$work/control" ] && [ -L "$work/sim0" ] && return 0
        sleep 0.05
    done
    echo "bench-peers: fpmod sim did not start:" >&2
    cat "$work/sim.log" >&2
    exit 69
}
control() { py -c 'import sys; from simctl import Control; print(Control(sys.argv[1]).send(sys.argv[2]))' "$work/control" "$1" >/dev/null; }

results="$work/results.jsonl"
: >"$results"
record() { sed "s/^/{\"round\": $1, \"line\": /; s/\$/}/" >>"$results"; }

echo "bench-peers: enrolling $templates templates (instant timing)" >&2
start_sim instant
py tools/bench/peer_bench.py pyfingerprint enroll "$work/sim0" "$baud" "$templates" "$work/control" >/dev/null

echo "bench-peers: per-command round trips, instant timing, $rounds rounds × $commands" >&2
for round in $(seq 1 "$rounds"); do
    # Each client runs alone and writes to a file: a consumer starting up beside it (a Python
    # interpreter in a pipe) keeps the other CPU busy, which shortens wake-ups and skews the
    # microsecond figures in favour of whoever runs during that start-up.
    "$work/floor" "$work/sim0" "$baud" "$commands" >"$work/floor.out"
    py -c '
import json, sys
rows, cpu = {}, None
for line in open(sys.argv[1]):
    if line.startswith("CPU "):
        cpu = float(line.split()[1])
        continue
    name, p50, p95, p99, top = line.split()
    rows[name] = {"p50_us": int(p50), "p95_us": int(p95), "p99_us": int(p99), "max_us": int(top)}
print(json.dumps({"client": "floor", "mode": "roundtrip", "round_trips": rows, "cpu_us_per_round_trip": cpu}))' "$work/floor.out" | record "$round"
    "$fpmod" --port "$work/sim0" --baud "$baud" bench --cycles 0 --commands "$commands" --json >"$work/fpmod.out"
    py -c 'import json, sys; d = json.load(open(sys.argv[1])); print(json.dumps({"client": "fpmod", "mode": "roundtrip", "fpmod": d}))' \
        "$work/fpmod.out" | record "$round"
    for lib in pyfingerprint adafruit; do
        py tools/bench/peer_bench.py "$lib" roundtrip "$work/sim0" "$baud" "$commands" | record "$round"
    done
done
stop_sim

echo "bench-peers: identify and UpChar, datasheet timing with wire pacing at $baud baud, $rounds rounds" >&2
start_sim datasheet --finger bench-finger
for round in $(seq 1 "$rounds"); do
    "$fpmod" --port "$work/sim0" --baud "$baud" bench --cycles "$cycles" --transfers "$transfers" --json \
        | py -c 'import json, sys; d = json.load(sys.stdin); print(json.dumps({"client": "fpmod", "mode": "identify", "fpmod": d}))' | record "$round"
    for lib in pyfingerprint adafruit; do
        py tools/bench/peer_bench.py "$lib" identify "$work/sim0" "$baud" "$cycles" | record "$round"
        py tools/bench/peer_bench.py "$lib" transfer "$work/sim0" "$baud" "$transfers" "$((templates - 1))" | record "$round"
    done
done

echo "bench-peers: idle, ${idle_seconds} s of GenImg polling per peer (no finger)" >&2
control lift
for lib in pyfingerprint adafruit; do
    py tools/bench/peer_bench.py "$lib" idle "$work/sim0" "$baud" "$idle_seconds" | record 1
done
stop_sim

echo "bench-peers: idle CPU of fpmod's touch-driven loop" >&2
"$fpmod" bench --cycles 0 --idle --json 2>/dev/null \
    | py -c 'import json, sys; d = json.load(sys.stdin); print(json.dumps({"client": "fpmod", "mode": "idle", "fpmod": d}))' | record 1 \
    || echo '{"client": "fpmod", "mode": "idle", "fpmod": {}}' | record 1

py tools/bench/peers_table.py "$results" "$baud"
