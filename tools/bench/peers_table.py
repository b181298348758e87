"""Turns the JSON lines of tools/bench-peers.sh into ratio tables (medians over rounds)."""
import json
import statistics
import sys

path, baud = sys.argv[1], int(sys.argv[2])
lines = [json.loads(text) for text in open(path)]
peers = ["pyfingerprint", "adafruit"]


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def ratio(a, b):
    return "%.2f×" % (a / b) if a and b else "–"


def table(header, rows):
    widths = [max(len(str(row[i])) for row in [header] + rows) for i in range(len(header))]
    out = []
    for index, row in enumerate([header] + rows):
        out.append("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if index == 0:
            out.append("  ".join("-" * w for w in widths))
    print("\n".join(out) + "\n")


def entries(client, mode):
    return [l["line"] for l in lines if l["line"]["client"] == client and l["line"]["mode"] == mode]


# Per-command round trips, µs at p50 (median over rounds).
round_trips = {}
for entry in entries("floor", "roundtrip") + [e for p in peers for e in entries(p, "roundtrip")]:
    for name, row in entry["round_trips"].items():
        round_trips.setdefault(entry["client"], {}).setdefault(name, []).append(row["p50_us"])
for entry in entries("fpmod", "roundtrip"):
    for row in entry["fpmod"].get("round_trips", []):
        round_trips.setdefault("fpmod", {}).setdefault(row["command"], []).append(row["round_trip"]["p50_ms"] * 1000)

print("Per-command round trip, instant timing (p50 µs, median of rounds; ratios of p50)")
rows, verdicts = [], []
for name in ["ReadSysPara", "TempleteNum", "GenImg"]:
    value = {c: median(round_trips.get(c, {}).get(name, [])) for c in ["floor", "fpmod"] + peers}
    rows.append([name, "%.0f" % value["floor"], "%.0f" % value["fpmod"], ratio(value["fpmod"], value["floor"])]
                + [x for p in peers for x in ("%.0f" % value[p], ratio(value[p], value["fpmod"]))])
    verdicts.append((name, value["fpmod"] / value["floor"], [value[p] / value["fpmod"] for p in peers]))
table(["command", "floor", "fpmod", "fpmod/floor", "pyfingerprint", "pyfp/fpmod", "adafruit", "adafruit/fpmod"], rows)
worst_floor = max(v[1] for v in verdicts)
slowest_peer = min(min(v[2]) for v in verdicts)
print("Target: within 1.5× of the floor — %s (worst %.2f×); faster than each peer — %s (closest peer %.2f× fpmod)\n"
      % ("met" if worst_floor <= 1.5 else "MISSED", worst_floor, "met" if slowest_peer > 1 else "MISSED", slowest_peer))

# CPU time per round trip (user + system of the client process around its loop): the host's own
# cost, which the wake-up latency of a virtual machine does not blur.
cpu = {c: median([e["cpu_us_per_round_trip"] for e in entries(c, "roundtrip") if e.get("cpu_us_per_round_trip") is not None])
       for c in ["floor"] + peers}
cpu["fpmod"] = median([e["fpmod"]["cpu_us_per_round_trip"] for e in entries("fpmod", "roundtrip") if "cpu_us_per_round_trip" in e["fpmod"]])
print("CPU time per round trip (µs of user + system time, median of rounds)")
table(["floor", "fpmod", "fpmod/floor"] + [x for p in peers for x in (p, p[:4] + "/fpmod")],
      [["%.1f" % cpu["floor"], "%.1f" % cpu["fpmod"], ratio(cpu["fpmod"], cpu["floor"])]
       + [x for p in peers for x in ("%.1f" % cpu[p], ratio(cpu[p], cpu["fpmod"]))]])
print()

# Identify and UpChar on datasheet timing.
identify = {"fpmod": median([e["fpmod"]["identify"]["stages"][-1]["measured"]["p50_ms"] for e in entries("fpmod", "identify")])}
upchar = {"fpmod": median([e["fpmod"]["transfers"][0]["measured"]["p50_ms"] for e in entries("fpmod", "identify")])}
for p in peers:
    identify[p] = median([e["identify"]["p50_us"] / 1000 for e in entries(p, "identify")])
    upchar[p] = median([e["transfer"]["p50_us"] / 1000 for e in entries(p, "transfer")])
payload = 512
# What the wire allows for UpChar at 128-byte packets: ack (12 B) + 4 data packets of 139 B, plus the
# simulator's 1 ms for the command; the pseudo-terminal does not delay the host's 13 bytes.
limit_ms = (12 + 4 * 139) * 10 / baud * 1000 + 1
print("Identify (GenImg → Img2Tz → Search, as each library does it) and UpChar, datasheet timing, %d baud (p50 ms)" % baud)
rows = [["identify", "%.1f" % identify["fpmod"]] + [x for p in peers for x in ("%.1f" % identify[p], ratio(identify[p], identify["fpmod"]))],
        ["UpChar 512 B", "%.1f" % upchar["fpmod"]] + [x for p in peers for x in ("%.1f" % upchar[p], ratio(upchar[p], upchar["fpmod"]))],
        ["UpChar % of wire limit", "%.1f %%" % (100 * limit_ms / upchar["fpmod"])]
        + [x for p in peers for x in ("%.1f %%" % (100 * limit_ms / upchar[p]), "")]]
table(["", "fpmod", "pyfingerprint", "pyfp/fpmod", "adafruit", "adafruit/fpmod"], rows)
print("(pyfingerprint and adafruit read ReadSysPara before every Search: one more round trip per identify.)\n")

print("Idle: CPU while waiting for a finger (CPU s per minute; % of one core)")
rows = []
for p in peers:
    e = entries(p, "idle")[0]["idle"]
    rows.append(["%s polling GenImg (%d polls in %.0f s)" % (p, e["polls"], e["wall_seconds"]),
                 "%.3f" % e["cpu_seconds_per_minute"], "%.3f %%" % (e["cpu_seconds_per_minute"] / 60 * 100)])
fpmod_idle = entries("fpmod", "idle")[0]["fpmod"].get("idle", {})
touch = fpmod_idle.get("with_touch_line") if fpmod_idle.get("measured") else None
if touch:
    rows.append(["fpmod run, touch line (no polling)", "%.3f" % touch["cpu_seconds_per_minute"], "%.3f %%" % touch["percent_of_core"]])
else:
    rows.append(["fpmod run, touch line", "not measured", fpmod_idle.get("reason", "fpmod run unavailable")])
table(["client", "CPU s/min", "% of core"], rows)
