#!/usr/bin/env bash
# tools/gpio-vm-arm64/run.sh CACHE_DIR PAYLOAD_DIR [--serial-pty PATH]
#
# Boot the aarch64 gpio-vm guest built by build.sh: qemu-system-aarch64 -M virt, TCG (KVM is
# not used), cortex-a72, 2 vCPUs, 1 GB, Debian 13's arm64 kernel. PAYLOAD_DIR is copied to
# /payload and /payload/run runs there as root, with a 16-line gpio-sim chip named from
# PAYLOAD_DIR/lines. The same contract as ../shared/tools/gpio-vm/run.sh (its README tells
# how to write a payload); only the payload's binaries must be arm64 (payload.sh).
#
# Devices: the console is the board's PL011 (ttyAMA0), streamed to stdout. The module's UART
# is a 16550A, the second port of a pci-serial-2x card: /dev/ttyS1 in the guest.
#
# --serial-pty PATH  wire the guest's /dev/ttyS1 to the host terminal device PATH (the slave
#                    of a pty an emulator holds the master of). QEMU opens it as a host
#                    serial device, so the baud, parity and stop bits the guest programs are
#                    applied to PATH (checked: 57600, 9600 and 115200 set with stty in the
#                    guest showed on the host's master). QEMU does not pace bytes to the
#                    baud rate. Without it ttyS1 exists but goes nowhere.
#
# Exit status: the payload's own, or 125 when there is no verdict (bad arguments, no build,
# QEMU failure, guest setup failure, timeout, payload powered off); 130 when interrupted.
# Env: GPIO_VM_TIMEOUT (seconds, default 900: TCG emulates arm64 several times slower than
# the host), GPIO_VM_CPU (default cortex-a72; "max" adds pointer authentication, which TCG
# emulates slowly), GPIO_VM_SMP (default 2).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TIMEOUT=${GPIO_VM_TIMEOUT:-900}
CPU=${GPIO_VM_CPU:-cortex-a72}
SMP=${GPIO_VM_SMP:-2}
CMDLINE="console=ttyAMA0 panic=-1 quiet loglevel=3"

log() { printf 'gpio-vm-arm64: %s\n' "$*" >&2; }
die() {
  printf 'gpio-vm-arm64: error: %s\n' "$1" >&2
  shift
  [ $# -eq 0 ] || printf '  %s\n' "$@" >&2
  exit 125
}
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
trap 'log "run.sh failed at line $LINENO; exit 125"; exit 125' ERR

POS=()
PTY=
while [ $# -gt 0 ]; do
  case $1 in
    --serial-pty) [ $# -ge 2 ] || die "--serial-pty needs a PATH"; PTY=$2; shift 2 ;;
    --serial-pty=*) PTY=${1#*=}; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) die "unknown option $1" "usage: run.sh CACHE_DIR PAYLOAD_DIR [--serial-pty PATH]" ;;
    *) POS+=("$1"); shift ;;
  esac
done
[ ${#POS[@]} -eq 2 ] || die "usage: run.sh CACHE_DIR PAYLOAD_DIR [--serial-pty PATH]"
CACHE=${POS[0]}
PAYLOAD=${POS[1]}
[[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "GPIO_VM_TIMEOUT must be a whole number of seconds, not '$TIMEOUT'"

BUILD=$CACHE/current
{ [ -f "$BUILD/kernel" ] && [ -f "$BUILD/base.cpio" ]; } ||
  die "no gpio-vm-arm64 build in $CACHE" "run first: sudo $HERE/build.sh $CACHE"
command -v qemu-system-aarch64 >/dev/null ||
  die "qemu-system-aarch64 is not installed" "run $HERE/build.sh (it installs qemu-system-arm)"
[ -d "$PAYLOAD" ] || die "payload directory $PAYLOAD does not exist"
[ -f "$PAYLOAD/run" ] || die "$PAYLOAD/run is missing: the guest runs PAYLOAD_DIR/run (e.g. a #!/bin/sh script)"
if [ -f "$PAYLOAD/lines" ]; then
  n=$(awk '{ sub(/\r$/, ""); gsub(/^[ \t]+|[ \t]+$/, "") } NF { last = NR } END { print last + 0 }' "$PAYLOAD/lines")
  [ "$n" -le 16 ] || die "$PAYLOAD/lines names offset $((n - 1)), but the chip has 16 lines (0-15)"
fi

# shellcheck disable=SC2054  # one QEMU option value, commas included
MODULE_UART=(-chardev null,id=fpmod-uart)
if [ -n "$PTY" ]; then
  dev=$(readlink -f -- "$PTY") || die "--serial-pty $PTY: cannot resolve the path"
  [ -c "$dev" ] || die "--serial-pty $PTY is not a character device" \
    "pass the slave side of a pseudo-terminal (e.g. /dev/pts/3) that an emulator holds open"
  # QEMU splits option values at commas; a doubled comma is a literal one.
  MODULE_UART=(-chardev "serial,id=fpmod-uart,path=${dev//,/,,}")
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpio-vm-arm64.XXXXXX")
# shellcheck disable=SC2317  # called from traps
cleanup() { rm -rf "$TMP"; }
# shellcheck disable=SC2317  # called from traps
stop_vm() {
  trap - INT TERM HUP
  log "interrupted: stopping the VM"
  [ ! -s "$TMP/qemu.pid" ] || kill "$(cat "$TMP/qemu.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  cleanup
  exit 130
}
trap cleanup EXIT
trap stop_vm INT TERM HUP

# The payload travels as a second cpio appended to the cached base one.
mkdir -p "$TMP/root/payload" "$TMP/root/gpio-vm"
cp -RL --preserve=mode,timestamps -- "$PAYLOAD/." "$TMP/root/payload/"
TOKEN=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
echo "$TOKEN" >"$TMP/root/gpio-vm/token"
(cd "$TMP/root" && find . -mindepth 1 | cpio -o -H newc -R 0:0 --quiet) >"$TMP/payload.cpio"
cat "$BUILD/base.cpio" "$TMP/payload.cpio" >"$TMP/initrd"
rm -rf "$TMP/root" "$TMP/payload.cpio"

log "booting $(readlink "$BUILD") on qemu-system-aarch64 -M virt -cpu $CPU -smp $SMP, TCG (timeout ${TIMEOUT} s), ttyS1 -> ${PTY:-nothing}"
T0=$(date +%s%N)
(
  set +e
  timeout -k 5 "$TIMEOUT" qemu-system-aarch64 \
    -machine virt -accel tcg -cpu "$CPU" -smp "$SMP" -m 1024 \
    -nodefaults -no-user-config -display none -no-reboot \
    -kernel "$BUILD/kernel" -initrd "$TMP/initrd" -append "$CMDLINE" \
    -serial stdio \
    -chardev null,id=unused-uart "${MODULE_UART[@]}" \
    -device pci-serial-2x,chardev1=unused-uart,chardev2=fpmod-uart \
    -pidfile "$TMP/qemu.pid" </dev/null 2>&1
  echo $? >"$TMP/qemu.rc"
) | tee "$TMP/console.log" &
wait $! || true
WALL_MS=$((($(date +%s%N) - T0) / 1000000))
WALL="$((WALL_MS / 1000)).$((WALL_MS / 100 % 10)) s"

QRC=$(cat "$TMP/qemu.rc" 2>/dev/null || echo '?')
MARK=$(tr -d '\r' <"$TMP/console.log" | grep -ao "PAYLOAD_EXIT=[0-9]* (gpio-vm $TOKEN)" | tail -n1 || true)
if [ -z "$MARK" ]; then
  case $QRC in
    124 | 137) why="the VM ran past GPIO_VM_TIMEOUT=${TIMEOUT} s and was killed" ;;
    0) why="the guest powered off without reporting the payload's exit status (setup failed above, or the payload powered off)" ;;
    *) why="qemu-system-aarch64 exited with status $QRC (its message is above)" ;;
  esac
  log "no verdict after $WALL: $why; exit 125"
  exit 125
fi
RC=${MARK#PAYLOAD_EXIT=}
RC=${RC%% *}
log "payload exit status $RC (VM wall time $WALL)"
exit "$RC"
