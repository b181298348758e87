#!/usr/bin/env bash
# Home Assistant end to end (issue 12): a real mosquitto (its own config on a free loopback
# port, passwords on, anonymous off), `fpmod run --sim --sim-gpio` with an mqtt section, and
# paho-mqtt from PyPI playing Home Assistant (tools/ha/ha_client.py), which finds every topic
# through the discovery payload. Checks: discovery and its entities; an enrolled finger's touch
# unlocks with changed_by and locks again; UNLOCK with the right code opens, a wrong one does
# not and counts; "online" on homeassistant/status brings discovery again; SIGKILL leaves the
# retained will "offline"; a retained UNLOCK on the command topic does nothing on restart.
#
# Usage: tools/ha-e2e.sh            (exit 0 when every check passes)
# Env:   HA_VENV   virtual environment to create or reuse (default .build/ha-venv)
#        FPMOD     the fpmod binary (default: this checkout's debug build, built first)
set -euo pipefail

SCRIPT_NAME=ha-e2e
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=tools/lib/script-steps.sh
. tools/lib/script-steps.sh
# shellcheck source=tools/lib/checks.sh
. tools/lib/checks.sh

venv="${HA_VENV:-$root/.build/ha-venv}"
# shellcheck source=tools/lib/mosquitto.sh
. tools/lib/mosquitto.sh

step "tools: paho-mqtt, mosquitto, fpmod"
paho_venv "$venv"
if [ -z "${FPMOD:-}" ]; then
  swift build --product fpmod >&2
  FPMOD="$(swift build --product fpmod --show-bin-path)/fpmod"
fi
step_done

work="$(mktemp -d "${TMPDIR:-/tmp}/fpmod-ha-e2e.XXXXXX")"
service_pid=""
cleanup() {
  if [ -n "$service_pid" ]; then kill "$service_pid" 2>/dev/null || true; wait "$service_pid" 2>/dev/null || true; fi
  broker_stop
  rm -rf "$work"
}
trap cleanup EXIT

wait_for() { # DESCRIPTION SECONDS COMMAND...: true once COMMAND succeeds
  local what=$1 limit=$2 n=0
  shift 2
  until "$@" 2>/dev/null; do
    n=$((n + 1))
    [ $n -le $((limit * 10)) ] || { say "gave up waiting for $what"; return 1; }
    sleep 0.1
  done
}

step "mosquitto on a free loopback port, authentication on"
broker_start "$work"
port=$BROKER_PORT
step_done

# The service's files, all under $work: store, key, sockets, the MQTT password (0600).
lock_service_files "$work" '{"relayPulseSeconds": 0.5, "pinRequiredAfterEnrolledSetChange": false, "pinRequiredAfterRestart": false}'
sim_control="$sockets/sim-control.sock"
ha() { "$venv/bin/python" tools/ha/ha_client.py --port "$port" --user homeassistant --password-file "$work/ha.password" --device front-door "$@"; }
# check TEXT CHECK [ARGS]: one ha_client.py check as one ok/FAIL line.
check() {
  local text=$1 out
  shift
  if out=$(ha "$@" 2>&1); then pass "$text: $out"; else fail "$text: $out"; fi
}
start_service() {
  "$FPMOD" --config "$work/config.json" run --sim --sim-gpio >>"$work/run.log" 2>&1 &
  service_pid=$!
  wait_for "the service's control socket" 30 test -S "$sockets/control.sock" || { cat "$work/run.log" >&2; die "fpmod run did not start"; }
}

step "fpmod run --sim --sim-gpio; carol enrolled through it, with a PIN"
"$FPMOD" --config "$work/config.json" config check "$work/config.json" >/dev/null || die "config check failed"
start_service
module_connected() { "$FPMOD" --config "$work/config.json" status --json | grep -q '"module" *: *"connected"'; }
wait_for "the simulated module" 30 module_connected || { cat "$work/run.log" >&2; die "the module never connected"; }
python3 tools/lib/simctl.py "$sim_control" "touch carol-left-index 6" >/dev/null
"$FPMOD" --config "$work/config.json" enroll carol --finger left-index >"$work/enroll.log" 2>&1 || { cat "$work/run.log" >&2; die "enroll failed"; }
"$FPMOD" --config "$work/config.json" pin carol --pin 4826 >/dev/null
step_done

step "Home Assistant's checks"
check "discovery: the device with lock, event, binary_sensor and sensor entities" discovery
check "an enrolled finger's touch unlocks with changed_by, then locks" touch "$sim_control" carol-left-index
check "UNLOCK with carol's PIN as the code opens" unlock 4826
check "UNLOCK with a wrong code does not open" wrong-code 1357
if "$FPMOD" --config "$work/config.json" status --json | grep -q '"pinFailures" *: *1'; then
  pass "the wrong code counts toward the PIN lockout (fpmod status: pinFailures 1)"
else
  fail "the wrong code was not counted: $("$FPMOD" --config "$work/config.json" status --json | tr -d '\n')"
fi
check "'online' on homeassistant/status brings discovery again" rediscovery

kill -KILL "$service_pid"
wait "$service_pid" 2>/dev/null || true
service_pid=""
check "SIGKILL: the broker publishes the retained will" availability offline

# The right code, retained: if a restart acted on it, the door would open.
check "a retained UNLOCK (right code) is left on the command topic" leave-retained-unlock 4826
start_service
check "restarted: the retained UNLOCK does nothing" retained-unlock-ignored
if wait_for "the log line" 10 grep -q "ignoring a retained command" "$work/run.log"; then
  pass "restarted: the service logged that it ignored the retained command"
else
  fail "restarted: no log line about the retained command"
fi
check "the retained command is cleared" clear-retained-command
check "a touch still opens after the restart" touch "$sim_control" carol-left-index
step_done

if [ "$failed" -ne 0 ]; then
  say "service log:"
  sed 's/^/  /' "$work/run.log"
  say "broker log (last 40 lines):"
  tail -n 40 "$work/mosquitto.log" | sed 's/^/  /'
fi
checks_summary
