#!/usr/bin/env bash
# The door lock on a real kernel GPIO chip: `fpmod run` inside the gpio-vm test VM
# (../shared/tools/gpio-vm: a gpio-sim chip driven through libgpiod, a 16550 UART on ttyS1),
# with the fingerprint module simulated on the host by `fpmod sim` and wired to ttyS1.
#
#   tools/gpio-vm-test.sh [--guest-root ROOT --guest-binary PATH] [CACHE_DIR]
#       CACHE_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/fpmod-gpio-vm
#   GPIO_VM_DIR=/path/to/shared/tools/gpio-vm   when shared/ is not next to the repository
#   sudo tools/gpio-vm-test.sh --arch arm64 --deb dist/fpmod_VERSION_arm64.deb [CACHE_DIR]
#       the same test on an arm64 kernel: the package's fpmod in an aarch64 guest
#       (tools/gpio-vm-arm64: qemu-system-aarch64 -M virt under TCG, Debian 13's arm64 kernel
#       with gpio-sim built for it, libgpiod 2's tools, the module's 16550 on ttyS1);
#       CACHE_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/fpmod-gpio-vm-arm64. Needs root.
#
# By default the guest runs this machine's build (libgpiod 1.6 on Debian 12). With
# --guest-root, it runs PATH, a binary built inside the Debian root ROOT (PATH as seen from
# inside it), with ROOT's libraries: tools/debian13-test.sh uses this to run a build made
# against Debian 13's libgpiod 2 on the same VM. Either way the guest checks that the binary's
# libgpiod API (`fpmod --version`) is the one expected: v2 for a --guest-root whose
# pkg-config reports libgpiod 2, else v1.
#
# 1. Builds fpmod (release, --static-swift-stdlib) and the VM (build.sh; seconds when cached).
# 2. Host: `fpmod sim` with a flash file; `fpmod enroll alice` through the CLI against it, so
#    the store and the module's flash agree; the simulator stops and starts again on the same
#    flash, and its pty becomes the guest's ttyS1.
# 3. Guest (tools/gpio-vm/run): `fpmod run --config tools/gpio-vm/config.json`, then through
#    the chip: alice's touch -> match -> relay pulse; a stranger -> no-match, relay off; exit
#    button -> relay; door held open -> door-held-open alarm. The guest prints
#    "NEED-FINGER NAME" before each scan and this script answers `touch NAME 1` on the
#    simulator's control socket.
# Prints "ok ..."/"FAIL ..." per check, each step's time, and "N passed, M failed" last;
# exits 0 only if all pass.
# Needs python3 (the simulator's control socket is a Unix socket; busybox and bash lack a client).
set -euo pipefail

GUEST_ROOT=
GUEST_BINARY=
ARCH=amd64
DEB=
while [ $# -gt 0 ]; do
  case $1 in
  --guest-root) GUEST_ROOT=${2:?--guest-root needs a directory}; shift 2 ;;
  --guest-binary) GUEST_BINARY=${2:?--guest-binary needs a path}; shift 2 ;;
  --arch) ARCH=${2:?--arch needs amd64 or arm64}; shift 2 ;;
  --deb) DEB=${2:?--deb needs a package}; shift 2 ;;
  --) shift; break ;;
  -*) echo "gpio-vm-test: unknown option $1 (see the comment at the top of $0)" >&2; exit 64 ;;
  *) break ;;
  esac
done
if [ -n "$GUEST_ROOT" ] && [ -z "$GUEST_BINARY" ]; then
  echo "gpio-vm-test: --guest-root needs --guest-binary (the fpmod binary inside it)" >&2
  exit 64
fi

case $ARCH in
amd64) [ -z "$DEB" ] || { echo "gpio-vm-test: --deb goes with --arch arm64" >&2; exit 64; } ;;
arm64)
  [ -n "$DEB" ] || { echo "gpio-vm-test: --arch arm64 needs --deb dist/fpmod_VERSION_arm64.deb" >&2; exit 64; }
  [ -z "$GUEST_ROOT" ] || { echo "gpio-vm-test: --guest-root is for the amd64 VM" >&2; exit 64; }
  [ -f "$DEB" ] || { echo "gpio-vm-test: no such package $DEB" >&2; exit 66; }
  [ "$(id -u)" = 0 ] || { echo "gpio-vm-test: --arch arm64 needs root (its VM build uses an arm64 root); run it with sudo" >&2; exit 77; }
  DEB=$(cd "$(dirname "$DEB")" && pwd)/$(basename "$DEB")
  ;;
*) echo "gpio-vm-test: --arch is amd64 or arm64, not $ARCH" >&2; exit 64 ;;
esac

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "$ARCH" = arm64 ]; then
  VM=$REPO/tools/gpio-vm-arm64
  CACHE=${1:-${XDG_CACHE_HOME:-${HOME:?HOME is unset; pass CACHE_DIR}/.cache}/fpmod-gpio-vm-arm64}
else
  # The tool lives in shared/, a sibling of the clone (GPIO_VM_DIR overrides, e.g. for worktrees).
  VM=${GPIO_VM_DIR:-$(dirname "$REPO")/shared/tools/gpio-vm}
  CACHE=${1:-${XDG_CACHE_HOME:-${HOME:?HOME is unset; pass CACHE_DIR}/.cache}/fpmod-gpio-vm}
fi
PROFILE=${FPMOD_VM_SIM_PROFILE:-r307}
PAYLOAD_SOURCE=$REPO/tools/gpio-vm

say() { echo "gpio-vm-test: $*"; }
T_START=$(date +%s%N)
T_STEP=$T_START
secs() { local ms=$((($(date +%s%N) - $1) / 1000000)); printf '%d.%d s' $((ms / 1000)) $((ms / 100 % 10)); }
step_time() { # NAME: the time since the last step_time
  say "time: $1 $(secs "$T_STEP")"
  T_STEP=$(date +%s%N)
}
die() {
  say "$*" >&2
  exit 1
}

for tool in build.sh run.sh payload.sh; do
  [ -x "$VM/$tool" ] ||
    die "the gpio-vm tool is not at $VM (expected ../shared/tools/gpio-vm next to the repository, with build.sh, run.sh and payload.sh); check out shared/ beside $REPO or set GPIO_VM_DIR"
done
command -v python3 >/dev/null || die "python3 is needed to talk to the simulator's control socket; install python3 (tools/install-deps.sh does)"

# shellcheck source=tools/lib/checks.sh
. "$REPO/tools/lib/checks.sh"
# shellcheck source=tools/lib/sim.sh
. "$REPO/tools/lib/sim.sh"
finish() {
  say "time: whole test $(secs "$T_START")"
  checks_summary && exit 0
  exit 1
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fpmod-gpio-vm-test.XXXXXX")
SIM_PID=
stop_sim() {
  [ -n "$SIM_PID" ] || return 0
  kill -TERM "$SIM_PID" 2>/dev/null || true
  wait "$SIM_PID" 2>/dev/null || true
  SIM_PID=
}
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  stop_sim
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. Build fpmod and the VM.
say "building fpmod (release, static Swift stdlib)"
(cd "$REPO" && swift build -c release --static-swift-stdlib --product fpmod)
FPMOD=$(cd "$REPO" && swift build -c release --static-swift-stdlib --show-bin-path)/fpmod
[ -x "$FPMOD" ] || die "no fpmod binary at $FPMOD after the build"
step_time "host fpmod build"
say "preparing the VM in $CACHE"
"$VM/build.sh" "$CACHE"
step_time "VM build ($ARCH)"

# --- 2. The simulated module and the store, on the host.
SIM_CONTROL=$WORK/sim.sock

# start_sim [--link PATH]: serves the flash file in $WORK; SIM_TTY is the pty slave.
start_sim() {
  rm -f "$SIM_CONTROL"
  "$FPMOD" sim --profile "$PROFILE" --state "$WORK/flash" --control "$SIM_CONTROL" "$@" \
    >"$WORK/sim.out" 2>>"$WORK/sim.err" &
  SIM_PID=$!
  sim_wait_started "$SIM_PID" "$WORK/sim.out" "$WORK/sim.err"
}

PAYLOAD=$WORK/payload
mkdir -p "$PAYLOAD/store"
STORE=(--store "$PAYLOAD/store/store.db" --key "$PAYLOAD/store/store.key")

start_sim --link "$WORK/ttyFP"
say "simulated $PROFILE on $SIM_TTY; enrolling alice through the CLI"
# Enrollment takes two captures, each a press the host must see lifted before the next.
simctl "touch alice-right-index 2" >/dev/null
if "$FPMOD" --port "$WORK/ttyFP" "${STORE[@]}" enroll alice --timeout 60s 2>"$WORK/enroll.err"; then
  pass "host: fpmod enroll alice against fpmod sim"
else
  fail "host: fpmod enroll alice against fpmod sim (exit $?)"
  sed 's/^/    /' "$WORK/enroll.err"
fi
# alice's PIN, for the keypad at the door (section e of the payload).
if echo 7391 | "$FPMOD" "${STORE[@]}" pin alice 2>"$WORK/pin.err"; then
  pass "host: fpmod pin alice"
else
  fail "host: fpmod pin alice (exit $?)"
  sed 's/^/    /' "$WORK/pin.err"
fi
# alice's Wiegand card, for the reader at the door (section h of the payload).
if "$FPMOD" "${STORE[@]}" card add alice 26:123:4567 --label badge >/dev/null 2>"$WORK/card.err" \
  && "$FPMOD" "${STORE[@]}" card panel alice 26:123:4567 >/dev/null 2>>"$WORK/card.err"; then
  pass "host: fpmod card add alice"
else
  fail "host: fpmod card add alice (exit $?)"
  sed 's/^/    /' "$WORK/card.err"
fi
stop_sim
step_time "host enrollment"
if [ -s "$WORK/flash" ]; then pass "host: the simulator kept its flash in a file"; else fail "host: the simulator kept its flash in a file"; fi
[ "$failed" = 0 ] || {
  say "cannot boot the VM without an enrolled user"
  finish
}

# --- 3. The payload, and the simulator again (same flash) on the guest's ttyS1.
if [ "$ARCH" = arm64 ]; then
  # The package's binary, with what it loads on Debian 13 arm64.
  "$VM/payload.sh" "$DEB" "$PAYLOAD"
  gpiod_version=$(cat "$PAYLOAD/libgpiod-version")
  gpiod_version=${gpiod_version%%-*}
  GUEST_BINARY="$DEB: /usr/bin/fpmod (arm64)"
elif [ -z "$GUEST_ROOT" ]; then
  "$VM/payload.sh" "$FPMOD" "$PAYLOAD" >/dev/null
  gpiod_version=$(pkg-config --modversion libgpiod)
else
  # The binary and every library it loads come from ROOT: run payload.sh (ldd) inside it.
  [ -x "$GUEST_ROOT$GUEST_BINARY" ] || die "no executable $GUEST_BINARY inside $GUEST_ROOT"
  inside=/tmp/fpmod-vm-payload.$$
  rm -rf "$GUEST_ROOT$inside"
  mkdir -p "$GUEST_ROOT$inside"
  cp "$VM/payload.sh" "$GUEST_ROOT$inside/payload.sh"
  chroot "$GUEST_ROOT" "$inside/payload.sh" "$GUEST_BINARY" "$inside/out" >/dev/null
  cp -a "$GUEST_ROOT$inside/out/." "$PAYLOAD/"
  rm -rf "$GUEST_ROOT$inside"
  gpiod_version=$(chroot "$GUEST_ROOT" pkg-config --modversion libgpiod)
fi
echo "${gpiod_version%%.*}" >"$PAYLOAD/expect-libgpiod-api"
say "guest binary: ${GUEST_ROOT:+$GUEST_ROOT:}${GUEST_BINARY:-$FPMOD}, built against libgpiod $gpiod_version"
cp "$PAYLOAD_SOURCE/run" "$PAYLOAD_SOURCE/config.json" "$PAYLOAD_SOURCE/lines" "$PAYLOAD/"
# The input modules of the VM's kernel (Debian builds evdev and uinput as modules), for the
# keypad checks: from the very linux-image package the VM boots, kept beside the VM's cache.
# amd64: the host's apt (the VM boots the host's Debian 12 kernel). arm64: the kernel is Debian
# 13's, known only to the arm64 builder root's lists (tools/gpio-vm-arm64), which the host's
# apt-cache reads as build.sh does; the .deb comes from that root's mirror and must match the
# SHA256 of those lists, which apt verified against the signed release file.
kernel_deb_arm64() { # PKG VERSION DIR
  local root=${FPMOD_CI_CACHE:-/var/cache/fpmod-ci}/gpio-vm-arm64-builder show mirror file sum
  show=$(apt-cache -o Dir::State::Lists="$root/var/lib/apt/lists" -o Dir::State::status="$root/var/lib/dpkg/status" \
    -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Architecture=arm64 \
    -o Dir::Etc::SourceList="$root/etc/apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
    -o Dir::Etc::Preferences=/nonexistent -o Dir::Etc::PreferencesParts=/nonexistent \
    show "$1=$2" 2>/dev/null) || return 1
  file=$(sed -n 's/^Filename: //p' <<<"$show" | head -n 1)
  sum=$(sed -n 's/^SHA256: //p' <<<"$show" | head -n 1)
  mirror=$(awk '$1 == "deb" { print $2; exit }' "$root/etc/apt/sources.list")
  [ -n "$file" ] && [ -n "$sum" ] && [ -n "$mirror" ] || return 1
  curl -fsS -o "$3/kernel.deb" "${mirror%/}/$file" || return 1
  echo "$sum  $3/kernel.deb" | sha256sum -c --quiet
}
input_modules() { # -> input-modules/ in the payload
  local info pkg version dir tmp
  info=$(sed -n 's/^kernel: //p' "$CACHE/current/BUILD-INFO")
  pkg=${info%% *}
  version=${info#* }
  version=${version%% *}
  dir=$CACHE/input-modules-${pkg#linux-image-}_$version
  if [ ! -f "$dir/uinput.ko" ] || [ ! -f "$dir/evdev.ko" ]; then
    tmp=$(mktemp -d "$WORK/kernel.XXXXXX")
    if [ "$ARCH" = arm64 ]; then
      kernel_deb_arm64 "$pkg" "$version" "$tmp" || return 1
    else
      (cd "$tmp" && apt-get download -q "$pkg=$version" >/dev/null 2>&1) || return 1
    fi
    dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -x -C "$tmp" --wildcards '*/drivers/input/evdev.ko*' '*/drivers/input/misc/uinput.ko*' || return 1
    mkdir -p "$dir.new"
    find "$tmp" -name '*.ko' -exec cp {} "$dir.new/" \;
    find "$tmp" -name '*.ko.xz' -exec sh -c 'xz -dc "$1" >"$2/$(basename "${1%.xz}")"' _ {} "$dir.new" \;
    [ -f "$dir.new/uinput.ko" ] && [ -f "$dir.new/evdev.ko" ] || return 1
    rm -rf "$dir" && mv "$dir.new" "$dir"
  fi
  mkdir -p "$PAYLOAD/input-modules"
  cp "$dir/evdev.ko" "$dir/uinput.ko" "$PAYLOAD/input-modules/"
}
if input_modules; then pass "host: evdev and uinput of the VM's $ARCH kernel for the keypad checks"; else fail "host: evdev and uinput of the VM's $ARCH kernel (downloading its linux-image failed)"; fi
chmod +x "$PAYLOAD/run"
step_time "payload"
start_sim
say "simulator on $SIM_TTY is the guest's ttyS1; booting the VM"

# The amd64 guest's CPU: QEMU's default qemu64 plus SSSE3, which every machine that runs fpmod
# has (qemu64 alone stops at SSE3). Not a whole Nehalem: with SSE4.2 glibc picks string routines
# (pcmpistri) that TCG emulates slowly, and g2's shell sampler then missed 2 ms pulses. The
# Swift runtimes use SSSE3:
# Debian 13's (swiftlang 6.0.3, linked into the Debian 13 build and the amd64 .deb) vectorises
# a popcount in _swift_stdlib_getMphIdx, the Unicode property lookup behind
# Character.wholeNumberValue, with pshufb, so on qemu64 `fpmod keypad type 3` died of SIGILL
# (found with qemu-x86_64 -cpu qemu64; with qemu64,+ssse3 it runs); swift.org's 6.3 runtime
# has pshufb in StringRef::find. run.sh (shared/tools/gpio-vm) takes no CPU option: a
# qemu-system-x86_64 ahead of the real one on its PATH adds it.
QEMU_PATH=$PATH
if [ "$ARCH" = amd64 ]; then
  qemu=$(command -v qemu-system-x86_64 || true)
  if [ -n "$qemu" ]; then
    mkdir -p "$WORK/qemu-cpu"
    printf '#!/bin/sh\nexec %q -cpu qemu64,+ssse3 "$@"\n' "$qemu" >"$WORK/qemu-cpu/qemu-system-x86_64"
    chmod +x "$WORK/qemu-cpu/qemu-system-x86_64"
    QEMU_PATH=$WORK/qemu-cpu:$PATH
  fi
fi

# The console streams through; "NEED-FINGER NAME" from the guest is answered here.
set +e
PATH=$QEMU_PATH "$VM/run.sh" "$CACHE" "$PAYLOAD" --serial-pty "$SIM_TTY" 2>&1 |
  while IFS= read -r line; do
    line=${line%$'\r'}
    printf '%s\n' "$line"
    printf '%s\n' "$line" >>"$WORK/console.log"
    case $line in
    "NEED-FINGER "*)
      name=${line#NEED-FINGER }
      echo "host: touch $name 1 -> $(simctl "touch $name 1" 2>&1)"
      ;;
    esac
  done
rc=${PIPESTATUS[0]}
set -e
touch "$WORK/console.log"
step_time "VM run (boot, payload, power-off)"
boot=$(grep -o 'guest uptime [0-9.]* s' "$WORK/console.log" | head -n 1 || true)
[ -z "$boot" ] || say "time: the guest's kernel and init reached the payload at ${boot#guest }"

# --- 4. The verdict: the guest's checks, the VM's exit status, what the simulator saw.
guest_passed=$(grep -c '^ok ' "$WORK/console.log" || true)
guest_failed=$(grep -c '^FAIL ' "$WORK/console.log" || true)
passed=$((passed + guest_passed))
failed=$((failed + guest_failed))
case $rc in
0) pass "VM: the payload exited 0" ;;
125) fail "VM: no verdict (run.sh exit 125: QEMU, guest setup or the GPIO_VM_TIMEOUT failed; see the console above)" ;;
130) fail "VM: interrupted (run.sh exit 130)" ;;
*) fail "VM: the payload exited $rc" ;;
esac
grep -q '^payload: [0-9]* passed, [0-9]* failed' "$WORK/console.log" ||
  fail "VM: the payload did not finish (no 'payload: N passed, M failed' line)"
handled=$(simctl status 2>/dev/null | grep -o '"commandsHandled":[0-9]*' | cut -d: -f2 || true)
if [ "${handled:-0}" -gt 0 ]; then
  pass "host: the simulator answered $handled commands from the guest over ttyS1"
else
  fail "host: the simulator answered no command from the guest over ttyS1"
fi
stop_sim
finish
