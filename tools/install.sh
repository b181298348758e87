#!/usr/bin/env bash
# Builds fpmod and installs it as a system service (Debian 12 / Raspberry Pi OS bookworm).
#
#   tools/install.sh                   build (as you), then install with sudo
#   tools/install.sh --binary PATH     install a binary built elsewhere (e.g. for a Pi Zero)
#   tools/install.sh --uninstall       remove binary, unit, udev rule; keep config, store, user
#   tools/install.sh --uninstall --purge   …and delete /etc/fpmod, /var/lib/fpmod, user fpmod
#
# Safe to run again: an upgrade replaces the binary, unit and rule, restarts a running service,
# and never touches an existing config, key or store.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=/usr/local
bin="$prefix/bin/fpmod"
doc="$prefix/share/doc/fpmod"
unit=/etc/systemd/system/fpmod.service
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
        $sudo systemctl disable --now fpmod.service 2>/dev/null || true
    fi
    $sudo rm -f "$bin" "$unit" "$rule"
    $sudo rm -rf "$doc"
    if have_systemd; then $sudo systemctl daemon-reload; fi
    if have_udev; then $sudo udevadm control --reload; fi
    if [ "$purge" = yes ]; then
        # The store holds every enrolled template; without a backup they are gone for good.
        $sudo rm -rf "$config_dir" "$state_dir"
        if getent passwd fpmod >/dev/null; then $sudo userdel fpmod; fi
        if getent group fpmod >/dev/null; then $sudo groupdel fpmod; fi
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

# 2. Groups and the service user. Raspberry Pi OS has gpio; plain Debian does not.
getent group dialout >/dev/null || $sudo groupadd --system dialout
getent group gpio >/dev/null || $sudo groupadd --system gpio
if getent passwd fpmod >/dev/null; then
    $sudo usermod --append --groups dialout,gpio fpmod
else
    $sudo useradd --system --user-group --groups dialout,gpio \
        --home-dir "$state_dir" --no-create-home --shell /usr/sbin/nologin \
        --comment "fpmod fingerprint lock" fpmod
    say "created system user fpmod (groups dialout, gpio)"
fi

# 3. Files. `install` replaces atomically enough for an upgrade of a stopped or running service.
was_active=no
if have_systemd && systemctl is-active --quiet fpmod.service; then was_active=yes; fi
$sudo install -D -m 0755 "$binary" "$bin"
$sudo install -D -m 0644 tools/fpmod.service "$unit"
$sudo install -D -m 0644 tools/99-fpmod.rules "$rule"
[ ! -f README.md ] || $sudo install -D -m 0644 README.md "$doc/README.md"

# 4. Config and state directories: config readable by the service only, store private to it.
$sudo install -d -o root -g fpmod -m 0750 "$config_dir"
$sudo install -d -o fpmod -g fpmod -m 0700 "$state_dir"

# The config format is still being designed; `fpmod config check` validates whatever is there.
# Never overwrite an existing config: it is the user's.
if ! $sudo test -e "$config_dir/config.json"; then
    board=usb-serial
    model=""
    [ ! -r /proc/device-tree/model ] || model=$(tr -d '\0' </proc/device-tree/model)
    case "$model" in
        *"Raspberry Pi 5"*) board=rpi5 ;;
        *"Raspberry Pi Zero 2"*) board=rpi-zero2w ;;
        *"Raspberry Pi 3"*) board=rpi3 ;;
        *"Raspberry Pi"*) board=rpi4 ;;
    esac
    printf '{"board": "%s"}\n' "$board" | $sudo install -o root -g fpmod -m 0640 /dev/stdin "$config_dir/config.json"
    say "wrote $config_dir/config.json for board $board${model:+ ($model)}; edit it, then: fpmod config check --config $config_dir/config.json"
fi

# The store key: 32 random bytes, kept apart from the store it opens. Only made for a new store;
# a store without its key cannot be opened, and a fresh key would not open it either.
if ! $sudo test -e "$config_dir/store.key"; then
    if $sudo test -e "$state_dir/fpmod.db"; then
        say "WARNING: $state_dir/fpmod.db exists but $config_dir/store.key is missing;"
        say "restore the key file (or restore a backup into a new store), fpmod cannot open the store without it"
    else
        head -c 32 /dev/urandom | $sudo install -o fpmod -g fpmod -m 0400 /dev/stdin "$config_dir/store.key"
        say "created $config_dir/store.key; keep a copy somewhere safe, apart from backups of the store"
    fi
fi

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
else
    say "systemd is not running here: files installed, service not registered"
fi

version=$("$bin" --version 2>/dev/null | head -n 1) || true
say "installed $bin${version:+ ($version)}"
cat >&2 <<EOF

Next steps:
  1. Enable the UART (README: "Raspberry Pi UART and GPIO setup") and wire the module.
  2. First-run guide as the service user (finds the port, pairs the module, enrolls an admin):
       sudo -u fpmod $bin setup
  3. Start the service now and at every boot:
       sudo systemctl enable --now fpmod
       journalctl -u fpmod -f
EOF
