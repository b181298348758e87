"""The table of tools/bench-mqtt-flood.sh: touch -> relay p50/p99 idle and under the flood, the
difference, and where it went (the stages the service stamps, as intervals).

    flood_report.py WORK_DIR    (reads idle-*.json, flood-*.json, publisher-*.json there)
Exit 1 when the flood's p50 or p99 is more than 1 ms above idle.
"""
import glob
import json
import os
import sys

work = sys.argv[1]


def load(pattern):
    runs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(work, pattern)))]
    return [s for r in runs for s in r["samples"]], [s for r in runs for s in r["stages"]], sum(r.get("missed", 0) for r in runs)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


# Intervals between the service's stamps: the loop's part (edge read, the worker's report
# taken, the relay set) apart from the module's (the simulator's GenImg/Img2Tz/Search).
INTERVALS = [
    ("edge -> capture start (loop reads the edge, worker wakes)", None, "captureStart"),
    ("capture start -> search end (module, simulated)", "captureStart", "searchEnd"),
    ("search end -> decision (loop takes the report)", "searchEnd", "decision"),
    ("decision -> relay on", "decision", "relayOn"),
]

idle, idle_stages, idle_missed = load("idle-*.json")
flood, flood_stages, flood_missed = load("flood-*.json")
publishers = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(work, "publisher-*.json")))]
sent = sum(p["sent"]["command"] + p["sent"]["status"] for p in publishers)
seconds = sum(p["seconds"] for p in publishers)
print(f"flood publisher: {sent} messages in {seconds:.1f} s = {sent / seconds:.0f} messages/s "
      f"(4 in 5 on the command topic, 1 in 5 on homeassistant/status)")
print(f"{'touch -> relay (ms)':58} {'p50':>7} {'p99':>7} {'max':>7}  samples")
for name, samples in (("idle", idle), ("1,000 msg/s flood", flood)):
    print(f"{name:58} {percentile(samples, .5):7.3f} {percentile(samples, .99):7.3f} {max(samples):7.3f}  {len(samples)}")
d50 = percentile(flood, .5) - percentile(idle, .5)
d99 = percentile(flood, .99) - percentile(idle, .99)
print(f"{'difference':58} {d50:+7.3f} {d99:+7.3f}")
print()
print(f"{'stage (ms), idle p50 / flood p50, idle p99 / flood p99':58}")
for label, start, end in INTERVALS:
    def values(stages):
        return [s[end] - (s[start] if start else 0) for s in stages if end in s and (start is None or start in s)]
    i, f = values(idle_stages), values(flood_stages)
    if i and f:
        print(f"  {label:56} {percentile(i, .5):6.3f} / {percentile(f, .5):6.3f}   {percentile(i, .99):6.3f} / {percentile(f, .99):6.3f}")
# The loop thread's share: every interval but the module's.
def loop_part(stages):
    return [s["captureStart"] + (s["decision"] - s["searchEnd"]) + (s["relayOn"] - s["decision"])
            for s in stages if all(k in s for k in ("captureStart", "searchEnd", "decision", "relayOn"))]
li, lf = loop_part(idle_stages), loop_part(flood_stages)
if li and lf:
    print(f"  {'all but the module (the loop thread and its wake-ups)':56} {percentile(li, .5):6.3f} / {percentile(lf, .5):6.3f}"
          f"   {percentile(li, .99):6.3f} / {percentile(lf, .99):6.3f}")
for phase in ("idle", "flood"):
    ticks = wall = 0.0
    for path in glob.glob(os.path.join(work, f"cpu-{phase}-*.txt")):
        used, hz, start, end = open(path).read().split()
        ticks += int(used) / int(hz)
        wall += float(end) - float(start)
    if wall:
        print(f"fpmod run's CPU during the {phase} blocks: {ticks / wall * 100:.1f} % of one core")
print(f"touches repeated (edge while the module was still busy, no scan started): idle {idle_missed}, flood {flood_missed}")
met = d50 <= 1.0 and d99 <= 1.0
print(f"Target: under the flood touch -> relay within 1 ms of idle at p50 and p99 - {'met' if met else 'MISSED'}")
sys.exit(0 if met else 1)
