#!/usr/bin/env bash
# The fleet hub under many doors, measured: a scratch PostgreSQL (initdb + pg_ctl, as nobody
# under root, a Unix socket only), `fpmod hub serve` on it, and `FleetBench doors`: N doors
# (default 200, each its own key pair, certificate, SQLite store and libcurl connection) join,
# make their first sync of USERS users (default 10,000) all at once, then wait on long polls
# while one user is revoked at the hub. CONNECTIONS: the hub's pool (`hub serve --connections`, default 4).
#   tools/fleet-bench.sh [DOORS] [USERS] [CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
doors=${1:-200}
users=${2:-10000}
connections=${3:-4}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "fleet-bench: no PostgreSQL server; tools/install-deps.sh installs it" >&2; exit 69; }
swift build -c release --product fpmod >&2
swift build -c release --product FleetBench >&2

work=$(mktemp -d /tmp/fpmod-fleet-bench.XXXXXX)
as=()
if [ "$(id -u)" -eq 0 ]; then chown nobody "$work"; as=(/usr/sbin/runuser -u nobody --); fi
hub_pid=
cleanup() {
  [ -n "$hub_pid" ] && kill "$hub_pid" 2>/dev/null && wait "$hub_pid" 2>/dev/null || true
  (cd / && "${as[@]}" "$bin/pg_ctl" -D "$work/data" -m immediate -w stop >/dev/null 2>&1) || true
  rm -rf "$work"
}
trap cleanup EXIT
(cd / && "${as[@]}" "$bin/initdb" -D "$work/data" -U fpmod -A trust -E UTF8 --locale=C --no-sync >/dev/null)
(cd / && "${as[@]}" "$bin/pg_ctl" -D "$work/data" -l "$work/server.log" -w -o "-k $work -c listen_addresses='' -c max_connections=50" start >/dev/null)
database="host=$work port=5432 user=fpmod dbname=postgres"
.build/release/fpmod hub migrate --database "$database" >&2

.build/release/fpmod hub serve --database "$database" --listen 127.0.0.1:0 --names localhost,127.0.0.1 --dir "$work/hub" --connections "$connections" 2>"$work/hub.log" &
hub_pid=$!
for _ in $(seq 1 200); do grep -q "fleet authority SHA-256" "$work/hub.log" 2>/dev/null && break; sleep 0.1; done
line=$(grep -m1 "fleet authority SHA-256" "$work/hub.log") || { cat "$work/hub.log" >&2; exit 1; }
port=$(sed -n 's|.*https://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' <<<"$line")
fingerprint=${line##*SHA-256 }

echo "fpmod fleet bench: $doors doors, $users users, $connections hub connections, hub and doors on this machine ($(nproc) cores)"
.build/release/FleetBench doors --hub "https://127.0.0.1:$port" --database "$database" --authority-sha256 "$fingerprint" \
  --doors "$doors" --users "$users" --hub-pid "$hub_pid"
