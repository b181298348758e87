#!/usr/bin/env bash
# Builds fpmod and installs it as a system service (Debian 12 / Raspberry Pi OS bookworm).
#
#   tools/install.sh                   build (as you), then install with sudo
#   tools/install.sh --binary PATH     install a binary built elsewhere (e.g. for a Pi Zero)
#   tools/install.sh --uninstall       remove binary, units, udev rule; keep config, store, users
#   tools/install.sh --uninstall --purge   …and delete /etc/fpmod, /var/lib/fpmod, user fpmod, and the
#                                      hub's /etc/default/fpmod-hub, /var/lib/fpmod-hub, user fpmod-hub
#
# Safe to run again: an upgrade replaces the binary, unit and rule, restarts a running service,
# and never touches an existing config, key or store.
#
# For machines where the Debian package does not fit (Debian 12 / Pi OS bookworm, builds from a
# working tree). The user, groups, /etc/fpmod (config and store key) and /var/lib/fpmod are
# made by the package's own maintainer scripts (tools/debian/postinst, postrm), run from here,
# so a source install and a package install are set up the same way.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=/usr/local
bin="$prefix/bin/fpmod"
doc="$prefix/share/doc/fpmod"
share="$prefix/share/fpmod"
unit=/etc/systemd/system/fpmod.service
hub_unit=/etc/systemd/system/fpmod-hub.service
rule=/etc/udev/rules.d/99-fpmod.rules
config_dir=/etc/fpmod
state_dir=/var/lib/fpmod

mode=install
purge=no
binary=""
while [ $# -gt 0 ]; do
    case "$1" in
        --uninstall) mode=uninstall ;;
        --purge) purge=yes ;;
        --binary)
            [ $# -ge 2 ] || { echo "install.sh: --binary needs a path" >&2; exit 64; }
            binary="$2"; shift ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 64 ;;
    esac
    shift
done
if [ "$purge" = yes ] && [ "$mode" != uninstall ]; then
    echo "install.sh: --purge only goes with --uninstall" >&2; exit 64
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
say() { echo "fpmod install: $*" >&2; }
# systemd and udev may be absent (containers, chroots): then only the files are installed.
have_systemd() { [ -d /run/systemd/system ]; }
have_udev() { [ -S /run/udev/control ]; }

if [ "$mode" = uninstall ]; then
    if have_systemd; then
        $sudo systemctl disable --now fpmod.service fpmod-hub.service 2>/dev/null || true
    fi
    $sudo rm -f "$bin" "$unit" "$hub_unit" "$rule"
    $sudo rm -rf "$doc" "$share"
    if have_systemd; then $sudo systemctl daemon-reload; fi
    if have_udev; then $sudo udevadm control --reload; fi
    if [ "$purge" = yes ]; then
        # The store holds every enrolled template; without a backup they are gone for good.
        $sudo sh tools/debian/postrm purge
        say "removed fpmod, its config, key, store and user (group gpio left in place)"
    else
        say "removed the binary, unit and udev rule"
        say "kept $config_dir (config, store key), $state_dir (templates) and user fpmod;"
        say "take a backup first (fpmod backup FILE), then --uninstall --purge deletes them"
    fi
    exit 0
fi

# 1. Build, as the invoking user (not root: the .build directory stays yours).
if [ -z "$binary" ]; then
    # Installs the libraries, and Swift itself where Debian has it (Debian 13 / Pi OS trixie);
    # on Debian 12 it says where to get Swift and stops.
    tools/install-deps.sh
    # --static-swift-stdlib: the binary does not need the toolchain's libraries at run time,
    # which the sandbox could hide (ProtectHome=yes) if the toolchain lives under /home.
    swift build -c release --static-swift-stdlib --product fpmod
    binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/fpmod"
fi
[ -x "$binary" ] || { say "$binary is not an executable"; exit 66; }

# 3. Files. `install` replaces atomically enough for an upgrade of a stopped or running service.
was_active=no
if have_systemd && systemctl is-active --quiet fpmod.service; then was_active=yes; fi
hub_was_active=no
if have_systemd && systemctl is-active --quiet fpmod-hub.service; then hub_was_active=yes; fi
$sudo install -D -m 0755 "$binary" "$bin"
$sudo install -D -m 0644 tools/fpmod.service "$unit"
$sudo install -D -m 0644 tools/fpmod-hub.service "$hub_unit"
$sudo install -D -m 0644 tools/99-fpmod.rules "$rule"
[ ! -f README.md ] || $sudo install -D -m 0644 README.md "$doc/README.md"
for page in docs/*.md; do [ ! -f "$page" ] || $sudo install -D -m 0644 "$page" "$doc/docs/$(basename "$page")"; done
$sudo install -D -m 0644 tools/debian/config.default.json "$share/config.default.json"
for board in boards/*.json; do $sudo install -D -m 0644 "$board" "$share/boards/$(basename "$board")"; done

# 4. The service user and groups (dialout, gpio), /etc/fpmod with the config for this board
# and the store key (0600, created once, never replaced), /var/lib/fpmod: what the package's
# postinst does on a first install ("" as the old version: restarts are step 5's job).
$sudo env FPMOD_SHARE_DIR="$share" sh tools/debian/postinst configure ""

# 5. Tell systemd and udev.
if have_udev; then
    $sudo udevadm control --reload
    $sudo udevadm trigger --subsystem-match=tty --subsystem-match=gpio
fi
if have_systemd; then
    $sudo systemctl daemon-reload
    if [ "$was_active" = yes ]; then
        $sudo systemctl restart fpmod.service
        say "restarted the running service with the new binary"
    fi
    if [ "$hub_was_active" = yes ]; then
        $sudo systemctl restart fpmod-hub.service
        say "restarted the running fleet hub with the new binary"
    fi
else
    say "systemd is not running here: files installed, service not registered"
fi

version=$("$bin" --version 2>/dev/null | head -n 1) || true
say "installed $bin${version:+ ($version)}"
# The next steps were printed by postinst.
