#!/bin/bash
# shellcheck disable=SC2317  # helpers are called through check, must and wait_for
# Guest side of tools/upgrade-test.sh: runs as a systemd unit (upgrade-test.service) in a
# Debian 13 VM whose PID 1 is systemd, with the OLD fpmod package installed by apt, a gpio-sim
# chip (made here) and ttyS1 wired to `fpmod sim` on the host.
#
# 1. The admin's part: config.json edited for this VM (board gpio-vm), `fpmod pair`, `fpmod
#    enroll alice`, `systemctl enable --now fpmod`; alice's finger opens the door.
#    The fleet hub: PostgreSQL, a role and database, `systemctl enable --now fpmod-hub`; it
#    serves, its files are its user's alone, `fpmod hub add-door` works from the settings file.
# 2. The upgrade: `apt-get install ./NEW.deb` while fpmod.service runs (the relay is sampled
#    all along), then: the service restarted (new PID, old PID gone, stopped cleanly, not a
#    crash restart), runs the new binary, store key and config byte-identical, alice still
#    enrolled, the module still paired (no tamper, no "not the module paired"), relay off;
#    alice opens, a stranger does not.
#
# Talks to the host over the console (ttyS0): "HOST-TOUCH NAME N" asks the host to put the
# simulated finger NAME on the sensor for N captures; "ok ..."/"FAIL ..." per check;
# "STEP NAME SECONDS" per step; last "UPGRADE-TEST-EXIT=N (TOKEN)" and the VM powers off.
# Nothing comes back from the host: a scan that finds no finger yet is retried.
set -uo pipefail

T=/upgrade-test
exec >/dev/ttyS0 2>&1 </dev/null
TOKEN=$(cat $T/token)
OLD_VERSION=$(cat $T/old-version)
NEW_VERSION=$(cat $T/new-version)
NEW_DEB=$(ls $T/new/*.deb)
PORT=/dev/ttyS1
TOUCH=0 RELAY=1 TAMPER=4 # line offsets, as in tools/gpio-vm/lines
EVENTS=/tmp/events # journalctl -f -u fpmod: fpmod's stdout (one event per line) and systemd's notes
passed=0
failed=0

finish() {
	echo "guest: $passed passed, $failed failed"
	echo "UPGRADE-TEST-EXIT=$((failed > 0 ? 1 : 0)) ($TOKEN)"
	sync
	systemctl poweroff --force --force
	exit 0
}
pass() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
check() { # NAME COMMAND...
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}
# Fatal: later checks make no sense without this one.
must() { # NAME COMMAND...
	local name=$1
	shift
	if "$@"; then pass "$name"; else
		fail "$name"
		dump
		finish
	fi
}
not() { ! "$@"; }
step_t0=0
step() { step_name=$1 step_t0=$(date +%s.%N); echo "guest: --- $step_name"; }
step_done() { echo "STEP $step_name $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $step_t0}")"; }
# A wall-clock deadline: under TCG on a busy host one poll can take a good part of a second.
wait_for() { # SECONDS COMMAND...
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.1
	done
}
dump() {
	echo "--- journal of fpmod.service ---"
	journalctl -u fpmod.service -o short-monotonic --no-pager | tail -n 60
	echo "--- systemctl status fpmod ---"
	systemctl status fpmod.service --no-pager 2>&1 | head -n 20
	echo "--- journal of fpmod-hub.service ---"
	journalctl -u fpmod-hub.service -o short-monotonic --no-pager 2>/dev/null | tail -n 30
	echo "---"
}

sim=
pull() { echo "pull-$2" >"$sim/sim_gpio$1/pull"; }
value() { cat "$sim/sim_gpio$1/value"; }
is() { [ "$(value "$1")" = "$2" ]; }
mark() { wc -l <"$EVENTS"; }
new_events() { tail -n "+$(($1 + 1))" "$EVENTS"; }
has_new() { new_events "$1" | grep -q "^$2\( \|$\)"; }
has_new_text() { new_events "$1" | grep -qF -- "$2"; }
# The journal shows a name as privacy.log says: masked by default (alice -> a***e) in this
# release, whole in older ones, so the checks take either.
masked() { case ${#1} in 0 | 1 | 2) printf '%.1s***' "$1" ;; *) printf '%.1s***%s' "$1" "${1#"${1%?}"}" ;; esac; }
unlocked_since() { new_events "$1" | grep -qE "^unlocked${2:+ .*user=($2|$(masked "$2" | sed 's/\*/\\*/g'))}( |$)"; }
matched() { case $OUTCOME in "match "*"user=$1"* | "match "*"user=$(masked "$1")"*) true ;; *) false ;; esac; }
# shellcheck disable=SC2254  # the pattern is a glob on purpose
outcome_is() { case $OUTCOME in $1) true ;; *) false ;; esac }
prop() { systemctl show -p "$1" --value fpmod.service; }
active() { [ "$(prop ActiveState)" = active ]; }
alive() { kill -0 "$1" 2>/dev/null; }
gone() { ! alive "$1"; }
# `fpmod status` as an admin reads it: the pairing held (no tamper), the lock shut.
status_ok() {
	grep -qE '^Module: +connected' <<<"$1" && grep -qE '^Tamper: +quiet' <<<"$1" &&
		grep -qE '^Lock: +locked, relay off' <<<"$1"
}
# Each line of a command's output with the guest's uptime in front (where the time goes).
stamped() { while IFS= read -r l; do echo "$(cut -d' ' -f1 /proc/uptime) $l"; done; }

# scan FINGER: as tools/gpio-vm/run: asks the host for FINGER, holds the touch line (active
# low) until fpmod reports an outcome, watching relay and LEDs meanwhile. Sets OUTCOME,
# RELAY_SEEN, SCAN_MARK.
scan() {
	echo "HOST-TOUCH $1 1"
	sleep 1
	OUTCOME='' RELAY_SEEN=0
	SCAN_MARK=$(mark)
	local attempt=0 m tries line
	while [ -z "$OUTCOME" ] && [ "$attempt" -lt 10 ]; do
		attempt=$((attempt + 1))
		m=$(mark)
		pull $TOUCH down
		tries=600
		line=
		while [ -z "$line" ] && [ "$tries" -gt 0 ]; do
			is $RELAY 1 && RELAY_SEEN=1
			line=$(new_events "$m" | grep -E '^(match|no-match|misplaced|retry-scan|pin-required|pin-only|lockout|module-unavailable|fingerprint-disabled|tamper)( |$)' | head -n 1)
			tries=$((tries - 1))
			[ -n "$line" ] || sleep 0.05
		done
		pull $TOUCH up
		case $line in
		misplaced* | retry-scan*) echo "     (attempt $attempt: $line; retrying)" ;;
		"") echo "     (attempt $attempt: no scan outcome within the deadline)" && break ;;
		*) OUTCOME=$line ;;
		esac
		[ -n "$OUTCOME" ] || { echo "HOST-TOUCH $1 1"; sleep 1; }
	done
	is $RELAY 1 && RELAY_SEEN=1
	echo "     scan of $1: ${OUTCOME:-nothing} after $attempt attempt(s)"
}
# The door opens for FINGER: match, relay pulse, relay back off.
opens_for() { # LABEL FINGER USER
	scan "$2"
	check "$1: touch -> match for $3 ($OUTCOME)" matched "$3"
	check "$1: relay energised (1) on the match" [ "$RELAY_SEEN" = 1 ]
	# The journal follower may write the event a moment after the relay moved.
	check "$1: unlocked event for $3" wait_for 20 unlocked_since "$SCAN_MARK" "$3"
	check "$1: relay released (0) after the pulse" wait_for 30 is $RELAY 0
}
stays_shut_for_stranger() { # LABEL
	scan stranger
	check "$1: stranger -> no-match ($OUTCOME)" outcome_is "no-match*"
	local n=0
	while [ $n -lt 20 ]; do
		is $RELAY 1 && RELAY_SEEN=1
		n=$((n + 1))
		sleep 0.1
	done
	check "$1: relay stayed off (0) for the stranger" [ "$RELAY_SEEN" = 0 ]
	check "$1: no unlocked event for the stranger" not unlocked_since "$SCAN_MARK"
}

BOOT=$(cut -d' ' -f1 /proc/uptime)
echo "guest: systemd $(systemctl --version | head -n 1 | cut -d' ' -f2) is PID 1 ($(cat /proc/1/comm)), up $BOOT s; fpmod $OLD_VERSION installed"
echo "STEP boot: kernel, initramfs, systemd up to this unit $BOOT"
check "PID 1 is systemd" [ "$(cat /proc/1/comm)" = systemd ]
check "the OLD package is installed: fpmod --version says $OLD_VERSION" sh -c "fpmod --version | grep -qF 'fpmod $OLD_VERSION'"

# --- The GPIO chip: gpio-sim through configfs, lines named as in tools/gpio-vm/lines.
step "gpio-sim chip"
grep -qw configfs /proc/filesystems || insmod $T/modules/configfs.ko
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
insmod $T/modules/gpio-sim.ko
C=/sys/kernel/config/gpio-sim/gpio-vm
mkdir "$C" "$C/bank0"
echo 16 >"$C/bank0/num_lines"
echo gpio-vm >"$C/bank0/label"
i=0
for name in touch relay exit-button door-contact tamper led-green led-red buzzer module-power; do
	mkdir "$C/bank0/line$i" && printf '%s' "$name" >"$C/bank0/line$i/name"
	i=$((i + 1))
done
echo 1 >"$C/live"
CHIP=$(cat "$C/bank0/chip_name")
sim=/sys/devices/platform/$(cat "$C/dev_name")/$CHIP
udevadm settle --timeout=30 || true
chip_up() { [ -c "/dev/$CHIP" ] && [ -d "$sim/sim_gpio0" ]; }
must "gpio-sim chip $CHIP is up (sim side $sim)" chip_up
check "udev gave /dev/$CHIP to group gpio ($(stat -c '%G %a' "/dev/$CHIP"))" [ "$(stat -c %G "/dev/$CHIP")" = gpio ]
check "udev gave $PORT to group dialout ($(stat -c '%G %a' $PORT))" [ "$(stat -c %G $PORT)" = dialout ]
# The touch line idles high (active low, R30x wiring); gpio-sim starts every line pulled down.
pull $TOUCH up
step_done

# --- The admin's setup, as the README says: config for this board, pair, enroll, enable.
step "setup: config, pair, enroll"
# Edited in place (mode and owner stay the postinst's: root:fpmod 0640).
cat >/etc/fpmod/config.json <<'EOF'
{
  "board": "gpio-vm",
  "touch": { "activeLow": true },
  "leds": "gpio",
  "policy": { "mode": "door", "relayPulseSeconds": 3, "pinRequiredAfterEnrolledSetChange": false },
  "store": { "database": "/var/lib/fpmod/fpmod.db", "key": "/etc/fpmod/store.key" }
}
EOF
check "config check accepts the edited config" fpmod config check --config /etc/fpmod/config.json
must "fpmod pair (as the service user)" timeout 120 runuser -u fpmod -- fpmod --port $PORT pair
echo "HOST-TOUCH alice-right-index 2"
sleep 1
must "fpmod enroll alice (as the service user)" timeout 180 runuser -u fpmod -- fpmod --port $PORT enroll alice --finger right-index --timeout 60s
step_done

step "start fpmod.service (OLD)"
: >"$EVENTS"
journalctl -f -n all -o cat -u fpmod.service >>"$EVENTS" 2>/dev/null &
FOLLOWER=$!
m=$(mark)
check "systemctl enable --now fpmod" timeout 180 systemctl enable --now fpmod.service
must "fpmod.service is active" active
OLD_PID=$(prop MainPID)
check "the service reported module-ready (pid $OLD_PID)" wait_for 60 has_new "$m" module-ready
check "relay off (0) with the service running" is $RELAY 0
step_done

step "before the upgrade: alice opens"
opens_for "old" alice-right-index alice
KEY_SUM=$(sha256sum </etc/fpmod/store.key)
CONFIG_SUM=$(sha256sum </etc/fpmod/config.json)
KEY_MODE=$(stat -c '%U:%G %a' /etc/fpmod/store.key)
CONFIG_MODE=$(stat -c '%U:%G %a' /etc/fpmod/config.json)
LIST_BEFORE=$(timeout 60 fpmod list 2>&1)
echo "     fpmod list: $(echo "$LIST_BEFORE" | tr '\n' '|')"
check "fpmod list (through the service) shows alice" grep -q alice <<<"$LIST_BEFORE"
STATUS_BEFORE=$(timeout 60 fpmod status 2>&1)
echo "     fpmod status: $(echo "$STATUS_BEFORE" | tr '\n' '|')"
check "fpmod status: module connected, tamper quiet, locked" status_ok "$STATUS_BEFORE"
step_done

# --- The fleet hub as the package runs it (fpmod-hub.service, not enabled by the install), on
# this machine's PostgreSQL: the admin's part as docs/fleet.md says, then the upgrade restarts it.
step "fleet hub: PostgreSQL, fpmod-hub.service (OLD)"
hub_prop() { systemctl show -p "$1" --value fpmod-hub.service; }
hub_active() { [ "$(hub_prop ActiveState)" = active ]; }
hub_listens() { (exec 3<>/dev/tcp/127.0.0.1/8443) 2>/dev/null; }
hub_log_has() { journalctl -u fpmod-hub.service -o cat --no-pager | grep -qF -- "$1"; }
pg_ready() { runuser -u postgres -- psql -qAtc 'SELECT 1' >/dev/null 2>&1; }
as_hub() { runuser -u fpmod-hub -- "$@"; }
HUB_OLD_PID=0
if [ -f /usr/lib/systemd/system/fpmod-hub.service ]; then
	check "fpmod-hub.service installed, not enabled ($(systemctl is-enabled fpmod-hub.service 2>&1))" not systemctl is-enabled --quiet fpmod-hub.service
	check "/etc/default/fpmod-hub written by the postinst ($(stat -c '%U:%G %a' /etc/default/fpmod-hub))" \
		[ "$(stat -c '%U:%G %a' /etc/default/fpmod-hub)" = "root:root 644" ]
	check "PostgreSQL started" timeout 180 systemctl start postgresql.service
	must "PostgreSQL answers" wait_for 120 pg_ready
	check "a role and database for the hub (createuser fpmod-hub, createdb -O fpmod-hub fpmod)" \
		sh -c 'runuser -u postgres -- createuser fpmod-hub && runuser -u postgres -- createdb -O fpmod-hub fpmod'
	sed -i 's/^FPMOD_HUB_NAMES=.*/FPMOD_HUB_NAMES=hub.example,127.0.0.1/' /etc/default/fpmod-hub
	check "systemctl enable --now fpmod-hub" timeout 180 systemctl enable --now fpmod-hub.service
	must "fpmod-hub.service is active" wait_for 90 hub_active
	check "the hub listens on 8443" wait_for 90 hub_listens
	check "the hub printed its authority's fingerprint" wait_for 60 hub_log_has "authority SHA-256"
	check "/var/lib/fpmod-hub is fpmod-hub's alone ($(stat -c '%U:%G %a' /var/lib/fpmod-hub))" \
		[ "$(stat -c '%U:%G %a' /var/lib/fpmod-hub)" = "fpmod-hub:fpmod-hub 700" ]
	check "authority.key is fpmod-hub's alone ($(stat -c '%U %a' /var/lib/fpmod-hub/authority.key 2>&1))" \
		[ "$(stat -c '%U %a' /var/lib/fpmod-hub/authority.key)" = "fpmod-hub 600" ]
	ADD_DOOR=$(as_hub fpmod hub add-door garage 2>&1)
	check "fpmod hub add-door garage as fpmod-hub, the database from /etc/default/fpmod-hub" grep -q "Join code for door garage" <<<"$ADD_DOOR"
	check "fpmod hub doors lists garage, waiting" sh -c 'runuser -u fpmod-hub -- fpmod hub doors | grep -q garage'
	EXPOSURE=$(systemd-analyze security fpmod-hub.service 2>/dev/null | sed -n 's/.*Overall exposure level for fpmod-hub.service: \([0-9.]*\).*/\1/p')
	check "systemd-analyze security fpmod-hub: exposure ${EXPOSURE:-?} (at most 2.0)" awk "BEGIN{exit !(\"${EXPOSURE:-99}\" + 0 <= 2.0)}"
	HUB_OLD_PID=$(hub_prop MainPID)
	AUTHORITY_SUM=$(sha256sum </var/lib/fpmod-hub/authority.pem)
else
	echo "     the OLD package has no fpmod-hub.service: the hub's checks are skipped"
fi
step_done

# --- The upgrade, with the relay sampled throughout: the door must never open by itself.
step "upgrade: apt-get install ./$(basename "$NEW_DEB")"
m=$(mark)
(while :; do value $RELAY; sleep 0.02; done) >/tmp/relay-samples 2>/dev/null &
SAMPLER=$!
t0=$(date +%s.%N)
echo "     apt starts at uptime $(cut -d' ' -f1 /proc/uptime) s"
DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y "$NEW_DEB" 2>&1 | stamped >/tmp/apt.log
rc=${PIPESTATUS[0]}
t1=$(date +%s.%N)
kill $SAMPLER
wait $SAMPLER 2>/dev/null
sed 's/^/     apt: /' /tmp/apt.log | grep -v -E '^     apt: [0-9.]+ (Reading|Building|\(Reading)' | tail -n 25
check "apt-get install ./NEW.deb exited 0 ($(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") s)" [ "$rc" = 0 ]
step_done

step "after the upgrade"
check "fpmod --version reports the new version $NEW_VERSION ($(fpmod --version | head -n 1))" sh -c "fpmod --version | grep -qF 'fpmod $NEW_VERSION'"
check "dpkg knows fpmod $NEW_VERSION" [ "$(dpkg-query -W -f='${Version}' fpmod)" = "$NEW_VERSION" ]
check "fpmod.service is active after the upgrade" wait_for 60 active
NEW_PID=$(prop MainPID)
new_pid() { [ "$NEW_PID" != 0 ] && [ "$NEW_PID" != "$OLD_PID" ]; }
check "the service was restarted: new main PID ($OLD_PID -> $NEW_PID)" new_pid
check "the old PID $OLD_PID is gone" gone "$OLD_PID"
EXE=$(readlink "/proc/$NEW_PID/exe")
check "the running service is the new binary (/proc/$NEW_PID/exe -> $EXE)" [ "$EXE" = /usr/bin/fpmod ]
no_crash() { [ "$(prop NRestarts)" = 0 ] && [ "$(prop Result)" = success ]; }
check "the restart was the upgrade's, not a crash (NRestarts=$(prop NRestarts), Result=$(prop Result))" no_crash
check "the old service stopped cleanly (systemd: 'Deactivated successfully')" wait_for 20 has_new_text "$m" "Deactivated successfully"
stop_trouble() { new_events "$m" | grep -qE "Failed with result|timed out|Killing process|SIGKILL"; }
check "no failure, timeout or kill while stopping" not stop_trouble
check "the new service reported module-ready" wait_for 60 has_new "$m" module-ready
check "the new service raised no tamper" not has_new "$m" tamper
check "the module is still the paired one (no 'not the module paired')" not has_new_text "$m" "not the module paired"
echo "     relay samples during the upgrade: $(sort /tmp/relay-samples | uniq -c | tr '\n' ' ')"
check "relay never energised during the upgrade ($(wc -l </tmp/relay-samples) samples)" not grep -q 1 /tmp/relay-samples
check "relay off (0) after the restart: the lock came back locked" is $RELAY 0
check "store key byte-identical" [ "$(sha256sum </etc/fpmod/store.key)" = "$KEY_SUM" ]
check "store key still $KEY_MODE" [ "$(stat -c '%U:%G %a' /etc/fpmod/store.key)" = "$KEY_MODE" ]
check "config.json byte-identical" [ "$(sha256sum </etc/fpmod/config.json)" = "$CONFIG_SUM" ]
check "config.json still $CONFIG_MODE" [ "$(stat -c '%U:%G %a' /etc/fpmod/config.json)" = "$CONFIG_MODE" ]
LIST_AFTER=$(timeout 60 fpmod list 2>&1)
check "fpmod list (through the new service) is unchanged, alice there" [ "$LIST_AFTER" = "$LIST_BEFORE" ]
STATUS_AFTER=$(timeout 60 fpmod status 2>&1)
echo "     fpmod status: $(echo "$STATUS_AFTER" | tr '\n' '|')"
check "fpmod status (new service): module connected, tamper quiet, locked" status_ok "$STATUS_AFTER"
step_done

if [ "$HUB_OLD_PID" != 0 ]; then
	step "after the upgrade: the fleet hub"
	check "fpmod-hub.service is active after the upgrade" wait_for 90 hub_active
	HUB_NEW_PID=$(hub_prop MainPID)
	hub_restarted() { [ "$HUB_NEW_PID" != "$HUB_OLD_PID" ] && [ "$(readlink "/proc/$HUB_NEW_PID/exe")" = /usr/bin/fpmod ]; }
	check "the hub was restarted on the new binary ($HUB_OLD_PID -> $HUB_NEW_PID, $(readlink "/proc/$HUB_NEW_PID/exe"))" hub_restarted
	check "the hub listens again" wait_for 90 hub_listens
	check "the fleet's authority kept (every door pins it)" [ "$(sha256sum </var/lib/fpmod-hub/authority.pem)" = "$AUTHORITY_SUM" ]
	check "garage still waiting at the hub" sh -c 'runuser -u fpmod-hub -- fpmod hub doors | grep -q garage'
	step_done
fi

step "after the upgrade: alice opens, a stranger does not"
opens_for "new" alice-right-index alice
stays_shut_for_stranger "new"
step_done

step "stop, then upgrade a stopped service"
check "systemctl stop fpmod" timeout 60 systemctl stop fpmod.service
check "relay off (0) after the service stopped" is $RELAY 0
check "tamper input untouched (0)" is $TAMPER 0
# The postinst restarts only a running service: a stopped lock stays stopped (the admin
# stopped it for a reason). The same package again is an upgrade to the postinst ($2 set).
echo "     dpkg -i starts at uptime $(cut -d' ' -f1 /proc/uptime) s"
timeout 600 dpkg -i "$NEW_DEB" 2>&1 | stamped >/tmp/dpkg.log
rc=${PIPESTATUS[0]}
sed 's/^/     dpkg: /' /tmp/dpkg.log | tail -n 5
check "dpkg -i NEW.deb again, service stopped, exited 0" [ "$rc" = 0 ]
check "the stopped service stayed stopped ($(prop ActiveState))" [ "$(prop ActiveState)" = inactive ]
check "relay off (0)" is $RELAY 0
kill $FOLLOWER 2>/dev/null
step_done
[ "$failed" = 0 ] || dump
finish
