#!/usr/bin/env bash
# tools/gpio-vm-arm64/payload.sh FPMOD_DEB PAYLOAD_DIR — put the arm64 fpmod of a Debian
# package into a payload for run.sh, with every shared library it loads:
#   PAYLOAD_DIR/bin/fpmod            the package's /usr/bin/fpmod
#   PAYLOAD_DIR/lib/*                what it loads (Swift runtime and Foundation from
#                                    libswiftlang, libgpiod 3, sqlite, sodium, libstdc++, libc)
#   PAYLOAD_DIR/libgpiod-version     the libgpiod package version the binary runs with
# The closure comes from `ldd` in the builder root (common.sh), a Debian 13 arm64 root that
# has the package's Depends installed (any missing one is installed first), so the guest
# loads exactly what `apt install ./fpmod_..._arm64.deb` gives a Pi. The guest runs the
# payload with LD_LIBRARY_PATH=/payload/lib, which the loader searches before the binary's
# RUNPATH (/usr/libexec/swift/lib/swift/linux); the dynamic loader itself is in the base
# initramfs, from the same root.
# Needs root. Adds to PAYLOAD_DIR; does not write PAYLOAD_DIR/run.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/gpio-vm-arm64/common.sh
. "$HERE/common.sh"

case ${1:-} in
  -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
esac
[ $# -eq 2 ] || gva_die "usage: payload.sh FPMOD_DEB PAYLOAD_DIR"
DEB=$1
DEST=$2
[ -f "$DEB" ] || gva_die "no such package: $DEB"
[ "$(dpkg-deb -f "$DEB" Architecture)" = arm64 ] || gva_die "$DEB is not an arm64 package"

trap debian_roots_cleanup EXIT
trap 'exit 130' INT TERM
gva_builder

# Depends: "libc6 (>= 2.41), libswiftlang (>= 6.0.3), libswiftlang (<< 6.0.4~), a | b": the
# names, first alternative, versions dropped.
mapfile -t deps < <(dpkg-deb -f "$DEB" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep . | sort -u)
gva_builder_install "${deps[@]}"

W=/var/tmp/gpio-vm-arm64-payload.$$
rm -rf "${ROOT:?}$W" && mkdir -p "$ROOT$W/x"
dpkg-deb -x "$DEB" "$ROOT$W/x"
BIN=$W/x/usr/bin/fpmod
[ -f "$ROOT$BIN" ] || gva_die "$DEB has no /usr/bin/fpmod"
machine=$(od -An -tu2 -j18 -N2 "$ROOT$BIN" | tr -d ' ')
[ "$machine" = 183 ] || gva_die "$DEB's fpmod is not an aarch64 binary (ELF e_machine $machine)"

# "NAME REALPATH" per library, as the loader resolves them inside the builder.
if ! inside "LC_ALL=C ldd $BIN" >"$ROOT$W/ldd" 2>&1; then
  cat "$ROOT$W/ldd" >&2
  gva_die "ldd of the package's fpmod failed in the builder root"
fi
! grep -q '=> not found' "$ROOT$W/ldd" || gva_die "the package's fpmod needs libraries Debian 13 did not install:" "$(grep 'not found' "$ROOT$W/ldd")"
inside "awk '\$2 == \"=>\" && \$3 ~ /^\\// {print \$1, \$3}' $W/ldd | while read -r n p; do echo \"\$n \$(readlink -f \$p)\"; done" >"$ROOT$W/libs"
mkdir -p "$DEST/bin" "$DEST/lib"
cp "$ROOT$BIN" "$DEST/bin/fpmod"
chmod 755 "$DEST/bin/fpmod"
n=0
while read -r name real; do
  cp "$ROOT$real" "$DEST/lib/$name"
  n=$((n + 1))
done <"$ROOT$W/libs"
[ "$n" -gt 0 ] || gva_die "ldd listed no libraries for the package's fpmod"
inside "dpkg-query -W -f='\${Version}' libgpiod3" >"$DEST/libgpiod-version"
rm -rf "${ROOT:?}$W"
gva_log "payload: fpmod $(dpkg-deb -f "$DEB" Version) and $n libraries ($(du -sh "$DEST/lib" | cut -f1)) in $DEST; libgpiod $(cat "$DEST/libgpiod-version")"
