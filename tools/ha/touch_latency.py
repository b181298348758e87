"""Touch -> relay latency of a running `fpmod run --sim --sim-gpio`, as the service itself
measures it: each touch goes to the simulator's control socket, and the decision's event on
the events socket carries latencyMs.relayOn, from the touch line's edge (its kernel-style
timestamp in the memory GPIO) to the relay energised.

    touch_latency.py EVENTS_SOCKET SIM_CONTROL FINGER COUNT [GAP_SECONDS]

Prints one JSON object: {"samples": [...ms...], "stages": [{stage: ms from the edge}...],
"p50": …, "p99": …, "max": …}.
"""
import json
import pathlib
import socket
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
from simctl import request  # noqa: E402  (the simulator's control socket, shared with the VM tests)


class LineReader:
    """Lines from a socket with a timeout that can be retried (a makefile() cannot)."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def readline(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)  # socket.timeout propagates; nothing is lost
            if not chunk:
                return ""
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode(errors="replace") + "\n"


def percentile(values, fraction):
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def main():
    events_path, control, finger, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    gap = float(sys.argv[5]) if len(sys.argv) > 5 else 0.15
    events = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    events.connect(events_path)
    events.settimeout(3)
    stream = LineReader(events)
    samples = []
    stages = []
    missed = 0
    while len(samples) < count:
        reply = request(control, f"touch {finger}")
        if not reply.startswith("ok"):
            sys.exit(f"simulator: {reply}")
        while True:
            try:
                line = stream.readline()
            except socket.timeout:
                # A touch whose edge came while the module was still busy starts no scan (the
                # service's rule, not a lost decision): touch again, and say how often.
                missed += 1
                if missed > count // 10 + 3:
                    sys.exit(f"{missed} touches without a decision")
                break
            if not line:
                sys.exit("the events socket closed")
            event = json.loads(line)
            latency = event.get("latencyMs", {})
            relay = latency.get("relayOn")
            if relay is not None:
                samples.append(relay)
                stages.append(latency)
                break
            if event.get("event") in ("no-match", "retry-scan", "misplaced"):
                sys.exit(f"the touch did not match: {line.strip()}")
        time.sleep(gap)
    print(json.dumps({"samples": samples, "stages": stages, "missed": missed, "p50": percentile(samples, 0.5),
                      "p99": percentile(samples, 0.99), "max": max(samples)}))


if __name__ == "__main__":
    main()
