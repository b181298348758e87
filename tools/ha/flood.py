"""A paced flood of MQTT messages that fpmod must ignore, for tools/bench-mqtt-flood.sh.

    flood.py --port P --user U --password-file F --device ID --rate 1000 --seconds S

Reads the lock's command topic from the retained discovery payload, then publishes `rate`
messages a second (QoS 1, paced in 1 ms slots) for `seconds` (or until SIGTERM): on the command topic malformed,
oversized and wrong-shape payloads (never a wrong code: that would lock the keypad out, which
is the policy working, not a flood), and on <prefix>/status "online" (rediscovery), "offline"
and garbage. Prints what it sent and the rate it achieved as JSON.
"""
import argparse
import json
import signal
import time

import paho.mqtt.client as mqtt

COMMAND_PAYLOADS = [
    b'{"action":',                                             # truncated JSON
    b"\xff\xfe\x00garbage",                                    # not UTF-8
    b"UNLOCK",                                                 # a bare word, not the template's JSON
    b'{"action":"UNLOCK","code":"' + b"9" * 400 + b'"}',       # oversized (over 256 bytes)
    b"[1, 2, 3]",                                              # JSON of the wrong shape
    b'{"action": 42, "code": "1234"}',                         # action not a string
    b'{"code": "1234"}',                                       # no action
    b'{"action":"DANCE","code":"1234"}',                       # unknown action
    b"x" * 2000,                                               # oversized junk
]
STATUS_PAYLOADS = [b"online", b"offline", b"\x00\x01binary"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password-file", required=True)
    parser.add_argument("--prefix", default="homeassistant")
    parser.add_argument("--device", required=True)
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--ready", help="a file created once the flood is running (SIGTERM is handled from then on)")
    args = parser.parse_args()
    with open(args.password_file) as f:
        password = f.readline().rstrip("\n")

    discovery = f"{args.prefix}/device/{args.device}/config"
    found = {}
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="ha-flood")
    client.username_pw_set(args.user, password)
    client.max_inflight_messages_set(1000)
    client.max_queued_messages_set(0)
    client.on_connect = lambda c, *_: c.subscribe(discovery, 1)
    client.on_message = lambda _c, _u, m: found.setdefault("config", m.payload)
    client.connect("127.0.0.1", args.port)
    client.loop_start()
    deadline = time.monotonic() + 20
    while "config" not in found and time.monotonic() < deadline:
        time.sleep(0.01)
    if "config" not in found:
        raise SystemExit(f"flood: no discovery payload on {discovery}")
    config = json.loads(found["config"])
    command = next(c for c in config["cmps"].values() if c.get("p") == "lock")["command_topic"]
    status = f"{args.prefix}/status"
    client.unsubscribe(discovery)

    total = int(args.rate * args.seconds)
    sent = {"command": 0, "status": 0}
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    start = time.monotonic()
    if args.ready:
        open(args.ready, "w").close()
    i = 0
    for i in range(total):
        if stop:
            break
        due = start + i / args.rate
        pause = due - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        if i % 5 == 4:  # one in five on Home Assistant's status topic
            client.publish(status, STATUS_PAYLOADS[(i // 5) % len(STATUS_PAYLOADS)], qos=1)
            sent["status"] += 1
        else:
            client.publish(command, COMMAND_PAYLOADS[i % len(COMMAND_PAYLOADS)], qos=1)
            sent["command"] += 1
    elapsed = time.monotonic() - start
    client.disconnect()
    client.loop_stop()
    count = sent["command"] + sent["status"]
    print(json.dumps({"sent": sent, "seconds": round(elapsed, 3), "rate": round(count / elapsed, 1)}), flush=True)


if __name__ == "__main__":
    main()
