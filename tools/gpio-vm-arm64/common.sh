# shellcheck shell=bash
# Shared by build.sh and payload.sh in this folder (bash, sourced; needs root).
#
# The builder: a cached Debian 13 arm64 root (tools/lib/debian-root.sh, run under qemu-user)
# that resolves the kernel from its own apt lists, downloads the kernel and its source,
# compiles gpio-sim.ko natively against the matching linux-headers, and supplies the guest's
# userland: busybox-static, libgpiod 2's tools, and the runtime libraries of the fpmod package
# (so `ldd` there gives the guest the exact closure the package gets on a Pi).

GVA_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GVA_REPO=$(cd "$GVA_HERE/../.." && pwd)
# shellcheck source=tools/lib/debian-root.sh
. "$GVA_REPO/tools/lib/debian-root.sh"

GVA_BUILDER_NAME=gpio-vm-arm64-builder
# gcc/make/libc6-dev/binutils/kmod: the module build (linux-headers-<abi> comes on top, per
# kernel). busybox-static, gpiod: the guest's tools. The rest: what the fpmod package loads
# (its Depends; payload.sh installs any the package adds later).
GVA_BUILDER_PKGS=(gcc make libc6-dev binutils busybox-static gpiod kmod
  libswiftlang libgpiod3 libsqlite3-0 libsodium23 libstdc++6 libgcc-s1 passwd)

gva_log() { printf 'gpio-vm-arm64: %s\n' "$*" >&2; }
gva_die() {
  printf 'gpio-vm-arm64: error: %s\n' "$1" >&2
  shift
  [ $# -eq 0 ] || printf '  %s\n' "$@" >&2
  exit 1
}
gva_now() { date +%s%N; }
gva_secs() { # START_NS: seconds since then, one decimal
  local ms=$((($(gva_now) - $1) / 1000000))
  printf '%d.%d s' $((ms / 1000)) $((ms / 100 % 10))
}

# The builder root, mounted for this process (sets ROOT); debian_roots_cleanup unmounts it.
# A lock keeps two users (build.sh and payload.sh of parallel runs) from installing into it
# at the same time.
gva_builder() {
  [ "$(id -u)" = 0 ] || gva_die "needs root (debootstrap, chroot, bind mounts); run it with sudo"
  [ "$(uname -m)" = x86_64 ] || gva_die "made for an x86_64 Debian host (arm64 runs under qemu-user)"
  debian_enable_arm64 || gva_die "cannot run arm64 programs (qemu-user-static, binfmt_misc)"
  mkdir -p "$DEBIAN_CACHE"
  exec 8>"$DEBIAN_CACHE/$GVA_BUILDER_NAME.lock"
  if ! flock -n 8; then
    gva_log "another user of the $GVA_BUILDER_NAME root is running; waiting for it"
    flock 8
  fi
  local t0 dir
  t0=$(gva_now)
  dir=$(debian_cached_root "$GVA_BUILDER_NAME" trixie arm64 "${GVA_BUILDER_PKGS[@]}") ||
    gva_die "could not make the cached arm64 root $DEBIAN_CACHE/$GVA_BUILDER_NAME"
  debian_root_use "$dir"
  gva_log "builder root $dir ready ($(gva_secs "$t0"))"
}

# Installs PACKAGES... (NAME or NAME=VERSION) into the builder root, only those missing.
gva_builder_install() {
  local missing=() p st
  # One dpkg-query for all: each chroot under qemu-user costs a fraction of a second.
  st=$(inside "dpkg-query -W -f='\${Package} \${db:Status-Status} \${Version}\n' ${*%%=*} 2>/dev/null" || true)
  for p; do
    if [[ $p == *=* ]]; then
      grep -qx "${p%%=*} installed ${p#*=}" <<<"$st" || missing+=("$p")
    else
      grep -q "^$p installed " <<<"$st" || missing+=("$p")
    fi
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  gva_log "installing into the builder root: ${missing[*]}"
  inside "apt-get install -y -qq --no-install-recommends ${missing[*]} >/tmp/apt-install.log 2>&1" || {
    inside "apt-get update -qq" || true
    inside "apt-get install -y -qq --no-install-recommends ${missing[*]} >/tmp/apt-install.log 2>&1"
  } || {
    tail -n 20 "$ROOT/tmp/apt-install.log" >&2
    gva_die "apt-get install ${missing[*]} failed in the builder root"
  }
}
