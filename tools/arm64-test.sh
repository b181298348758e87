#!/usr/bin/env bash
# Proof that the arm64 package works: in a fresh Debian 13 arm64 root under qemu-user,
#
#   sudo tools/arm64-test.sh dist/fpmod_<version>_arm64.deb
#
# 1. `apt-get install ./fpmod_<version>_arm64.deb` pulls its dependencies from Debian.
# 2. fpmod --version, fpmod --sim info, fpmod demo and fpmod doctor run.
# 3. fpmod sim from the package serves the peer-conformance flows (pyfingerprint and
#    Adafruit's library, run on the host; tools/peer-conformance.sh with PEERS_SIM_ROOT).
# 4. The arm64 fpmod talks to this machine's amd64 fpmod sim over a pseudo-terminal: enroll,
#    identify, and a stranger refused.
# 5. The maintainer scripts: what the first install made (user, groups, config, a 0600 key);
#    installing the package again over itself (prerm upgrade, postinst configure OLD) keeps
#    the config, key and the service user's store byte for byte; remove keeps them, purge
#    deletes them and the user. (A running service's restart needs systemd, which the root
#    does not run.)
# Prints "ok ..."/"FAIL ..." per check and "N passed, M failed" last; exits 0 only if all pass.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/lib/debian-root.sh
. "$REPO/tools/lib/debian-root.sh"
DEB=${1:?usage: tools/arm64-test.sh dist/fpmod_VERSION_arm64.deb}
[ -f "$DEB" ] || { echo "arm64-test: no such package $DEB" >&2; exit 66; }
DEB=$(cd "$(dirname "$DEB")" && pwd)/$(basename "$DEB")
[ "$(id -u)" -eq 0 ] || { echo "arm64-test: needs root (chroot, bind mounts); run it with sudo" >&2; exit 77; }

say() { echo "arm64-test: $*"; }
# shellcheck source=tools/lib/checks.sh
. "$REPO/tools/lib/checks.sh"
finish() {
  checks_summary
  exit
}
timed() { # NAME COMMAND... : runs it, says how long it took
  local t0=$SECONDS
  "${@:2}"
  local rc=$?
  say "$1: $((SECONDS - t0)) s"
  return $rc
}

SIM_PID=
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  [ -z "$SIM_PID" ] || { kill "$SIM_PID" 2>/dev/null; wait "$SIM_PID" 2>/dev/null; } || true
  debian_roots_cleanup
}
trap cleanup EXIT
trap 'exit 130' INT TERM

debian_enable_arm64
BASE=$(debian_base trixie arm64)
debian_root_new "$BASE"
say "fresh Debian 13 arm64 root: $ROOT ($(chroot "$ROOT" uname -m) under qemu-user)"

# --- 1. The package and its dependencies from Debian.
cp "$DEB" "$ROOT/tmp/"
if timed "apt-get install" inside "apt-get update -qq && apt-get install -y -qq --no-install-recommends /tmp/$(basename "$DEB") >/tmp/apt.log 2>&1"; then
  pass "apt-get install ./$(basename "$DEB") pulled: $(inside "grep -c '^Unpacking' /tmp/apt.log") packages"
else
  fail "apt-get install ./$(basename "$DEB")"
  sed 's/^/    /' "$ROOT/tmp/apt.log" | tail -n 30
  finish
fi
version=$(sed -n 's/^ *static let version = "fpmod \([^"]*\)".*/\1/p' "$REPO/Sources/fpmod/Program.swift")

# --- 2. The commands a new user runs first.
check() { # NAME COMMAND_LINE_INSIDE [EXPECTED_TEXT]
  local out rc
  out=$(inside "$2" 2>&1) && rc=0 || rc=$?
  if [ "$rc" = 0 ] && { [ -z "${3:-}" ] || grep -q -- "$3" <<<"$out"; }; then
    pass "$1"
  else
    fail "$1 (exit $rc)"
    tail -n 20 <<<"$out" | sed 's/^/    /'
  fi
}
check "fpmod --version prints $version and the libgpiod 2 backend" "fpmod --version" "fpmod $version"
check "fpmod --version: libgpiod v2 API" "fpmod --version" "(v2 API)"
check "fpmod --sim info" "cd /tmp && fpmod --sim info --store /tmp/info.db --key /tmp/info.key"
check "fpmod demo (every scene)" "cd /tmp && timeout 600 fpmod demo"
doctor_rc=0
inside "fpmod doctor >/tmp/doctor.out 2>&1" || doctor_rc=$?
# No module and no Pi here: problems are expected (exit 1); anything else is not.
if [ "$doctor_rc" -le 1 ] && [ -s "$ROOT/tmp/doctor.out" ]; then
  pass "fpmod doctor ran its checklist (exit $doctor_rc, $(wc -l <"$ROOT/tmp/doctor.out") lines)"
else
  fail "fpmod doctor (exit $doctor_rc)"
  sed 's/^/    /' "$ROOT/tmp/doctor.out" | tail -n 20
fi

# --- 3. The package's simulator against the peers on the host.
if timed "peer conformance" env PEERS_SIM_ROOT="$ROOT" "$REPO/tools/peer-conformance.sh" >"$ROOT/tmp/peers.log" 2>&1; then
  pass "peer conformance: pyfingerprint and Adafruit against the arm64 fpmod sim ($(grep -c "^  ok " "$ROOT/tmp/peers.log") steps passed)"
else
  fail "peer conformance against the arm64 fpmod sim"
  tail -n 30 "$ROOT/tmp/peers.log" | sed 's/^/    /'
fi

# --- 4. The arm64 CLI against the amd64 simulator, over a pseudo-terminal.
(cd "$REPO" && swift build --product fpmod >/dev/null)
HOST_FPMOD=$(cd "$REPO" && swift build --product fpmod --show-bin-path)/fpmod
W=/tmp/cross
mkdir -p "$ROOT$W"
"$HOST_FPMOD" sim --profile r307 --link "$ROOT$W/sim0" --control "$ROOT$W/control" >"$ROOT$W/device" 2>"$ROOT$W/sim.log" &
SIM_PID=$!
for _ in $(seq 1 100); do [ -S "$ROOT$W/control" ] && [ -L "$ROOT$W/sim0" ] && break; sleep 0.1; done
simctl() { python3 -c 'import socket,sys
s=socket.socket(socket.AF_UNIX); s.settimeout(20); s.connect(sys.argv[1]); s.sendall((sys.argv[2]+"\n").encode())
r=b""
while b"\n" not in r:
    c=s.recv(4096)
    if not c: break
    r+=c
print(r.decode().split("\n")[0])' "$ROOT$W/control" "$1"; }
store="--port $W/sim0 --store $W/store.db --key $W/store.key"
say "amd64 fpmod sim on $(head -n 1 "$ROOT$W/device"); the arm64 fpmod is the host side"
simctl "touch alice-right-index 2" >/dev/null
check "arm64 fpmod enroll alice against the amd64 fpmod sim" "fpmod $store enroll alice --timeout 120s"
simctl "touch alice-right-index 1" >/dev/null
check "arm64 fpmod identify: alice matches" "fpmod $store identify --timeout 120s" "alice"
simctl "touch stranger 1" >/dev/null
stranger_rc=0
inside "fpmod $store identify --timeout 120s" >"$ROOT$W/stranger.out" 2>&1 || stranger_rc=$?
if [ "$stranger_rc" = 1 ]; then
  pass "arm64 fpmod identify: a stranger is refused (exit 1)"
else
  fail "arm64 fpmod identify: a stranger (exit $stranger_rc, expected 1)"
  sed 's/^/    /' "$ROOT$W/stranger.out"
fi
# --- 5. The maintainer scripts.
packaged="--store /var/lib/fpmod/fpmod.db --key /etc/fpmod/store.key"
check "first install: user fpmod in groups dialout and gpio" "id -nG fpmod | tr ' ' '\n' | grep -qx dialout && id -nG fpmod | tr ' ' '\n' | grep -qx gpio"
check "first install: store key 0600 fpmod:fpmod, config for a board" \
  "[ \"\$(stat -c '%a %U:%G' /etc/fpmod/store.key)\" = '600 fpmod:fpmod' ] && grep -q '\"board\"' /etc/fpmod/config.json"
simctl "touch bob-right-index 2" >/dev/null
check "bob enrolled into the packaged store paths" "fpmod --port $W/sim0 $packaged enroll bob --timeout 120s"
sums="sha256sum /etc/fpmod/store.key /etc/fpmod/config.json /var/lib/fpmod/fpmod.db"
before=$(inside "$sums")
check "installing the package again over itself (an upgrade's scripts)" "dpkg -i /tmp/$(basename "$DEB") >/tmp/dpkg.log 2>&1"
if [ "$(inside "$sums")" = "$before" ]; then
  pass "config, key and store are byte for byte the same after it"
else
  fail "config, key or store changed on reinstall"
fi
check "bob is still enrolled after it" "fpmod $packaged list" "bob"
check "apt-get remove keeps config, key and store" \
  "apt-get remove -y -qq fpmod >/dev/null 2>&1 && [ -s /etc/fpmod/store.key ] && [ -s /var/lib/fpmod/fpmod.db ]"
check "apt-get purge deletes them and the user" \
  "apt-get purge -y -qq fpmod >/dev/null 2>&1 && [ ! -e /etc/fpmod ] && [ ! -e /var/lib/fpmod ] && ! id fpmod >/dev/null 2>&1"
finish
