"""Home Assistant's side of tools/ha-e2e.sh, played by paho-mqtt (not our MQTT code).

Each invocation is one check: it connects like Home Assistant does (user and password, a
client id of its own), reads the retained device discovery under the prefix, takes every
topic from that payload (nothing else is assumed about fpmod's topics), acts, and watches.
Exit 0 with "ok" detail on stdout, or 1 with what was missing on stdout.

    ha_client.py --port P --user U --password-file F --device front-door CHECK [ARGS]

CHECK is one of:
    discovery                  the device and its entities, availability online, lock LOCKED
    touch SIM_CONTROL FINGER   a touch of FINGER (through the simulator) unlocks with changed_by, then locks
    unlock CODE                UNLOCK with CODE opens (changed_by set), then locks again
    wrong-code CODE            UNLOCK with CODE does not open, and a pin-wrong event counts it
    rediscovery                "online" on <prefix>/status brings the discovery payload again
    availability VALUE         the retained availability is VALUE (waits for it)
    leave-retained-unlock CODE a retained UNLOCK with CODE on the command topic (for the restart check)
    retained-unlock-ignored    after a restart: online, LOCKED, and never UNLOCKED for a while
    clear-retained-command     removes the retained command again
"""

import argparse
import json
import os
import pathlib
import sys
import threading
import time

import paho.mqtt.client as mqtt

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
from simctl import request  # noqa: E402  (the simulator's control socket, shared with the VM tests)

# Bounds only for a failing check: nothing here asserts how quickly fpmod answers.
WAIT = 20.0
# How long "nothing opened" is watched for.
QUIET = 3.0


class Fail(Exception):
    pass


class HomeAssistant:
    def __init__(self, args):
        self.prefix = args.prefix
        self.device = args.device
        self.messages = []  # (topic, text, retained), in arrival order
        self.changed = threading.Condition()
        self.subscribed = set()
        with open(args.password_file) as f:
            password = f.readline().rstrip("\n")
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"ha-e2e-{os.getpid()}")
        self.client.username_pw_set(args.user, password)
        self.client.on_message = self._message
        self.client.on_subscribe = self._subscribed
        self.client.on_connect = self._connected
        self.accepted = None
        self.client.connect("127.0.0.1", args.port, keepalive=30)
        self.client.loop_start()
        if not self.wait(lambda: self.accepted is not None):
            raise Fail(f"no CONNACK from the broker on port {args.port}")
        if self.accepted.is_failure:
            raise Fail(f"the broker refused {args.user}: {self.accepted}")

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()

    def _connected(self, _client, _userdata, _flags, reason, _properties):
        with self.changed:
            self.accepted = reason
            self.changed.notify_all()

    def _message(self, _client, _userdata, message):
        with self.changed:
            self.messages.append((message.topic, message.payload.decode("utf-8", "replace"), message.retain))
            self.changed.notify_all()

    def _subscribed(self, _client, _userdata, mid, _reasons, _properties):
        with self.changed:
            self.subscribed.add(mid)
            self.changed.notify_all()

    def subscribe(self, *topics):
        """Subscribes and waits for the SUBACK, so nothing published afterwards can be missed."""
        result, mid = self.client.subscribe([(t, 1) for t in topics])
        if result != mqtt.MQTT_ERR_SUCCESS:
            raise Fail(f"subscribe {topics}: {mqtt.error_string(result)}")
        if not self.wait(lambda: mid in self.subscribed):
            raise Fail(f"no SUBACK for {topics}")

    def wait(self, predicate, timeout=WAIT):
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
        return True

    def on(self, topic):
        with self.changed:
            return [text for t, text, _ in self.messages if t == topic]

    def last(self, topic):
        values = self.on(topic)
        return values[-1] if values else None

    def publish(self, topic, payload, retain=False):
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(WAIT)
        if not info.is_published():
            raise Fail(f"publish on {topic} not acknowledged")

    # The device as Home Assistant sees it.

    @property
    def discovery_topic(self):
        return f"{self.prefix}/device/{self.device}/config"

    def discover(self):
        """The retained discovery payload, parsed; subscribes to every topic it names."""
        self.subscribe(self.discovery_topic)
        if not self.wait(lambda: self.last(self.discovery_topic)):
            raise Fail(f"no retained discovery payload on {self.discovery_topic}")
        config = json.loads(self.last(self.discovery_topic))
        components = config.get("cmps", {})
        self.components = components
        self.lock = next((c for c in components.values() if c.get("p") == "lock"), None)
        self.event = next((c for c in components.values() if c.get("p") == "event"), None)
        if not self.lock or not self.event:
            raise Fail(f"discovery has no lock or no event entity: {sorted(components)}")
        self.availability = config["availability_topic"]
        states = {c["state_topic"] for c in components.values() if "state_topic" in c}
        topics = states | {self.availability, self.lock["json_attributes_topic"]}
        self.subscribe(*sorted(topics))
        return config

    def lock_state(self):
        return self.last(self.lock["state_topic"])

    def changed_by(self):
        text = self.last(self.lock["json_attributes_topic"])
        return json.loads(text).get("changed_by") if text else None

    def events(self, event_type):
        found = []
        for text in self.on(self.event["state_topic"]):
            try:
                payload = json.loads(text)
            except ValueError:
                continue
            if payload.get("event_type") == event_type:
                found.append(payload)
        return found

    def lock_sensor_topic(self):
        """The state topic the sensors share (the failures sensor's)."""
        return next(c["state_topic"] for c in self.components.values() if c.get("p") == "sensor")

    def command(self, action, code):
        """What Home Assistant sends: the lock's command_template rendered with the code."""
        template = self.lock["command_template"]
        payload = template.replace("{{ value }}", action).replace("{{ code }}", code)
        self.publish(self.lock["command_topic"], payload)

    def wait_state(self, value, after=0):
        """Waits for the lock state `value` among the state messages from index `after` on."""
        topic = self.lock["state_topic"]
        return self.wait(lambda: value in self.on(topic)[after:])

    def wait_locked(self):
        if not self.wait(lambda: self.lock_state() == "LOCKED"):
            raise Fail(f"the lock is {self.lock_state()!r}, not LOCKED")


def check_discovery(ha, _args):
    config = ha.discover()
    platforms = sorted(c.get("p") for c in config["cmps"].values())
    need = {"lock": 1, "event": 1, "binary_sensor": 4, "sensor": 4}
    for platform, count in need.items():
        if platforms.count(platform) < count:
            raise Fail(f"discovery has {platforms.count(platform)} {platform} entities, expected {count}+: {platforms}")
    if not config.get("dev", {}).get("identifiers") or not config.get("dev", {}).get("sw_version"):
        raise Fail(f"discovery's device block lacks identifiers or sw_version: {config.get('dev')}")
    if not ha.lock.get("code_format"):
        raise Fail("the lock has no code_format, though mqtt.remoteUnlock asks for a code")
    if not ha.wait(lambda: ha.last(ha.availability) == "online"):
        raise Fail(f"availability is {ha.last(ha.availability)!r}")
    ha.wait_locked()
    return f"{len(platforms)} entities ({', '.join(sorted(set(platforms)))}), online, LOCKED"


def check_touch(ha, args):
    ha.discover()
    ha.wait_locked()
    before = len(ha.on(ha.lock["state_topic"]))
    reply = request(args.sim_control, f"touch {args.finger}")
    if not reply.startswith("ok"):
        raise Fail(f"simulator: {reply}")
    if not ha.wait_state("UNLOCKED", before):
        raise Fail(f"the touch of {args.finger} never showed UNLOCKED (states {ha.on(ha.lock['state_topic'])})")
    if not ha.wait(lambda: ha.changed_by()):
        raise Fail("changed_by stayed empty after the unlock")
    who = ha.changed_by()
    if not ha.wait_state("LOCKED", before + 1):
        raise Fail("the lock never went back to LOCKED")
    if not ha.wait(lambda: ha.events("match")):
        raise Fail("no match event on the event entity")
    return f"UNLOCKED by {who}, then LOCKED; match event {ha.events('match')[-1].get('user')}"


def check_unlock(ha, args):
    ha.discover()
    ha.wait_locked()
    before = len(ha.on(ha.lock["state_topic"]))
    ha.command("UNLOCK", args.code)
    if not ha.wait_state("UNLOCKED", before):
        raise Fail("UNLOCK with the right code did not open")
    if not ha.wait(lambda: ha.changed_by()):
        raise Fail("changed_by stayed empty after the remote unlock")
    if not ha.wait_state("LOCKED", before + 1):
        raise Fail("the lock never went back to LOCKED")
    return f"UNLOCKED (changed_by {ha.changed_by()}), then LOCKED"


def check_wrong_code(ha, args):
    ha.discover()
    ha.wait_locked()
    before = len(ha.on(ha.lock["state_topic"]))
    wrong_before = len(ha.events("pin-wrong"))
    ha.command("UNLOCK", args.code)
    if not ha.wait(lambda: len(ha.events("pin-wrong")) > wrong_before):
        raise Fail("no pin-wrong event for a wrong code")
    time.sleep(QUIET)
    if "UNLOCKED" in ha.on(ha.lock["state_topic"])[before:]:
        raise Fail("a wrong code opened the lock")
    # The service's own count is checked by ha-e2e.sh (fpmod status); Home Assistant sees the
    # pin-wrong event, and a PIN-failure sensor where the state carries one.
    state = json.loads(ha.last(ha.lock_sensor_topic()) or "{}")
    counted = {k: v for k, v in state.items() if "failures" in k}
    return f"stayed LOCKED, pin-wrong event; state {counted}"


def check_rediscovery(ha, _args):
    ha.discover()
    count = len(ha.on(ha.discovery_topic))
    ha.publish(f"{ha.prefix}/status", "online")
    if not ha.wait(lambda: len(ha.on(ha.discovery_topic)) > count):
        raise Fail(f"no discovery after online on {ha.prefix}/status")
    fresh = [retained for topic, _, retained in ha.messages if topic == ha.discovery_topic][-1]
    if fresh:
        raise Fail("the discovery after 'online' came as a retained message, not a new publish")
    return "discovery sent again"


def check_availability(ha, args):
    ha.discover()
    if not ha.wait(lambda: ha.last(ha.availability) == args.value):
        raise Fail(f"availability is {ha.last(ha.availability)!r}, not {args.value!r}")
    retained = [r for t, _, r in ha.messages if t == ha.availability][-1]
    return f"{args.value} ({'retained' if retained else 'live'})"


def check_leave_retained_unlock(ha, args):
    ha.discover()
    template = ha.lock["command_template"]
    payload = template.replace("{{ value }}", "UNLOCK").replace("{{ code }}", args.code)
    ha.publish(ha.lock["command_topic"], payload, retain=True)
    return f"retained {payload} on {ha.lock['command_topic']}"


def check_retained_unlock_ignored(ha, _args):
    ha.discover()
    if not ha.wait(lambda: ha.last(ha.availability) == "online"):
        raise Fail(f"the restarted service is not online ({ha.last(ha.availability)!r})")
    ha.wait_locked()
    time.sleep(QUIET)
    states = ha.on(ha.lock["state_topic"])
    if "UNLOCKED" in states:
        raise Fail(f"the retained UNLOCK opened the lock: {states}")
    return f"online and LOCKED, never UNLOCKED ({len(states)} state messages watched)"


def check_clear_retained_command(ha, _args):
    ha.discover()
    ha.publish(ha.lock["command_topic"], b"", retain=True)
    return "cleared"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password-file", required=True)
    parser.add_argument("--prefix", default="homeassistant")
    parser.add_argument("--device", required=True)
    checks = parser.add_subparsers(dest="check", required=True)
    checks.add_parser("discovery").set_defaults(run=check_discovery)
    touch = checks.add_parser("touch")
    touch.add_argument("sim_control")
    touch.add_argument("finger")
    touch.set_defaults(run=check_touch)
    for name, run in [("unlock", check_unlock), ("wrong-code", check_wrong_code),
                      ("leave-retained-unlock", check_leave_retained_unlock)]:
        sub = checks.add_parser(name)
        sub.add_argument("code")
        sub.set_defaults(run=run)
    checks.add_parser("rediscovery").set_defaults(run=check_rediscovery)
    availability = checks.add_parser("availability")
    availability.add_argument("value")
    availability.set_defaults(run=check_availability)
    checks.add_parser("retained-unlock-ignored").set_defaults(run=check_retained_unlock_ignored)
    checks.add_parser("clear-retained-command").set_defaults(run=check_clear_retained_command)
    args = parser.parse_args()

    ha = None
    try:
        ha = HomeAssistant(args)
        print(args.run(ha, args))
        return 0
    except Fail as failure:
        print(failure)
        return 1
    except (OSError, ValueError, KeyError) as error:
        print(f"{type(error).__name__}: {error}")
        return 1
    finally:
        if ha:
            ha.close()


if __name__ == "__main__":
    sys.exit(main())
