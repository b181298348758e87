#!/usr/bin/env bash
# Installs what fpmod builds and tests against, only what is missing. Safe to run again; needs
# root (or sudo) only when something is missing.
#
# - The Debian C libraries and tools, by the same names on Debian 12 (Raspberry Pi OS bookworm)
#   and Debian 13 (Pi OS trixie): libgpiod 1.6 on the first, libgpiod 2 on the second; the
#   build picks the matching backend by itself.
# - libmosquitto (the MQTT client of the Home Assistant bridge) and the mosquitto broker, which
#   the MQTT tests start on a loopback port of their own (the Debian service is left as it is),
#   and its command-line clients, which the tests use as an independent second party (openssl
#   makes the certificates of the TLS tests).
# - umockdev, whose umockdev-run replays scripted spidev sessions for the SPI sensor tests
#   (no SPI hardware or kernel support needed).
# - socat, with which the tests run the documentation's control-socket examples as printed.
# - tzdata: schedules are read on the door's clock, in an IANA zone from /usr/share/zoneinfo.
# - libmicrohttpd and GnuTLS: the web console's HTTPS server and its self-signed certificate;
#   curl is the console tests' independent HTTP client.
# - A Swift toolchain when none is on PATH: Debian 13 has one (`swiftlang`, Swift 6.0), so it is
#   installed from apt; Debian 12 has none, so the script says where to get one and stops.
set -euo pipefail

say() { echo "fpmod: $*" >&2; }

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
updated=no
apt_install() {
  if [ "$updated" = no ]; then
    $sudo apt-get update -qq
    updated=yes
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }

need=()
# sqlite3: the shell the audit-log tamper tests and the soak use as another process on the store;
# faketime: steps a real service's wall clock in the clock-jump test.
for pkg in pkg-config libsqlite3-dev libsodium-dev libgpiod-dev libmosquitto-dev mosquitto mosquitto-clients openssl python3-venv umockdev socat tzdata libmicrohttpd-dev libgnutls28-dev curl sqlite3 faketime; do
  installed "$pkg" || need+=("$pkg")
done
# libpng (fingerprint images as PNG files) and libfprint with GLib's headers (the host-side
# matcher of SPI image sensors; libfprint-2-dev does not pull libglib2.0-dev in by itself).
# libevdev: keypads on the Linux input subsystem (USB keypads, matrix-keypad and gpio-keys);
# the device tree compiler checks the Pi keypad overlays in tools/keypad.
# libnfc: NFC card readers (PN532 and kin); libnfc-bin's nfc-list is the tests' independent
# second client of the simulated PN532.
# libfreefare: MIFARE DESFire (fpmod's secure cards) over libnfc; libfreefare-bin's
# mifare-desfire-info is the tests' independent client of the simulated DESFire. libssl-dev:
# libcrypto's AES and CMAC for DESFire key diversification and the simulated card.
for pkg in libpng-dev libfprint-2-dev libglib2.0-dev libevdev-dev libnfc-dev libnfc-bin libfreefare-dev libfreefare-bin libssl-dev device-tree-compiler; do
  installed "$pkg" || need+=("$pkg")
done
# libpq: the fleet hub's client of PostgreSQL; postgresql: the server its tests start in a
# scratch folder (initdb + pg_ctl, as nobody under root) — 15 on Debian 12, 17 on Debian 13.
# libcurl (its GnuTLS flavour, as the fleet's certificates are GnuTLS's): a door's HTTPS client
# of the hub (fpmod join, following the hub's changes). zlib: the hub's answers gzipped
# (libpng-dev pulls it in too; named for what fpmod links itself).
for pkg in libpq-dev postgresql libcurl4-gnutls-dev zlib1g-dev; do
  installed "$pkg" || need+=("$pkg")
done

if ! command -v swift >/dev/null 2>&1; then
  # Debian 13 and later ship Swift as `swiftlang`; ask apt rather than guess from the release
  # name, so Raspberry Pi OS and other derivatives are covered too.
  if [ "$updated" = no ]; then
    $sudo apt-get update -qq
    updated=yes
  fi
  if [ -n "$(apt-cache policy swiftlang 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v '(none)')" ]; then
    need+=(swiftlang)
  else
    release=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-this system}")
    say "no Swift toolchain on PATH, and ${release:-this system} has no swiftlang package."
    say "Install Swift 6.0 or newer from https://www.swift.org/install/linux/ (the Debian 12 tarball"
    say "for aarch64 or x86_64), put its usr/bin on PATH, and run this script again."
    exit 69
  fi
fi

# `swift build --static-swift-stdlib` (tools/install.sh, the GPIO VM test) links libstdc++
# statically: its -dev package must match the GCC whose runtime the toolchain uses, which is the
# libgcc-N-dev already installed (by swiftlang on Debian 13, by hand for swift.org's toolchain).
gcc_major=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 'libgcc-*-dev' 2>/dev/null |
  sed -n 's/^ii  *libgcc-\([0-9]*\)-dev$/\1/p' | sort -n | tail -n 1 || true)
if [ -z "$gcc_major" ] && [[ " ${need[*]} " == *" swiftlang "* ]]; then
  # swiftlang is about to bring libgcc-N-dev; ask apt which N.
  gcc_major=$(apt-cache depends --recurse --important swiftlang 2>/dev/null |
    sed -n 's/^ *Depends: libgcc-\([0-9]*\)-dev$/\1/p' | sort -n | tail -n 1 || true)
fi
if [ -n "$gcc_major" ]; then
  installed "libstdc++-$gcc_major-dev" || need+=("libstdc++-$gcc_major-dev")
fi

# The public-domain NIST example prints the host-matcher tests measure with come in
# libfprint-2-tests, which Debian 13 has and Debian 12 does not. Asked of apt's lists as they
# are (no update just for this, so a complete Debian 12 machine needs no root here); the tests
# that need the prints say they were skipped, and why, where they are missing.
optional_candidate() {
  [ -n "$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v '(none)')" ]
}
if ! installed libfprint-2-tests; then
  if optional_candidate libfprint-2-tests; then
    need+=(libfprint-2-tests)
  elif [ ${#need[@]} -gt 0 ]; then
    # Something is being installed anyway: with fresh lists, ask again afterwards.
    check_tests_after=yes
  fi
fi

if [ ${#need[@]} -gt 0 ]; then
  if [[ " ${need[*]} " == *" postgresql "* ]] && [ ! -d /etc/postgresql ]; then
    # Only the server's programs are wanted (the tests make their own clusters): no system
    # cluster and no service started at install (a chroot's build root must not keep a server
    # running). A drop-in, not createcluster.conf itself (postgresql-common's own file).
    # A hub's operator makes a cluster with pg_createcluster.
    say "PostgreSQL without a system cluster (/etc/postgresql-common/createcluster.d/fpmod.conf)"
    $sudo mkdir -p /etc/postgresql-common/createcluster.d
    echo "create_main_cluster = false" | $sudo tee /etc/postgresql-common/createcluster.d/fpmod.conf >/dev/null
  fi
  say "installing ${need[*]}"
  apt_install "${need[@]}"
fi
if [ "${check_tests_after:-no}" = yes ] && optional_candidate libfprint-2-tests; then
  say "installing libfprint-2-tests (NIST example prints for the matcher tests)"
  apt_install libfprint-2-tests
fi
