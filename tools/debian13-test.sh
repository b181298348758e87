#!/usr/bin/env bash
# The Debian 13 tier: what a new user on Raspberry Pi OS trixie gets, on this machine.
#
#   tools/debian13-test.sh [--no-vm] [--keep]
#
# 1. A fresh Debian 13 (trixie) root: copied from a cached `debootstrap --variant=minbase`
#    root, so nothing is installed in it but Debian's base (no Swift, no -dev packages).
# 2. A clean clone of this repository's HEAD in it, at /src/fpmod, and the real fingerprint
#    impressions beside it at /src/shared/data/fvc2002, as a checkout has them.
# 3. The README's two commands, verbatim, as root inside it:
#      tools/install-deps.sh && swift build && swift test
#      tools/install-deps.sh && swift run fpmod demo
#    install-deps.sh installs Debian's swiftlang (Swift 6.0) and libgpiod 2 from apt there.
# 4. Unless --no-vm: a release build inside it, run by tools/gpio-vm-test.sh in the gpio-vm
#    VM on a real gpio-sim chip, so the libgpiod 2 backend drives real kernel lines.
#
# Cache (FPMOD_CI_CACHE, default /var/cache/fpmod-ci; tools/lib/debian-root.sh): the minbase
# root (made again when missing or older than 14 days) and apt's downloaded .debs, so a warm
# run downloads nothing. Each run's root is deleted at the end (--keep leaves it, and says
# where). Needs root (debootstrap, chroot, bind mounts) and Debian's archive.
# Prints each step's time; exits non-zero when a step fails.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/lib/debian-root.sh
. "$REPO/tools/lib/debian-root.sh"
RUN_VM=yes
for arg in "$@"; do
  case $arg in
  --no-vm) RUN_VM=no ;;
  --keep) DEBIAN_KEEP=yes ;;
  *) echo "debian13-test: unknown argument $arg (see the comment at the top of $0)" >&2; exit 64 ;;
  esac
done

SCRIPT_NAME=debian13-test
# shellcheck source=tools/lib/script-steps.sh
. "$REPO/tools/lib/script-steps.sh"
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, bind mounts); run it with sudo"
[ "$(uname -m)" = x86_64 ] || die "made for an x86_64 host (the root and the gpio-vm guest are amd64)"

# The user, groups, config and key that tools/install.sh sets up (through tools/debian/postinst),
# and that --uninstall --purge takes away again (through postrm). No systemd in a root: files only.
install_checks() { # BINARY_IN_ROOT
  inside "tools/install.sh --binary $1" >"$ROOT/install.log" 2>&1 || { cat "$ROOT/install.log"; die "tools/install.sh failed"; }
  local facts
  facts=$(inside 'id -nG fpmod; stat -c "%U:%G %a %s" /etc/fpmod/store.key /etc/fpmod/config.json /var/lib/fpmod;
    /usr/local/bin/fpmod config check --config /etc/fpmod/config.json >/dev/null && echo config-ok;
    ls /usr/local/share/fpmod/boards | wc -l') || die "the installed files are not there"
  say "installed: $(echo "$facts" | tr '\n' ' ')"
  [ "$(echo "$facts" | sed -n 1p)" = "fpmod dialout gpio input" ] || die "user fpmod is not in groups dialout, gpio and input: $facts"
  [ "$(echo "$facts" | sed -n 2p)" = "fpmod:fpmod 600 32" ] || die "store.key is not 32 bytes, fpmod's, 0600: $facts"
  [ "$(echo "$facts" | sed -n 3p | cut -d' ' -f1-2)" = "root:fpmod 640" ] || die "config.json is not root:fpmod 0640: $facts"
  [ "$(echo "$facts" | sed -n 4p | cut -d' ' -f1-2)" = "fpmod:fpmod 700" ] || die "/var/lib/fpmod is not fpmod's, 0700: $facts"
  echo "$facts" | grep -qx config-ok || die "fpmod config check rejects the config install.sh wrote"
  local key
  key=$(inside "sha256sum /etc/fpmod/store.key")
  inside "tools/install.sh --binary $1" >"$ROOT/install.log" 2>&1 || { cat "$ROOT/install.log"; die "tools/install.sh failed the second time"; }
  [ "$(inside "sha256sum /etc/fpmod/store.key")" = "$key" ] || die "a second tools/install.sh replaced the store key"
  inside "tools/install.sh --uninstall --purge" >"$ROOT/install.log" 2>&1 || { cat "$ROOT/install.log"; die "tools/install.sh --uninstall --purge failed"; }
  inside "! getent passwd fpmod && [ ! -e /etc/fpmod ] && [ ! -e /var/lib/fpmod ] && [ ! -e /usr/local/bin/fpmod ] && [ ! -e /usr/local/share/fpmod ]" ||
    die "tools/install.sh --uninstall --purge left something behind"
  say "install.sh: user, groups, key (kept on reinstall), config, and a clean purge"
}

# --- 1. The cached minbase root, and a fresh copy of it for this run.
step "Debian 13 minbase root"
trap debian_roots_cleanup EXIT
trap 'exit 130' INT TERM
BASE=$(debian_base trixie amd64) || die "no Debian 13 base root"
debian_root_new "$BASE"
say "root for this run: $ROOT ($(. "$ROOT/etc/os-release" && echo "$PRETTY_NAME"))"
step_done

# --- 2. A clean clone of HEAD.
step "clean clone"
git clone -q "$REPO" "$ROOT/src/fpmod"
# The real impressions the matcher's tests read, where a checkout finds them: ../shared/data.
if [ -d "$REPO/../shared/data/fvc2002" ]; then
  mkdir -p "$ROOT/src/shared/data"
  cp -r "$REPO/../shared/data/fvc2002" "$ROOT/src/shared/data/"
else
  die "no ../shared/data/fvc2002 beside $REPO: the host matcher's tests need the real impressions (see ../shared/data/README.md)"
fi
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

  # --- 5. The source install (tools/install.sh), set up by the package's maintainer scripts.
  step "tools/install.sh --binary, then --uninstall --purge"
  install_checks "$bin"
  step_done
fi
say "all steps passed"
