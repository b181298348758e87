#!/usr/bin/env bash
# The upgrade path under a real systemd: installing a newer fpmod package over an older one
# while fpmod.service runs restarts the service, keeps the store, the key and the pairing,
# and the lock comes back locked.
#
#   sudo tools/upgrade-test.sh [OLD.deb [NEW.deb]]
#       without OLD.deb: OLD is built from HEAD (tools/package.sh --arch amd64 into a temporary
#       directory); without NEW.deb: NEW is built the same way from a temporary clone of HEAD
#       whose version (Sources/fpmod/Program.swift) is HEAD's + "+upgradetest", committed there.
#       Both are amd64 packages. Nothing is written into the repository.
#   GPIO_VM_DIR=/path/to/shared/tools/gpio-vm   when shared/ is not next to the repository
#   FPMOD_UPGRADE_TIMEOUT=900                    seconds for the whole VM run (then it is killed)
#   FPMOD_UPGRADE_KEEP=yes                       keep the work directory (console log, packages)
#
# How (x86_64, root, no KVM needed):
# 1. A Debian 13 amd64 root with systemd, udev and dbus (tools/lib/debian-root.sh, cached in
#    FPMOD_CI_CACHE); a fresh copy of it gets OLD.deb by `apt-get install ./OLD.deb` (the
#    postinst makes the fpmod user, the key and the config), NEW.deb, the guest script
#    tools/upgrade-vm/guest.sh as a unit, and gpio-sim.ko + configfs.ko.
# 2. That root becomes an uncompressed cpio initramfs; QEMU (TCG) boots the gpio-vm kernel
#    (../shared/tools/gpio-vm/build.sh makes and caches it: Debian 12's, PVH) with
#    rdinit=systemd, so systemd is PID 1 and the whole root lives in RAM.
# 3. ttyS1 (a 16550) is wired to `fpmod sim --profile r307` run on the host inside the same
#    root (chroot), on a pty; the guest asks for fingers with "HOST-TOUCH NAME N" on the
#    console and this script answers `touch NAME N` on the simulator's control socket.
# 4. In the guest (see guest.sh): config for board gpio-vm, fpmod pair, fpmod enroll alice,
#    systemctl enable --now fpmod, alice opens; then apt-get install ./NEW.deb while it runs,
#    and the checks: restarted (new PID, old gone, clean stop), new version, key/config
#    byte-identical, alice still there, still paired, relay off throughout and after, alice
#    opens and a stranger does not. The fleet hub beside it (fpmod-hub.service on the root's
#    PostgreSQL) serves before the upgrade and is restarted on the new binary, its authority kept.
# Prints "ok ..."/"FAIL ..." per check, each step's time, "N passed, M failed" last; exits 0
# only if all pass. Needs python3 on the host (the simulator's control socket).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VM=${GPIO_VM_DIR:-$(dirname "$REPO")/shared/tools/gpio-vm}
GPIO_CACHE=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/fpmod-gpio-vm
TIMEOUT=${FPMOD_UPGRADE_TIMEOUT:-900}
OLD_DEB=
NEW_DEB=
case ${1:-} in
-h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
esac
[ $# -le 2 ] || { echo "upgrade-test: usage: tools/upgrade-test.sh [OLD.deb [NEW.deb]]" >&2; exit 64; }
[ $# -lt 1 ] || OLD_DEB=$(readlink -f "$1")
[ $# -lt 2 ] || NEW_DEB=$(readlink -f "$2")

say() { echo "upgrade-test: $*"; }
die() {
  say "$*" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || die "needs root (Debian roots, chroot, bind mounts); run it with sudo"
[ "$(uname -m)" = x86_64 ] || die "made for an x86_64 machine"
command -v python3 >/dev/null || die "python3 is needed for the simulator's control socket"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing (the gpio-vm build.sh installs it)"
[ -x "$VM/build.sh" ] || die "the gpio-vm tool is not at $VM; check out shared/ beside $REPO or set GPIO_VM_DIR"
for deb in "$OLD_DEB" "$NEW_DEB"; do
  [ -z "$deb" ] || [ -f "$deb" ] || die "no such package: $deb"
done

# shellcheck source=tools/lib/debian-root.sh
. "$REPO/tools/lib/debian-root.sh"

# shellcheck source=tools/lib/checks.sh
. "$REPO/tools/lib/checks.sh"
# shellcheck source=tools/lib/sim.sh
. "$REPO/tools/lib/sim.sh"
STEPS=()
step_t0=0
step() {
  step_name=$1
  step_t0=$(date +%s%N)
  say "--- $step_name"
}
secs_since() { awk "BEGIN{printf \"%.1f\", ($(date +%s%N) - $1) / 1e9}"; }
step_done() {
  local s
  s=$(secs_since "$step_t0")
  STEPS+=("$step_name: $s s")
  say "--- $step_name: $s s"
}
T_START=$(date +%s%N)
finish() {
  say "step times:"
  local s
  for s in "${STEPS[@]}"; do echo "    $s"; done
  echo "    total: $(secs_since "$T_START") s"
  checks_summary && exit 0
  exit 1
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fpmod-upgrade-test.XXXXXX")
SIM_PID=
QEMU_PID_FILE=$WORK/qemu.pid
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  if [ -s "$QEMU_PID_FILE" ]; then kill "$(cat "$QEMU_PID_FILE")" 2>/dev/null || true; fi
  if [ -n "$SIM_PID" ]; then
    kill -TERM "$SIM_PID" 2>/dev/null || true
    wait "$SIM_PID" 2>/dev/null || true
  fi
  debian_roots_cleanup
  if [ "${FPMOD_UPGRADE_KEEP:-no}" = yes ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

deb_version() { dpkg-deb -f "$1" Version; }

# --- 1. The packages.
step "packages"
VERSION=$(sed -n 's/^ *static let version = "fpmod \([^"]*\)".*/\1/p' "$REPO/Sources/fpmod/Program.swift")
[ -n "$VERSION" ] || die "no version in Sources/fpmod/Program.swift"
if [ -z "$OLD_DEB" ]; then
  say "building OLD from HEAD ($VERSION): tools/package.sh --arch amd64"
  "$REPO/tools/package.sh" --arch amd64 --out "$WORK/old" >"$WORK/package-old.log" 2>&1 ||
    { tail -n 30 "$WORK/package-old.log"; die "tools/package.sh (OLD) failed"; }
  OLD_DEB=$(ls "$WORK"/old/fpmod_*_amd64.deb)
  say "package.sh OLD: $(secs_since "$step_t0") s"
fi
if [ -z "$NEW_DEB" ]; then
  # HEAD's version one step up: a clone of HEAD with only Program.swift changed.
  t_new=$(date +%s%N)
  NEXT=$VERSION+upgradetest
  say "building NEW ($NEXT) from a clone of HEAD"
  git clone -q "$REPO" "$WORK/new-src"
  git -C "$WORK/new-src" checkout -q "$(git -C "$REPO" rev-parse HEAD)"
  sed -i "s/static let version = \"fpmod $VERSION\"/static let version = \"fpmod $NEXT\"/" "$WORK/new-src/Sources/fpmod/Program.swift"
  git -C "$WORK/new-src" -c user.name=upgrade-test -c user.email=upgrade-test@localhost \
    commit -q -am "version $NEXT (tools/upgrade-test.sh)"
  "$WORK/new-src/tools/package.sh" --arch amd64 --out "$WORK/new" >"$WORK/package-new.log" 2>&1 ||
    { tail -n 30 "$WORK/package-new.log"; die "tools/package.sh (NEW) failed"; }
  NEW_DEB=$(ls "$WORK"/new/fpmod_*_amd64.deb)
  say "package.sh NEW: $(secs_since "$t_new") s"
fi
OLD_VERSION=$(deb_version "$OLD_DEB")
NEW_VERSION=$(deb_version "$NEW_DEB")
say "OLD $OLD_DEB ($OLD_VERSION), NEW $NEW_DEB ($NEW_VERSION)"
if dpkg --compare-versions "$NEW_VERSION" gt "$OLD_VERSION"; then
  pass "NEW $NEW_VERSION is newer than OLD $OLD_VERSION"
else
  fail "NEW $NEW_VERSION is newer than OLD $OLD_VERSION"
  finish
fi
step_done

# --- 2. The VM's kernel and modules (shared gpio-vm cache), and the guest root.
step "kernel (gpio-vm build.sh)"
"$VM/build.sh" "$GPIO_CACHE" >"$WORK/gpio-vm-build.log" 2>&1 ||
  { tail -n 20 "$WORK/gpio-vm-build.log"; die "gpio-vm build.sh failed"; }
BUILD=$GPIO_CACHE/current
for f in kernel modules/configfs.ko modules/gpio-sim.ko; do
  [ -f "$BUILD/$f" ] || die "the gpio-vm build has no $f ($BUILD)"
done
step_done

step "guest root: Debian 13 + systemd, apt-get install ./OLD.deb"
BASE=$(debian_cached_root trixie-amd64-systemd-vm trixie amd64 systemd udev dbus kmod libgpiod3 libsqlite3-0 libsodium23 libstdc++6 postgresql) ||
  die "no Debian 13 root with systemd"
debian_root_new "$BASE"
T=/upgrade-test
mkdir -p "$ROOT$T/new" "$ROOT$T/modules" "$ROOT/root/old"
cp "$OLD_DEB" "$ROOT/root/old/"
cp "$NEW_DEB" "$ROOT$T/new/"
if inside "apt-get install -y /root/old/$(basename "$OLD_DEB")" >"$WORK/apt-old.log" 2>&1; then
  pass "apt-get install ./$(basename "$OLD_DEB") in a fresh Debian 13 root"
else
  fail "apt-get install ./$(basename "$OLD_DEB") in a fresh Debian 13 root"
  sed 's/^/    /' "$WORK/apt-old.log" | tail -n 30
  finish
fi
rm -rf "$ROOT/root/old"
step_done

step "guest initramfs"
cp "$BUILD/modules/configfs.ko" "$BUILD/modules/gpio-sim.ko" "$ROOT$T/modules/"
install -m 0755 "$REPO/tools/upgrade-vm/guest.sh" "$ROOT$T/guest.sh"
TOKEN=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
echo "$TOKEN" >"$ROOT$T/token"
echo "$OLD_VERSION" >"$ROOT$T/old-version"
echo "$NEW_VERSION" >"$ROOT$T/new-version"
cat >"$ROOT/etc/systemd/system/upgrade-test.service" <<EOF
[Unit]
Description=fpmod upgrade test (tools/upgrade-vm/guest.sh)
After=multi-user.target

[Service]
Type=simple
ExecStart=$T/guest.sh
EOF
mkdir -p "$ROOT/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/upgrade-test.service "$ROOT/etc/systemd/system/multi-user.target.wants/"
# Nothing may prompt on or write to the console but the test, and nothing that needs a network.
for unit in serial-getty@.service getty@.service systemd-firstboot.service console-getty.service \
  proc-sys-fs-binfmt_misc.automount apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer e2scrub_all.timer fstrim.timer; do
  ln -sf /dev/null "$ROOT/etc/systemd/system/$unit"
done
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$ROOT/etc/machine-id"
echo fpmod-upgrade-vm >"$ROOT/etc/hostname"
# The whole root, less what the chroot had mounted and what the guest never reads.
(
  cd "$ROOT"
  find . \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \
    -o -path ./var/cache/apt -o -path ./var/lib/apt/lists -o -path ./usr/share/doc \
    -o -path ./usr/share/man -o -path ./usr/share/locale -o -path ./usr/share/info \) -print -prune -o -print |
    cpio -o -H newc --quiet
) >"$WORK/initrd"
mkdir -p "$WORK/devroot/dev"
mknod -m 600 "$WORK/devroot/dev/console" c 5 1
(cd "$WORK/devroot" && find . -mindepth 1 | cpio -o -H newc -R 0:0 --quiet) >>"$WORK/initrd"
INITRD_MB=$(($(stat -c %s "$WORK/initrd") / 1048576))
say "initramfs: $INITRD_MB MB"
step_done

# --- 3. The module: fpmod sim from the OLD package, on the host (chroot into the same root).
step "simulator"
SIMDIR=/root/upgrade-sim # in the chroot, not in the initramfs (already packed)
mkdir -p "$ROOT$SIMDIR"
SIM_CONTROL=$ROOT$SIMDIR/sim.sock
chroot "$ROOT" /usr/bin/fpmod sim --profile r307 --state "$SIMDIR/flash" --control "$SIMDIR/sim.sock" \
  >"$WORK/sim.out" 2>"$WORK/sim.err" &
SIM_PID=$!
sim_wait_started "$SIM_PID" "$WORK/sim.out" "$WORK/sim.err"
[ -c "$SIM_TTY" ] || die "fpmod sim printed '$SIM_TTY', not a terminal device"
say "fpmod sim (r307) on $SIM_TTY"
step_done

# --- 4. Boot: systemd as PID 1, the guest script as a unit; its console is parsed here.
step "VM: boot, setup, upgrade, checks"
MEM=$((INITRD_MB * 3 + 1024))
CMDLINE="console=ttyS0 rdinit=/usr/lib/systemd/systemd panic=-1 quiet loglevel=3 systemd.show_status=error"
# In the background with `wait`, so INT/TERM reach the trap at once (cleanup kills QEMU).
(
  set +e # QEMU's status is reported below
  timeout -k 5 "$TIMEOUT" qemu-system-x86_64 \
    -accel tcg -machine pc -m "$MEM" -smp 2 \
    -nodefaults -no-user-config -display none -no-reboot \
    -kernel "$BUILD/kernel" -initrd "$WORK/initrd" -append "$CMDLINE" \
    -serial stdio -chardev "serial,id=ttyS1,path=$SIM_TTY" -serial chardev:ttyS1 \
    -pidfile "$QEMU_PID_FILE" </dev/null 2>&1
  echo $? >"$WORK/qemu.rc"
) | while IFS= read -r line; do
  line=${line%$'\r'}
  printf '%s\n' "$line" >>"$WORK/console.log"
  case $line in
  "HOST-TOUCH "*)
    read -r finger times _ <<<"${line#HOST-TOUCH }"
    echo "host: touch $finger ${times:-1} -> $(simctl "touch $finger ${times:-1}" 2>&1)"
    ;;
  "STEP "*) ;;
  *) printf '%s\n' "$line" ;;
  esac
done &
wait $! || true
rm -f "$QEMU_PID_FILE" # QEMU has exited: never kill a recycled PID
touch "$WORK/console.log"
QRC=$(cat "$WORK/qemu.rc" 2>/dev/null || echo '?')
step_done
while read -r s; do
  STEPS+=("  guest ${s% *}: ${s##* } s")
done < <(sed -n 's/^STEP //p' "$WORK/console.log")

# --- 5. The verdict.
guest_passed=$(grep -c '^ok ' "$WORK/console.log" || true)
guest_failed=$(grep -c '^FAIL ' "$WORK/console.log" || true)
passed=$((passed + guest_passed))
failed=$((failed + guest_failed))
MARK=$(grep -ao "UPGRADE-TEST-EXIT=[0-9]* ($TOKEN)" "$WORK/console.log" | tail -n 1 || true)
if [ -z "$MARK" ]; then
  case $QRC in
  124 | 137) fail "VM: no verdict: killed after FPMOD_UPGRADE_TIMEOUT=$TIMEOUT s" ;;
  *) fail "VM: no verdict: the guest stopped without its exit line (QEMU status $QRC; console above)" ;;
  esac
elif [ "${MARK#UPGRADE-TEST-EXIT=}" = "0 ($TOKEN)" ]; then
  pass "VM: the guest finished with every check passed"
else
  fail "VM: the guest reported failures"
fi
sim_status=$(simctl status 2>/dev/null || true)
handled=$(grep -o '"commandsHandled":[0-9]*' <<<"$sim_status" | cut -d: -f2 || true)
address=$(grep -o '"address":"[0-9A-Fa-f]*"' <<<"$sim_status" | cut -d'"' -f4 || true)
# `fpmod pair` gave the module a password and an address of its own, and both survived: the
# new service opened it with the pairing from the store (the guest checked module-ready).
if grep -q '"passwordSet":true' <<<"$sim_status" && [ -n "$address" ] && [ "${address^^}" != FFFFFFFF ]; then
  pass "host: the module is still paired (password set, address $address)"
else
  fail "host: the module is still paired (password set, non-default address): ${sim_status:-no status}"
fi
if [ "${handled:-0}" -gt 0 ]; then
  pass "host: the simulator answered $handled commands from the guest over ttyS1"
else
  fail "host: the simulator answered no command from the guest over ttyS1"
fi
finish
