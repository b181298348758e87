#!/usr/bin/env bash
# Installs the Debian packages fpmod builds and tests against, only those missing.
# Safe to run again; needs root (or sudo) only when something is missing.
set -euo pipefail
need=()
for pkg in pkg-config libsqlite3-dev libsodium-dev libgpiod-dev python3-venv; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
echo "fpmod: installing ${need[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
