"""Times pyfingerprint 1.5 and adafruit-circuitpython-fingerprint against `fpmod sim`, with the
libraries' own public calls, unchanged. One JSON line out. Used by tools/bench-peers.sh.

usage: peer_bench.py LIB MODE PORT BAUD N [CONTROL]
  LIB   pyfingerprint | adafruit
  MODE  roundtrip  N rounds of ReadSysPara, TempleteNum, GenImg (interleaved)
        identify   N identify cycles as the library does them (GenImg, Img2Tz, Search)
        transfer   N template uploads (LoadChar outside the timing, then UpChar)
        idle       poll GenImg for N seconds with no finger; CPU seconds used
        enroll     write N templates (fingers bench-filler-0…, the last bench-finger) via CONTROL
"""
import json
import sys
import time

import serial


def percentiles(samples):
    ordered = sorted(samples)

    def rank(fraction):
        position = max(1, min(len(ordered), int(-(-fraction * len(ordered) // 1))))
        return ordered[position - 1]

    return {"n": len(ordered), "p50_us": rank(0.50) // 1000, "p95_us": rank(0.95) // 1000,
            "p99_us": rank(0.99) // 1000, "max_us": ordered[-1] // 1000}


class PyFingerprint:
    def __init__(self, port, baud):
        from pyfingerprint.pyfingerprint import PyFingerprint as Library
        self.sensor = Library(port, baud, 0xFFFFFFFF, 0x00000000)
        if not self.sensor.verifyPassword():
            raise RuntimeError("VfyPwd refused")

    def read_sys_para(self): self.sensor.getSystemParameters()
    def template_count(self): self.sensor.getTemplateCount()
    def gen_img(self): return self.sensor.readImage()

    def identify(self):
        if not self.sensor.readImage():
            raise RuntimeError("no finger")
        self.sensor.convertImage(0x01)
        position, _score = self.sensor.searchTemplate()
        if position < 0:
            raise RuntimeError("no match")

    def load(self, slot): self.sensor.loadTemplate(slot, 0x01)
    def upload(self): return len(self.sensor.downloadCharacteristics(0x01))

    def enroll(self, slot):
        if not self.sensor.readImage():
            raise RuntimeError("no finger")
        self.sensor.convertImage(0x01)
        self.sensor.convertImage(0x02)
        self.sensor.createTemplate()
        self.sensor.storeTemplate(slot, 0x01)


class Adafruit:
    def __init__(self, port, baud):
        import adafruit_fingerprint
        self.af = adafruit_fingerprint
        self.uart = serial.Serial(port, baudrate=baud, timeout=2)
        self.sensor = adafruit_fingerprint.Adafruit_Fingerprint(self.uart)

    def read_sys_para(self): self.sensor.read_sysparam()
    def template_count(self): self.sensor.count_templates()
    def gen_img(self): return self.sensor.get_image() == self.af.OK

    def identify(self):
        if self.sensor.get_image() != self.af.OK:
            raise RuntimeError("no finger")
        if self.sensor.image_2_tz(1) != self.af.OK:
            raise RuntimeError("image_2_tz failed")
        if self.sensor.finger_search() != self.af.OK:
            raise RuntimeError("no match")

    def load(self, slot): self.sensor.load_model(slot, 1)
    def upload(self): return len(self.sensor.get_fpdata("char", 1))


def main():
    lib, mode, port, baud, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    client = (PyFingerprint if lib == "pyfingerprint" else Adafruit)(port, baud)
    result = {"client": lib, "mode": mode}
    if mode == "roundtrip":
        calls = [("ReadSysPara", client.read_sys_para), ("TempleteNum", client.template_count), ("GenImg", client.gen_img)]
        samples = {name: [] for name, _ in calls}
        cpu_start = time.process_time()
        for _ in range(count):
            for name, call in calls:
                start = time.monotonic_ns()
                call()
                samples[name].append(time.monotonic_ns() - start)
        result["round_trips"] = {name: percentiles(values) for name, values in samples.items()}
        result["cpu_us_per_round_trip"] = (time.process_time() - cpu_start) * 1e6 / (3 * count)
    elif mode == "identify":
        samples = []
        for _ in range(count):
            start = time.monotonic_ns()
            client.identify()
            samples.append(time.monotonic_ns() - start)
        result["identify"] = percentiles(samples)
    elif mode == "transfer":
        samples, size = [], 0
        for _ in range(count):
            client.load(int(sys.argv[6]) if len(sys.argv) > 6 else 0)
            start = time.monotonic_ns()
            size = client.upload()
            samples.append(time.monotonic_ns() - start)
        result["transfer"] = percentiles(samples)
        result["bytes"] = size
    elif mode == "idle":
        cpu_start, wall_start = time.process_time(), time.monotonic()
        polls = 0
        while time.monotonic() - wall_start < count:
            client.gen_img()
            polls += 1
        cpu, wall = time.process_time() - cpu_start, time.monotonic() - wall_start
        result["idle"] = {"cpu_seconds": cpu, "wall_seconds": wall, "polls": polls,
                          "cpu_seconds_per_minute": cpu * 60 / wall}
    elif mode == "enroll":
        sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/peers")
        from simctl import Control
        control = Control(sys.argv[6])
        for slot in range(count):
            control.send("place %s" % ("bench-finger" if slot == count - 1 else "bench-filler-%d" % slot))
            client.enroll(slot)
        control.send("lift")
        result["enrolled"] = count
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
