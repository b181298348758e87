#!/usr/bin/env bash
# Touch -> relay latency of `fpmod run --sim --sim-gpio` with and without an MQTT flood (issue
# 12): the same touches, first with the broker quiet, then with tools/ha/flood.py publishing
# 1,000 messages a second that fpmod must ignore (malformed, oversized and wrong-shape
# commands on the lock's command topic; "online", "offline" and junk on homeassistant/status).
# The latency is the service's own figure: latencyMs.relayOn of each decision on the events
# socket, from the touch line's edge to the relay energised (tools/ha/touch_latency.py).
# Target: flood p50 and p99 within 1 ms of the idle ones.
#
# Usage: tools/bench-mqtt-flood.sh [TOUCHES]   (default 200 per phase; exit 1 if the target is missed)
# Env:   HA_VENV, FPMOD as for tools/ha-e2e.sh; FLOOD_RATE (default 1000), FLOOD_ROUNDS (idle/flood
#        blocks, alternating; default 4), FLOOD_NICE (the publisher's and broker's nice value,
#        default 10: on a real lock they are other machines)
set -euo pipefail

SCRIPT_NAME=bench-mqtt-flood
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=tools/lib/script-steps.sh
. tools/lib/script-steps.sh
# shellcheck source=tools/lib/mosquitto.sh
. tools/lib/mosquitto.sh

touches=${1:-200}
rate=${FLOOD_RATE:-1000}
rounds=${FLOOD_ROUNDS:-4}
# The publisher and the broker stand for other machines (Home Assistant, its broker): here they
# share two cores with fpmod, so they run at a lower priority, and fpmod's own threads are not
# queued behind them. FLOOD_NICE=0 puts them level with fpmod.
flood_nice=${FLOOD_NICE:-10}
export BROKER_NICE=$flood_nice
venv="${HA_VENV:-$root/.build/ha-venv}"
paho_venv "$venv"
if [ -z "${FPMOD:-}" ]; then
  swift build --product fpmod >&2
  FPMOD="$(swift build --product fpmod --show-bin-path)/fpmod"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/fpmod-flood.XXXXXX")"
service_pid=""
flood_pid=""
cleanup() {
  for pid in "$flood_pid" "$service_pid"; do
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  done
  broker_stop
  rm -rf "$work"
}
trap cleanup EXIT

broker_start "$work"
# A short pulse, so touches can follow each other; the relay time is stamped when it goes on.
lock_service_files "$work" '{"relayPulseSeconds": 0.05, "pinRequiredAfterEnrolledSetChange": false}'
"$FPMOD" --config "$work/config.json" run --sim --sim-gpio >"$work/run.log" 2>&1 &
service_pid=$!
n=0
until "$FPMOD" --config "$work/config.json" status --json 2>/dev/null | grep -q '"module" *: *"connected"'; do
  n=$((n + 1))
  if [ $n -ge 300 ] || ! kill -0 "$service_pid" 2>/dev/null; then
    cat "$work/run.log" >&2
    die "fpmod run did not start"
  fi
  sleep 0.1
done
python3 tools/lib/simctl.py "$sockets/sim-control.sock" "touch carol-left-index 6" >/dev/null
"$FPMOD" --config "$work/config.json" enroll carol --finger left-index >"$work/enroll.log" 2>&1 || { cat "$work/enroll.log" >&2; die "enroll failed"; }
grep -q "connected to 127.0.0.1:$BROKER_PORT" "$work/run.log" || die "fpmod is not on the broker: $(cat "$work/run.log")"

# Idle and flood blocks alternate, so a change in the machine's other load during the run
# lands on both phases alike.
# fpmod's CPU (utime + stime ticks, /proc/PID/stat) and the wall time of each block.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$service_pid/stat"; }
block() { # PHASE ROUND
  local before start
  before=$(cpu_ticks)
  start=$(date +%s.%N)
  "$venv/bin/python" tools/ha/touch_latency.py "$sockets/events.sock" "$sockets/sim-control.sock" carol-left-index \
    "$per_round" >"$work/$1-$2.json"
  echo "$(($(cpu_ticks) - before)) $(getconf CLK_TCK) $start $(date +%s.%N)" >"$work/cpu-$1-$2.txt"
}
per_round=$(((touches + rounds - 1) / rounds))
for round in $(seq 1 "$rounds"); do
  say "round $round/$rounds: $per_round touches idle, then $per_round under $rate messages/s"
  block idle "$round"
  nice -n "$flood_nice" "$venv/bin/python" tools/ha/flood.py --port "$BROKER_PORT" --user homeassistant --password-file "$work/ha.password" \
    --device front-door --rate "$rate" --seconds 3600 --ready "$work/flooding-$round" >"$work/publisher-$round.json" &
  flood_pid=$!
  # The publisher's start (paho, connect, discovery) takes a while on a busy machine: the touches
  # wait until it floods, and a SIGTERM before it could report would lose its counts.
  n=0
  until [ -e "$work/flooding-$round" ]; do
    n=$((n + 1))
    { [ $n -lt 300 ] && kill -0 "$flood_pid" 2>/dev/null; } || die "the flood publisher did not start"
    sleep 0.1
  done
  sleep 1  # the flood at its rate before the first touch
  block flood "$round"
  kill -TERM "$flood_pid"
  wait "$flood_pid" || true
  flood_pid=""
  kill -0 "$service_pid" || die "fpmod run died during the flood: $(tail -n 20 "$work/run.log")"
done
say "fpmod logged $(grep -c "mqtt: ignoring" "$work/run.log" || true) 'ignoring' lines (throttled: one per kind per 10 s, with a count)"
grep "mqtt: ignoring" "$work/run.log" | tail -n 3 | sed 's/^/  /'
"$venv/bin/python" tools/ha/flood_report.py "$work"
