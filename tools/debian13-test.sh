#!/usr/bin/env bash
# The Debian 13 tier: what a new user on Raspberry Pi OS trixie gets, on this machine.
#
#   tools/debian13-test.sh [--no-vm] [--keep]
#
# 1. A fresh Debian 13 (trixie) root: copied from a cached `debootstrap --variant=minbase`
#    root, so nothing is installed in it but Debian's base (no Swift, no -dev packages).
# 2. A clean clone of this repository's HEAD in it, at /src/fpmod.
# 3. The README's two commands, verbatim, as root inside it:
#      tools/install-deps.sh && swift build && swift test
#      tools/install-deps.sh && swift run fpmod demo
#    install-deps.sh installs Debian's swiftlang (Swift 6.0) and libgpiod 2 from apt there.
# 4. Unless --no-vm: a release build inside it, run by tools/gpio-vm-test.sh in the gpio-vm
#    VM on a real gpio-sim chip, so the libgpiod 2 backend drives real kernel lines.
#
# Cache (FPMOD_CI_CACHE, default /var/cache/fpmod-ci): the minbase root (made again when
# missing or older than 14 days) and apt's downloaded .debs, so a warm run downloads nothing.
# Each run's root is deleted at the end (--keep leaves it, and says where). Needs root (for
# debootstrap, chroot and bind mounts) and Debian's archive (FPMOD_DEBIAN_MIRROR).
# Prints each step's time; exits non-zero when a step fails.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${FPMOD_CI_CACHE:-/var/cache/fpmod-ci}
MIRROR=${FPMOD_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=trixie
BASE=$CACHE/$SUITE-amd64-minbase
RUN_VM=yes
KEEP=no
for arg in "$@"; do
  case $arg in
  --no-vm) RUN_VM=no ;;
  --keep) KEEP=yes ;;
  *) echo "debian13-test: unknown argument $arg (see the comment at the top of $0)" >&2; exit 64 ;;
  esac
done

say() { echo "debian13-test: $*"; }
die() {
  say "$*" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, bind mounts); run it with sudo"
[ "$(uname -m)" = x86_64 ] || die "made for an x86_64 host (the root and the gpio-vm guest are amd64)"

step_start=0
step() {
  step_name=$1
  step_start=$(date +%s)
  say "--- $step_name"
}
step_done() { say "--- $step_name: $(($(date +%s) - step_start)) s"; }

# --- 1. The cached minbase root, and a fresh copy of it for this run.
step "Debian 13 minbase root"
if ! command -v debootstrap >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi
if [ -d "$BASE" ] && [ -z "$(find "$BASE" -maxdepth 0 -mtime +14)" ]; then
  say "cached in $BASE"
else
  rm -rf "$BASE.tmp"
  mkdir -p "$CACHE"
  debootstrap --variant=minbase "$SUITE" "$BASE.tmp" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 ||
    die "debootstrap $SUITE failed; its log is $CACHE/debootstrap.log"
  rm -rf "$BASE"
  mv "$BASE.tmp" "$BASE"
fi
mkdir -p "$CACHE/apt-archives/partial"
ROOT=$(mktemp -d "$CACHE/run.XXXXXX")
chmod 755 "$ROOT" # apt's download sandbox (user _apt) must reach /var/cache/apt inside it
mounts=()
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  local m
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    m=${mounts[$i]}
    umount -l "$m" 2>/dev/null || true
  done
  if [ "$KEEP" = yes ]; then say "kept the root in $ROOT"; else rm -rf "$ROOT"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cp -a "$BASE/." "$ROOT/"
bind() { # HOST_DIR ROOT_PATH
  mkdir -p "$ROOT$2"
  mount --bind "$1" "$ROOT$2"
  mounts+=("$ROOT$2")
}
mount -t proc proc "$ROOT/proc" && mounts+=("$ROOT/proc")
bind /dev /dev
bind /dev/pts /dev/pts
bind "$CACHE/apt-archives" /var/cache/apt/archives
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
# Keep what apt downloads (the image's default would delete it) for the next run.
echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$ROOT/etc/apt/apt.conf.d/01keep-debs"
say "root for this run: $ROOT ($(. "$ROOT/etc/os-release" && echo "$PRETTY_NAME"))"
step_done

# Runs a command line inside the root as root, in the clone, with a plain environment.
inside() {
  chroot "$ROOT" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive /bin/bash -c "cd /src/fpmod && $1"
}

# --- 2. A clean clone of HEAD.
step "clean clone"
git clone -q "$REPO" "$ROOT/src/fpmod"
say "$(git -C "$ROOT/src/fpmod" log -1 --format='%h %s')"
step_done

# --- 3. The README's commands, verbatim.
step "README test command: tools/install-deps.sh && swift build && swift test"
# The whole output goes to a log; the build's warnings and errors, failed tests and the
# runners' closing lines are printed.
summary() { grep -E 'warning:|error:|✘|Test run with|Executed [0-9]+ tests|Build complete' "$1" | grep -v '^\s*$' | tail -n 40 || true; }
if ! inside "tools/install-deps.sh && swift build && swift test" >"$ROOT/test.log" 2>&1; then
  tail -n 60 "$ROOT/test.log"
  summary "$ROOT/test.log"
  die "the README's test command failed on Debian 13"
fi
summary "$ROOT/test.log"
say "$(inside "swift --version 2>&1 | head -n 1"); libgpiod $(inside "pkg-config --modversion libgpiod")"
step_done

step "README run command: tools/install-deps.sh && swift run fpmod demo"
inside "tools/install-deps.sh && swift run fpmod demo" >"$ROOT/demo.log" 2>&1 || {
  cat "$ROOT/demo.log"
  die "the README's demo command failed on Debian 13"
}
tail -n 12 "$ROOT/demo.log"
step_done

# --- 4. The door lock through libgpiod 2 on a real kernel GPIO chip.
if [ "$RUN_VM" = yes ]; then
  step "release build (static Swift stdlib) for the GPIO VM"
  inside "swift build -c release --static-swift-stdlib --product fpmod" >"$ROOT/release.log" 2>&1 || {
    cat "$ROOT/release.log"
    die "the release build failed on Debian 13"
  }
  step_done
  step "GPIO VM test with the Debian 13 (libgpiod 2) binary"
  bin=$(inside "swift build -c release --static-swift-stdlib --show-bin-path")/fpmod
  "$REPO/tools/gpio-vm-test.sh" --guest-root "$ROOT" --guest-binary "$bin"
  step_done
fi
say "all steps passed"
