# shellcheck shell=bash
# Debian roots for the CI tiers and the packager, sourced by tools/debian13-test.sh,
# tools/package.sh and tools/arm64-test.sh (bash; needs root).
#
#   debian_base SUITE ARCH          the cached `debootstrap --variant=minbase` root (made when
#                                   missing or older than 14 days); prints its path
#   debian_cached_root NAME SUITE ARCH PACKAGES...
#                                   a cached root of minbase + PACKAGES (made again when the
#                                   base is newer or a package left the list; packages added
#                                   to the list are installed in place); prints its path
#   debian_cached_sysroot NAME SUITE ARCH PACKAGES...
#                                   a cached sysroot for cross-building: PACKAGES of ARCH and
#                                   their dependencies, unpacked (not installed) natively; its
#                                   .fpmod-versions lists "package version" per unpacked .deb
#   debian_package_version ROOT PACKAGE
#                                   the version of PACKAGE in a root or a sysroot
#   debian_root_new BASE            a fresh copy of BASE for this run, mounted and ready; sets ROOT
#   debian_root_use DIR             mounts an existing root (a cached one) for this run; sets ROOT
#   inside COMMAND                  runs a bash command line in ROOT as root, plain environment
#   debian_roots_cleanup            unmounts everything and deletes the fresh copies (EXIT trap)
#
# FPMOD_CI_CACHE (default /var/cache/fpmod-ci) holds the roots and apt's .debs per
# architecture, so a warm run downloads nothing; FPMOD_DEBIAN_MIRROR picks the archive.
# An arm64 root runs its programs under qemu-user (qemu-user-static, binfmt_misc).

DEBIAN_CACHE=${FPMOD_CI_CACHE:-/var/cache/fpmod-ci}
DEBIAN_MIRROR=${FPMOD_DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEBIAN_KEEP=${DEBIAN_KEEP:-no}
debian_mounts=()
debian_fresh_roots=()

debian_say() { echo "debian-root: $*" >&2; }

debian_apt_install_host() { # PACKAGES... on the host, only those missing
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

debian_enable_arm64() {
  debian_apt_install_host qemu-user-static binfmt-support
  [ -e /proc/sys/fs/binfmt_misc/register ] ||
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || {
    debian_say "cannot run arm64 programs: binfmt_misc has no qemu-aarch64 entry"
    return 1
  }
}

debian_base() { # SUITE ARCH
  local suite=$1 arch=$2 base
  base=$DEBIAN_CACHE/$suite-$arch-minbase
  if [ -d "$base" ] && [ -z "$(find "$base" -maxdepth 0 -mtime +14)" ]; then
    echo "$base"
    return 0
  fi
  debian_apt_install_host debootstrap
  [ "$arch" = amd64 ] || debian_enable_arm64
  mkdir -p "$DEBIAN_CACHE"
  rm -rf "$base.tmp"
  debian_say "debootstrap --variant=minbase --arch=$arch $suite (log: $DEBIAN_CACHE/debootstrap-$arch.log)"
  debootstrap --variant=minbase --arch="$arch" "$suite" "$base.tmp" "$DEBIAN_MIRROR" \
    >"$DEBIAN_CACHE/debootstrap-$arch.log" 2>&1 || {
    debian_say "debootstrap $suite $arch failed; see $DEBIAN_CACHE/debootstrap-$arch.log"
    return 1
  }
  rm -rf "$base"
  mv "$base.tmp" "$base"
  echo "$base"
}

debian_bind() { # HOST_DIR ROOT_PATH (uses ROOT)
  mkdir -p "$ROOT$2"
  mount --bind "$1" "$ROOT$2"
  debian_mounts+=("$ROOT$2")
}

debian_root_use() { # DIR
  ROOT=$1
  local arch stale
  # Mounts a killed run left under a cached root (its EXIT trap never ran): let go of them
  # first, deepest first. A bind mount of a sysroot since replaced points at a deleted folder,
  # and mounting over it fails with "No such file or directory".
  for stale in $(awk -v r="$ROOT/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r); do
    umount -l "$stale" 2>/dev/null || true
  done
  arch=$(chroot "$ROOT" dpkg --print-architecture 2>/dev/null || echo unknown)
  mount -t proc proc "$ROOT/proc"
  debian_mounts+=("$ROOT/proc")
  debian_bind /dev /dev
  debian_bind /dev/pts /dev/pts
  mkdir -p "$DEBIAN_CACHE/apt-archives-$arch/partial"
  debian_bind "$DEBIAN_CACHE/apt-archives-$arch" /var/cache/apt/archives
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
  # Keep what apt downloads (for the next run) instead of deleting it after installing.
  echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$ROOT/etc/apt/apt.conf.d/01keep-debs"
}

debian_root_new() { # BASE
  local fresh
  fresh=$(mktemp -d "$DEBIAN_CACHE/run.XXXXXX")
  chmod 755 "$fresh" # apt's download sandbox (user _apt) must reach /var/cache/apt inside it
  debian_fresh_roots+=("$fresh")
  cp -a "$1/." "$fresh/"
  debian_root_use "$fresh"
}

inside() { # COMMAND_LINE (run in ROOT, in /src/fpmod when it exists)
  chroot "$ROOT" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive /bin/bash -c "if [ -d /src/fpmod ]; then cd /src/fpmod; fi; $1"
}

# A cached root or sysroot is current when its stamp records the same recipe: the base's
# time and the package list.
debian_cache_current() { # DIR RECIPE
  [ -d "$1" ] && [ "$(cat "$1/.fpmod-packages" 2>/dev/null)" = "$2" ]
}

# The words of list A that list B lacks, space-separated (empty when none).
# shellcheck disable=SC2086 # the lists are split into words on purpose
debian_words_only_in() { # "A" "B"
  comm -23 <(printf '%s\n' $1 | sort -u) <(printf '%s\n' $2 | sort -u) | tr '\n' ' ' | sed 's/ *$//'
}

debian_cached_root() { # NAME SUITE ARCH PACKAGES...
  local name=$1 suite=$2 arch=$3 base cached want
  shift 3
  base=$(debian_base "$suite" "$arch") || return 1
  cached=$DEBIAN_CACHE/$name
  want="$(stat -c %Y "$base") $*"
  debian_cache_current "$cached" "$want" && { echo "$cached"; return 0; }
  # Same base, and the list only grew (a new -dev package): install the new ones in place,
  # which keeps what the root holds besides (the packager's .build, ~10 min of compiling).
  local had added
  had=$(cat "$cached/.fpmod-packages" 2>/dev/null || true)
  if [ -n "$had" ] && [ "${had%% *}" = "${want%% *}" ]; then
    added=$(debian_words_only_in "$*" "${had#* }")
    if [ -n "$added" ] && [ -z "$(debian_words_only_in "${had#* }" "$*")" ]; then
      (
        debian_mounts=()
        debian_root_use "$cached"
        trap 'for ((i = ${#debian_mounts[@]} - 1; i >= 0; i--)); do umount -l "${debian_mounts[$i]}"; done' EXIT
        debian_say "adding to the cached $name root ($arch): $added"
        inside "apt-get update -qq && apt-get install -y -qq --no-install-recommends $added >/dev/null"
      ) || return 1
      echo "$want" >"$cached/.fpmod-packages"
      echo "$cached"
      return 0
    fi
  fi
  rm -rf "$cached.tmp"
  cp -a "$base" "$cached.tmp"
  (
    debian_mounts=()
    debian_root_use "$cached.tmp"
    trap 'for ((i = ${#debian_mounts[@]} - 1; i >= 0; i--)); do umount -l "${debian_mounts[$i]}"; done' EXIT
    debian_say "installing into the cached $name root ($arch): $*"
    inside "apt-get update -qq && apt-get install -y -qq --no-install-recommends $* >/dev/null"
  ) || return 1
  echo "$want" >"$cached.tmp/.fpmod-packages"
  rm -rf "$cached"
  mv "$cached.tmp" "$cached"
  echo "$cached"
}

# A sysroot only has to hold headers, libraries, pkg-config files and Swift modules, so
# nothing in it has to run: apt resolves and downloads ARCH's packages natively (in the
# suite's amd64 base, with its own empty dpkg status and ARCH as the only architecture), and
# the .debs are unpacked on the host. Made in ~1 min instead of ~9 min of apt and dpkg under
# qemu-user. Maintainer scripts do not run; a sysroot needs none of what they do.
debian_cached_sysroot() { # NAME SUITE ARCH PACKAGES...
  local name=$1 suite=$2 arch=$3 base cached want
  shift 3
  base=$(debian_base "$suite" amd64) || return 1
  cached=$DEBIAN_CACHE/$name
  want="unpacked $(stat -c %Y "$base") $*"
  debian_cache_current "$cached" "$want" && { echo "$cached"; return 0; }
  rm -rf "$cached.tmp"
  (
    debian_mounts=()
    debian_fresh_roots=()
    debian_root_new "$base"
    trap 'debian_roots_cleanup' EXIT
    mkdir -p "$DEBIAN_CACHE/apt-archives-$arch/partial"
    debian_bind "$DEBIAN_CACHE/apt-archives-$arch" /var/cache/apt/archives-target
    local x=/var/lib/fpmod-cross
    mkdir -p "$ROOT$x/lists/partial" "$ROOT$x/cache"
    : >"$ROOT$x/status"
    echo "deb $DEBIAN_MIRROR $suite main" >"$ROOT$x/sources.list"
    local opts="-o APT::Architecture=$arch -o APT::Architectures::=$arch -o Dir::State::status=$x/status \
      -o Dir::State::Lists=$x/lists -o Dir::Cache=$x/cache -o Dir::Cache::archives=/var/cache/apt/archives-target \
      -o Dir::Etc::SourceList=$x/sources.list -o Dir::Etc::SourceParts=/nonexistent"
    debian_say "downloading $arch packages for the $name sysroot: $*"
    inside "apt-get $opts update -qq && apt-get $opts install -y -qq --download-only --no-install-recommends $* >/dev/null &&
      apt-get $opts install -s --no-install-recommends $* | sed -n 's/^Inst \\([^ ]*\\) (\\([^ ]*\\) .*/\\1 \\2/p'" \
      >"$DEBIAN_CACHE/$name.list" || exit 1
  ) || return 1
  mkdir -p "$cached.tmp"
  # Merged /usr, as a debootstrapped trixie root has it, before anything is unpacked.
  local d
  for d in bin sbin lib; do ln -s "usr/$d" "$cached.tmp/$d"; mkdir -p "$cached.tmp/usr/$d"; done
  local pkg version deb
  while read -r pkg version; do
    deb=$(ls "$DEBIAN_CACHE/apt-archives-$arch/${pkg%%:*}_${version//:/%3a}_"*.deb 2>/dev/null | head -n 1)
    [ -n "$deb" ] || { debian_say "sysroot $name: no .deb for $pkg $version"; return 1; }
    dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$cached.tmp" ||
      { debian_say "sysroot $name: cannot unpack $deb"; return 1; }
    echo "${pkg%%:*} $version" >>"$cached.tmp/.fpmod-versions"
  done <"$DEBIAN_CACHE/$name.list"
  [ -s "$cached.tmp/.fpmod-versions" ] || { debian_say "sysroot $name: apt resolved no packages"; return 1; }
  echo "$want" >"$cached.tmp/.fpmod-packages"
  rm -rf "$cached"
  mv "$cached.tmp" "$cached"
  echo "$cached"
}

debian_package_version() { # ROOT PACKAGE
  if [ -f "$1/.fpmod-versions" ]; then
    awk -v p="$2" '$1 == p { print $2; found = 1 } END { exit !found }' "$1/.fpmod-versions"
  else
    chroot "$1" dpkg-query -W -f='${Version}' "$2"
  fi
}

debian_roots_cleanup() {
  local i r
  for ((i = ${#debian_mounts[@]} - 1; i >= 0; i--)); do
    umount -l "${debian_mounts[$i]}" 2>/dev/null || true
  done
  debian_mounts=()
  for r in "${debian_fresh_roots[@]}"; do
    if [ "$DEBIAN_KEEP" = yes ]; then
      debian_say "kept $r"
    elif grep -q " $r/" /proc/mounts; then
      # Never rm -rf through a bind mount of the host's /dev.
      debian_say "not deleting $r: something is still mounted under it (see /proc/mounts)"
    else
      rm -rf "$r"
    fi
  done
  debian_fresh_roots=()
}
