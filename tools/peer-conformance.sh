#!/usr/bin/env bash
# Peer conformance: runs the normal flows of pyfingerprint 1.5 and
# adafruit-circuitpython-fingerprint (from PyPI, unchanged) against `fpmod sim`.
# A symmetric bug between our own driver and simulator is invisible; these clients are not ours.
#
# Usage: tools/peer-conformance.sh            (exit 0 when every flow passes)
# Env:   PEERS_VENV   virtual environment to create or reuse (default .build/peers-venv)
#        SIM_TIMING   timing mode of the simulator (default instant; try datasheet)
#        PEERS_SIM_ROOT  a Debian root whose installed /usr/bin/fpmod serves instead of this
#                     checkout's build, run with chroot (tools/arm64-test.sh: the arm64 package
#                     under qemu-user); the peers still run here
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
venv="${PEERS_VENV:-$root/.build/peers-venv}"
timing="${SIM_TIMING:-instant}"

if [ ! -x "$venv/bin/python" ] || ! PYTHONPATH="$root/tools/peers/stubs" "$venv/bin/python" -c 'import pyfingerprint, serial, adafruit_fingerprint' 2>/dev/null; then
    echo "peer-conformance: creating $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'pyfingerprint==1.5' pyserial
    # The library pulls Adafruit-Blinka and friends; it only needs busio.UART and micropython.const,
    # which tools/peers/stubs provides on plain Linux.
    "$venv/bin/pip" install --quiet --no-deps adafruit-circuitpython-fingerprint
fi

sim_root="${PEERS_SIM_ROOT:-}"
if [ -z "$sim_root" ]; then
    echo "peer-conformance: building fpmod" >&2
    swift build --product fpmod >&2
    sim=("$(swift build --product fpmod --show-bin-path)/fpmod")
    work="$(mktemp -d "${TMPDIR:-/tmp}/fpmod-peers.XXXXXX")"
else
    [ -x "$sim_root/usr/bin/fpmod" ] || { echo "peer-conformance: no /usr/bin/fpmod in $sim_root" >&2; exit 1; }
    sim=(chroot "$sim_root" /usr/bin/fpmod)
    # Inside the root, so the simulator and the peers name the same files.
    work="$(mktemp -d "$sim_root/tmp/fpmod-peers.XXXXXX")"
fi
# The simulator's view of a path under $work (the same, unless it runs in $sim_root).
sim_path() { echo "${1#"$sim_root"}"; }
sim_pid=""
cleanup() {
    if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

failed=0
run_peer() {
    local name="$1" script="$2"
    local dir="$work/$name"
    mkdir -p "$dir"
    "${sim[@]}" sim --profile r307 --timing "$timing" --link "$(sim_path "$dir/sim0")" \
        --control "$(sim_path "$dir/control")" >"$dir/device" 2>"$dir/sim.log" &
    sim_pid=$!
    for _ in $(seq 1 400); do  # up to 20 s: an emulated simulator starts slower
        [ -S "$dir/control" ] && [ -L "$dir/sim0" ] && break
        sleep 0.05
    done
    if ! [ -S "$dir/control" ]; then
        echo "peer-conformance: fpmod sim did not start:" >&2
        cat "$dir/sim.log" >&2
        failed=1
        return
    fi
    # A real module is powered long before the program opens the port; neither peer waits for
    # the boot byte (commands sent while the module boots are lost), so let it finish booting.
    [ "$timing" = instant ] || sleep 1
    echo "== $name against fpmod sim on $(head -n1 "$dir/device") ($timing timing)"
    if ! PYTHONPATH="$root/tools/peers:$root/tools/peers/stubs" timeout 300 "$venv/bin/python" "$root/tools/peers/$script" \
        "$dir/sim0" "$dir/control"; then
        failed=1
    fi
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
    sim_pid=""
    if [ -e "$dir/sim0" ] || [ -e "$dir/control" ]; then
        echo "peer-conformance: fpmod sim left its link or control socket behind after SIGTERM" >&2
        failed=1
    fi
}

run_peer pyfingerprint pyfingerprint_flow.py
run_peer adafruit adafruit_flow.py

if [ "$failed" -ne 0 ]; then
    echo "peer-conformance: FAILED" >&2
    exit 1
fi
echo "peer-conformance: all peers passed"
