"""adafruit-circuitpython-fingerprint's normal flows against `fpmod sim` (r307), unchanged library code."""
import sys

import serial
import adafruit_fingerprint as af

from simctl import Control, Flow, expect

port, control_path = sys.argv[1], sys.argv[2]
control = Control(control_path)
flow = Flow("adafruit-circuitpython-fingerprint")
uart = serial.Serial(port, baudrate=57600, timeout=1)
finger = None


def connect():
    global finger
    finger = af.Adafruit_Fingerprint(uart)  # VfyPwd + ReadSysPara
    return "library size %d, packet size %s, baud %s" % (finger.library_size, finger.data_packet_size, finger.baudrate)


def wait(code):
    for _ in range(50):
        if finger.get_image() == code:
            return True
    raise AssertionError("GenImg never returned %d" % code)


def enroll(name, location):
    control.send("touch %s 2" % name)
    wait(af.OK)
    expect(finger.image_2_tz(1) == af.OK, "image_2_tz(1)")
    wait(af.NOFINGER)
    wait(af.OK)
    expect(finger.image_2_tz(2) == af.OK, "image_2_tz(2)")
    expect(finger.create_model() == af.OK, "create_model")
    expect(finger.store_model(location) == af.OK, "store_model")
    return "stored at %d" % location


def search(name):
    control.send("place %s" % name)
    wait(af.OK)
    expect(finger.image_2_tz(1) == af.OK, "image_2_tz")
    control.send("lift")
    return finger.finger_search()


def empty_search():
    code = search("alice")
    expect(code == af.NOTFOUND, "code %d" % code)
    return "not found, as expected"


def search_alice():
    code = search("alice")
    expect(code == af.OK and finger.finger_id == 3, "code %d id %d" % (code, finger.finger_id))
    return "alice at %d, confidence %d" % (finger.finger_id, finger.confidence)


def compare():
    expect(finger.load_model(3, 1) == af.OK, "load alice")
    expect(finger.load_model(4, 2) == af.OK, "load bob")
    code = finger.compare_templates()
    expect(code == af.NOMATCH, "alice vs bob gave %d" % code)
    control.send("place bob")
    wait(af.OK)
    expect(finger.image_2_tz(1) == af.OK, "image_2_tz")
    control.send("lift")
    code = finger.compare_templates()
    expect(code == af.OK, "bob vs bob gave %d" % code)
    return "alice vs bob: no match; bob vs bob: confidence %s" % (finger.confidence,)


saved = {}


def get_fpdata():
    expect(finger.load_model(4, 1) == af.OK, "load_model")
    data = finger.get_fpdata("char", 1)
    saved["bob"] = data
    expect(len(data) == 512, "%d bytes" % len(data))
    return "%d bytes" % len(data)


def send_fpdata():
    expect(finger.send_fpdata(saved["bob"], "char", 2), "send_fpdata")
    expect(finger.store_model(9, 2) == af.OK, "store_model")
    expect(finger.load_model(9, 1) == af.OK, "load_model")
    expect(finger.get_fpdata("char", 1) == saved["bob"], "read back differs")
    return "restored into 9, read back identical"


def read_templates():
    expect(finger.read_templates() == af.OK, "read_templates")
    return "templates %s" % finger.templates


flow.step("verify password + read parameters", connect)
if finger is None:
    sys.exit(flow.finish())
flow.step("count templates is 0", lambda: expect(finger.count_templates() == af.OK and finger.template_count == 0, "not 0"))
flow.step("no finger: get_image is NOFINGER", lambda: expect(finger.get_image() == af.NOFINGER, "saw a finger"))
flow.step("capture, convert, search (empty)", empty_search)
flow.step("enroll alice", lambda: enroll("alice", 3))
flow.step("enroll bob", lambda: enroll("bob", 4))
flow.step("read templates", read_templates)
flow.step("search alice", search_alice)
flow.step("compare templates", compare)
flow.step("upload characteristics (get_fpdata)", get_fpdata)
flow.step("download characteristics (send_fpdata)", send_fpdata)
flow.step("delete model 9", lambda: expect(finger.delete_model(9) == af.OK and finger.count_templates() == af.OK
                                           and finger.template_count == 2, "not deleted"))
flow.step("empty library", lambda: expect(finger.empty_library() == af.OK and finger.count_templates() == af.OK
                                          and finger.template_count == 0, "not emptied"))
sys.exit(flow.finish())
