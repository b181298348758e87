#!/usr/bin/env bash
# The fleet console end to end (part of CI's fleet tier): a scratch PostgreSQL (initdb + pg_ctl,
# as nobody when run as root), `fpmod hub serve`, a door joined with `fpmod join`, then
# tools/fleet-console-browser-test.py drives Debian's headless chromium through python3-selenium:
# the first admin with `fpmod hub console-setup-code`, the doors and users, the stolen door
# revoked with a click, a join code for its replacement, the audit log, logout and a wrong
# password. Then the door itself is refused by the hub (`fpmod fleet sync`).
# The hub's certificate is trusted by its key's SHA-256 (--ignore-certificate-errors-spki-list).
#   tools/fleet-console-e2e.sh [--screenshots DIR]
set -euo pipefail

SCRIPT_NAME=fleet-console-e2e
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. tools/lib/script-steps.sh
. tools/lib/checks.sh
. tools/lib/browser.sh
shots=""
[ "${1:-}" = "--screenshots" ] && shots="${2:?a directory}"

step "tools: PostgreSQL, chromium, chromedriver, python3-selenium, openssl, fpmod"
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || die "no PostgreSQL server; tools/install-deps.sh installs it"
need_browser openssl
if [ -z "${FPMOD:-}" ]; then
  swift build --product fpmod >&2
  FPMOD="$(swift build --product fpmod --show-bin-path)/fpmod"
fi
step_done

work=$(mktemp -d "${TMPDIR:-/tmp}/fpmod-fleet-console.XXXXXX")
as=()
if [ "$(id -u)" -eq 0 ]; then chown nobody "$work"; as=(/usr/sbin/runuser -u nobody --); fi
hub_pid=""
cleanup() {
  if [ -n "$hub_pid" ]; then kill "$hub_pid" 2>/dev/null || true; wait "$hub_pid" 2>/dev/null || true; fi
  (cd / && "${as[@]}" "$bin/pg_ctl" -D "$work/data" -m immediate -w stop >/dev/null 2>&1) || true
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

step "a hub on a scratch PostgreSQL, a door joined to it, the console's setup code"
(cd / && "${as[@]}" "$bin/initdb" -D "$work/data" -U fpmod -A trust -E UTF8 --locale=C --no-sync >/dev/null)
(cd / && "${as[@]}" "$bin/pg_ctl" -D "$work/data" -l "$work/server.log" -w -o "-k $work -c listen_addresses=''" start >/dev/null)
export FPMOD_HUB_DATABASE="host=$work port=5432 user=fpmod dbname=postgres"
"$FPMOD" hub migrate >/dev/null
"$FPMOD" hub serve --listen 127.0.0.1:0 --names localhost,127.0.0.1 --dir "$work/hub" 2>"$work/hub.log" &
hub_pid=$!
for _ in $(seq 1 200); do grep -q "fleet authority SHA-256" "$work/hub.log" 2>/dev/null && break; sleep 0.1; done
line=$(grep -m1 "fleet authority SHA-256" "$work/hub.log") || { cat "$work/hub.log" >&2; die "the hub did not start"; }
port=$(sed -n 's|.*https://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' <<<"$line")
fingerprint=${line##*SHA-256 }
"$FPMOD" hub add-user alice --display-name "Alice A." >/dev/null
json_field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
code=$("$FPMOD" hub add-door front --json | json_field code)
door() { FPMOD_STORE="$work/door/store.db" FPMOD_STORE_KEY="$work/door/store.key" "$FPMOD" "$@"; }
door join "https://127.0.0.1:$port" "$code" --authority-sha256 "$fingerprint" >"$work/join.log" 2>&1 || { cat "$work/join.log" >&2; die "the door did not join"; }
door fleet sync >/dev/null 2>&1 || die "the joined door could not sync"
setup=$("$FPMOD" hub console-setup-code --dir "$work/hub" --json | json_field code)
spki=$(openssl x509 -in "$work/hub/hub.pem" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)
pass "hub on https://127.0.0.1:$port, door front joined and synced"
step_done

step "the fleet console in headless Chromium"
if /usr/bin/python3 tools/fleet-console-browser-test.py --url "https://127.0.0.1:$port" --spki "$spki" --setup-code "$setup" \
    --screenshots "${shots:-$work/screenshots}" >"$work/browser.log" 2>&1; then
  pass "browser flow ($(grep -c '^\[' "$work/browser.log" || true) steps)"
else
  fail "browser flow:"
  sed 's/^/  /' "$work/browser.log"
fi
step_done

step "the revoked door is refused by the hub"
if door fleet sync >"$work/sync.log" 2>&1; then
  fail "fpmod fleet sync still works at the revoked door"
elif grep -qi "revoked" "$work/sync.log"; then
  pass "fpmod fleet sync at the door: $(head -c 160 "$work/sync.log" | tr '\n' ' ')"
else
  fail "fpmod fleet sync failed without saying the door is revoked: $(cat "$work/sync.log")"
fi
step_done

kill -0 "$hub_pid" 2>/dev/null || fail "the hub died during the tests"
[ "$failed" -eq 0 ] || { say "hub log:"; sed 's/^/  /' "$work/hub.log" | tail -n 40; }
checks_summary
