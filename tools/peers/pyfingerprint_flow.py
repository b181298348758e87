"""pyfingerprint 1.5's normal flows against `fpmod sim` (r307 profile), unchanged library code."""
import os
import sys
import tempfile

from pyfingerprint.pyfingerprint import PyFingerprint

from simctl import Control, Flow, expect

port, control_path = sys.argv[1], sys.argv[2]
control = Control(control_path)
flow = Flow("pyfingerprint 1.5")
sensor = PyFingerprint(port, 57600, 0xFFFFFFFF, 0x00000000)


def wait_for_finger():
    for _ in range(50):
        if sensor.readImage():
            return True
    raise AssertionError("no finger seen in 50 GenImg polls")


def wait_for_lift():
    for _ in range(50):
        if not sensor.readImage():
            return True
    raise AssertionError("finger never lifted in 50 GenImg polls")


def enroll(name):
    control.send("touch %s 2" % name)
    wait_for_finger()
    sensor.convertImage(0x01)
    wait_for_lift()
    wait_for_finger()
    sensor.convertImage(0x02)
    score = sensor.compareCharacteristics()
    expect(score > 0, "the two captures of %s did not match" % name)
    sensor.createTemplate()
    position = sensor.storeTemplate()
    return "slot %d (captures matched with score %d)" % (position, score)


def identify(name):
    control.send("place %s" % name)
    wait_for_finger()
    sensor.convertImage(0x01)
    control.send("lift")
    return sensor.searchTemplate()


def parameters():
    p = sensor.getSystemParameters()
    expect(sensor.getStorageCapacity() == 1000, "capacity %r" % (p,))
    expect(sensor.getMaxPacketSize() == 128, "packet size")
    return "capacity %d, security %d, packet %d, baud %d" % (
        sensor.getStorageCapacity(), sensor.getSecurityLevel(), sensor.getMaxPacketSize(), sensor.getBaudRate())


def empty_search():
    position, score = identify("alice")
    expect(position == -1, "found %d in an empty library" % position)
    return "no match in the empty library, as expected"


def search_alice():
    position, score = identify("alice")
    expect(position == 0 and score >= 50, "alice found at %d with score %d" % (position, score))
    return "alice at slot %d, score %d" % (position, score)


def compare_different():
    control.send("place bob")
    wait_for_finger()
    sensor.convertImage(0x02)
    control.send("lift")
    sensor.loadTemplate(0, 0x01)
    score = sensor.compareCharacteristics()
    expect(score == 0, "alice's template matched bob with score %d" % score)
    return "alice vs bob: no match"


state = {}


def download_characteristics():
    sensor.loadTemplate(1, 0x01)
    data = sensor.downloadCharacteristics(0x01)
    state["bob"] = data
    expect(len(data) == 512, "template of %d bytes" % len(data))
    return "%d bytes, starts %s" % (len(data), " ".join("%02X" % b for b in data[:4]))


def upload_characteristics():
    expect(sensor.uploadCharacteristics(0x02, state["bob"]), "read-back differs")
    sensor.storeTemplate(7, 0x02)
    expect(sensor.getTemplateCount() == 3, "count after restore")
    control.send("place bob")
    wait_for_finger()
    sensor.convertImage(0x01)
    control.send("lift")
    position, score = sensor.searchTemplate()
    expect(position in (1, 7), "bob found at %d" % position)
    return "restored into slot 7; bob still identified (slot %d)" % position


def download_image():
    control.send("place carol")
    wait_for_finger()
    control.send("lift")
    path = os.path.join(tempfile.mkdtemp(), "carol.bmp")
    sensor.downloadImage(path)
    size = os.path.getsize(path)
    expect(size > 0, "empty image")
    return "256x288 image saved (%d bytes)" % size


flow.step("verify password", lambda: expect(sensor.verifyPassword(), "password refused"))
flow.step("read parameters", parameters)
flow.step("template count is 0", lambda: expect(sensor.getTemplateCount() == 0, "not empty"))
flow.step("index table page 0 empty", lambda: expect(not any(sensor.getTemplateIndex(0)), "slots in use"))
flow.step("no finger: readImage is False", lambda: expect(sensor.readImage() is False, "saw a finger"))
flow.step("capture, convert, search (empty)", empty_search)
flow.step("enroll alice", lambda: enroll("alice"))
flow.step("enroll bob", lambda: enroll("bob"))
flow.step("count and index table", lambda: expect(
    sensor.getTemplateCount() == 2 and sensor.getTemplateIndex(0)[:2] == [True, True], "slots 0 and 1 not both used"))
flow.step("search alice", search_alice)
flow.step("compare different fingers", compare_different)
flow.step("download characteristics", download_characteristics)
flow.step("upload characteristics", upload_characteristics)
flow.step("download image", download_image)
flow.step("random number", lambda: "%08X" % sensor.generateRandomNumber())
flow.step("delete template 7", lambda: expect(sensor.deleteTemplate(7) and sensor.getTemplateCount() == 2, "not deleted"))
flow.step("clear database", lambda: expect(sensor.clearDatabase() and sensor.getTemplateCount() == 0, "not cleared"))
sys.exit(flow.finish())
