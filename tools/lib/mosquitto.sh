# shellcheck shell=bash
# A mosquitto of the script's own for the Home Assistant scripts (bash; sourced; needs die and
# say from script-steps.sh):
#
#   broker_start DIR    a broker on a free 127.0.0.1 port, its config, password file and log in
#                       DIR: authentication on, anonymous off, nothing persisted; users `fpmod`
#                       (password door-secret) and `homeassistant` (ha-secret). Sets
#                       BROKER_PORT and BROKER_PID, and waits until the port accepts.
#                       BROKER_NICE, when set, is its nice value.
#   broker_stop         SIGTERM and wait
#   paho_venv VENV      creates or reuses VENV with paho-mqtt $PAHO_VERSION from PyPI
#   lock_service_files DIR POLICY
#                       the files of an `fpmod run` on that broker, all under DIR: store and key
#                       (exported as FPMOD_STORE/FPMOD_STORE_KEY), sockets in DIR/sockets (sets
#                       `sockets`), both MQTT password files (0600), and DIR/config.json with the
#                       policy object POLICY and an mqtt section for device `front-door`

PAHO_VERSION=2.1.0

paho_venv() {
  local venv=$1
  if [ ! -x "$venv/bin/python" ] ||
    ! "$venv/bin/python" -c "import paho.mqtt as p; assert p.__version__ == '$PAHO_VERSION'" 2>/dev/null; then
    say "creating $venv (paho-mqtt $PAHO_VERSION)"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "paho-mqtt==$PAHO_VERSION"
  fi
}

BROKER_PID=""
broker_start() {
  local dir=$1 n=0
  if [ ! -x /usr/sbin/mosquitto ] || [ ! -x /usr/bin/mosquitto_passwd ]; then die "mosquitto is missing: run tools/install-deps.sh"; fi
  BROKER_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  mosquitto_passwd -c -b "$dir/passwords" fpmod door-secret
  mosquitto_passwd -b "$dir/passwords" homeassistant ha-secret
  cat >"$dir/mosquitto.conf" <<EOF
listener $BROKER_PORT 127.0.0.1
allow_anonymous false
password_file $dir/passwords
persistence false
log_dest file $dir/mosquitto.log
log_type error
log_type warning
log_type notice
log_type information
user $(id -un)
EOF
  nice -n "${BROKER_NICE:-0}" /usr/sbin/mosquitto -c "$dir/mosquitto.conf" &
  BROKER_PID=$!
  until python3 -c "import socket; socket.create_connection(('127.0.0.1', $BROKER_PORT), 1)" 2>/dev/null; do
    n=$((n + 1))
    if [ $n -gt 200 ] || ! kill -0 "$BROKER_PID" 2>/dev/null; then
      cat "$dir/mosquitto.log" >&2 || true
      die "mosquitto did not start on 127.0.0.1:$BROKER_PORT"
    fi
    sleep 0.1
  done
}

broker_stop() {
  if [ -n "$BROKER_PID" ]; then
    kill "$BROKER_PID" 2>/dev/null || true
    wait "$BROKER_PID" 2>/dev/null || true
    BROKER_PID=""
  fi
}

lock_service_files() {
  local dir=$1 policy=$2
  export FPMOD_STORE="$dir/store.db" FPMOD_STORE_KEY="$dir/store.key" RUNTIME_DIRECTORY="$dir/run"
  unset FPMOD_CONFIG FPMOD_PORT FPMOD_SIM
  sockets="$dir/sockets"
  mkdir -p "$sockets"
  printf 'door-secret\n' >"$dir/mqtt.password"
  chmod 600 "$dir/mqtt.password"
  printf 'ha-secret\n' >"$dir/ha.password"
  cat >"$dir/config.json" <<EOF
{"board": "gpio-vm",
 "policy": $policy,
 "control": {"socket": "$sockets/control.sock"}, "events": {"socket": "$sockets/events.sock"},
 "mqtt": {"url": "mqtt://fpmod@127.0.0.1:$BROKER_PORT", "passwordFile": "$dir/mqtt.password",
          "deviceId": "front-door", "remoteUnlock": "user-pin"}}
EOF
}
