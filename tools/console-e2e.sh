#!/usr/bin/env bash
# The web console end to end (CI tier "browser"): `fpmod run --sim --sim-gpio` with the console
# enabled, a setup code from `fpmod console setup-code`, then
# 1. tools/console-browser-test.py: Debian's chromium (headless) driven by Debian's
#    python3-selenium through chromedriver: first admin with the setup code, login, a live
#    enrollment while the simulator touches, the grant on the dashboard, the log and its CSV,
#    a setting changed, the kiosk lock screen's PIN fallback and lockout countdown; screenshots
#    of every page at phone and desktop size (docs/screenshots/ with --screenshots-to-docs);
# 2. tools/console/security_test.py: plain HTTP clients against the same console (no session,
#    cross-origin, CSRF, fixation, traversal, sizes, TLS versions, 1,000 idle connections).
# The certificate is the console's self-signed one; Chromium trusts it by its key's SHA-256
# (--ignore-certificate-errors-spki-list), Python by the certificate file: nothing is ignored.
set -euo pipefail

SCRIPT_NAME=console-e2e
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. tools/lib/script-steps.sh
. tools/lib/checks.sh
. tools/lib/browser.sh

screenshots="${CONSOLE_SCREENSHOTS:-}"
[ "${1:-}" = "--screenshots-to-docs" ] && screenshots="$root/docs/screenshots"

step "tools: chromium, chromedriver, python3-selenium, curl, openssl, fpmod"
need_browser curl openssl
if [ -z "${FPMOD:-}" ]; then
  swift build --product fpmod >&2
  FPMOD="$(swift build --product fpmod --show-bin-path)/fpmod"
fi
step_done

work="$(mktemp -d "${TMPDIR:-/tmp}/fpmod-console-e2e.XXXXXX")"
service_pid=""
cleanup() {
  if [ -n "$service_pid" ]; then kill "$service_pid" 2>/dev/null || true; wait "$service_pid" 2>/dev/null || true; fi
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

step "config with the console on, a setup code, fpmod run --sim --sim-gpio"
export FPMOD_STORE="$work/store.db" FPMOD_STORE_KEY="$work/store.key" RUNTIME_DIRECTORY="$work/run"
unset FPMOD_CONFIG FPMOD_PORT FPMOD_SIM
sockets="$work/sockets"
mkdir -p "$sockets"
console_port=$(free_port)
lock_port=$(free_port)
cat >"$work/config.json" <<JSON
{"board": "gpio-vm",
 "policy": {"relayPulseSeconds": 1, "pinRequiredAfterEnrolledSetChange": false, "pinRequiredAfterRestart": false,
            "pinLockout": {"failuresPerTimedLockout": 3, "timedLockoutSeconds": 30}},
 "control": {"socket": "$sockets/control.sock"}, "events": {"socket": "$sockets/events.sock"},
 "console": {"enabled": true, "bind": "127.0.0.1", "port": $console_port, "lockScreenPort": $lock_port}}
JSON
fpmod() { "$FPMOD" --config "$work/config.json" "$@"; }
fpmod config check "$work/config.json" >/dev/null || { fpmod config check "$work/config.json"; die "config check failed"; }
code=$(fpmod console setup-code --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["code"])')
fpmod run --sim --sim-gpio >>"$work/run.log" 2>&1 &
service_pid=$!
n=0
until curl -s -o /dev/null --cacert "$work/console-cert.pem" "https://127.0.0.1:$console_port/login" 2>/dev/null; do
  n=$((n + 1))
  [ $n -le 300 ] || { cat "$work/run.log" >&2; die "the console did not answer on port $console_port"; }
  sleep 0.1
done
n=0
until fpmod status --json 2>/dev/null | grep -q '"module" *: *"connected"'; do
  n=$((n + 1))
  [ $n -le 300 ] || { cat "$work/run.log" >&2; die "the simulated module never connected"; }
  sleep 0.1
done
url_json=$(fpmod console url --json)
certificate=$(echo "$url_json" | python3 -c 'import json, sys; print(json.load(sys.stdin)["certificate"])')
spki=$(openssl x509 -in "$certificate" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)
pass "console on https://127.0.0.1:$console_port (certificate SHA-256 $(echo "$url_json" | python3 -c 'import json, sys; print(json.load(sys.stdin)["sha256"][:23])')…)"
step_done

step "the browser: headless Chromium through Selenium"
shots="${screenshots:-$work/screenshots}"
mkdir -p "$shots"
if /usr/bin/python3 tools/console-browser-test.py --url "https://127.0.0.1:$console_port" --lock-url "http://127.0.0.1:$lock_port" \
  --spki "$spki" --cacert "$certificate" --setup-code "$code" --admin admin --password "door console 2026" \
  --sim-control "python3 $root/tools/lib/simctl.py $sockets/sim-control.sock 'touch {finger} 1'" --screenshots "$shots" >"$work/browser.log" 2>&1; then
  pass "browser flow ($(grep -c '^\[' "$work/browser.log" || true) steps; screenshots in $shots)"
else
  fail "browser flow:"
  sed 's/^/  /' "$work/browser.log"
fi
step_done

step "security with plain HTTP clients"
if /usr/bin/python3 tools/console/security_test.py --url "https://127.0.0.1:$console_port" --cafile "$certificate" \
  --lock-url "http://127.0.0.1:$lock_port" --admin admin --password "door console 2026" --used-setup-code "$code" >"$work/security.log" 2>&1; then
  pass "security checks ($(grep -c '^ok' "$work/security.log") passed)"
else
  fail "security checks:"
  grep -v '^ok' "$work/security.log" | sed 's/^/  /'
fi
step_done

if ! kill -0 "$service_pid" 2>/dev/null; then fail "the service died during the tests"; fi
if [ "$failed" -ne 0 ]; then
  say "service log (last 60 lines):"
  tail -n 60 "$work/run.log" | sed 's/^/  /'
fi
checks_summary
