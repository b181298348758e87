"""Talks to `fpmod sim --control PATH`: one command line in, one reply line out."""
import socket


class Control:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.file = self.sock.makefile("rw", encoding="utf-8", newline="\n")

    def send(self, line):
        self.file.write(line + "\n")
        self.file.flush()
        reply = self.file.readline().strip()
        if reply.startswith("error"):
            raise RuntimeError("simulator refused %r: %s" % (line, reply))
        return reply


class Flow:
    """Runs named steps, prints PASS/FAIL for each, and remembers failures."""

    def __init__(self, peer):
        self.peer = peer
        self.failures = []

    def step(self, name, function):
        try:
            result = function()
        except Exception as error:  # a peer exception is a failed step, with its message
            self.failures.append(name)
            print("  FAIL %-44s %s: %s" % (name, type(error).__name__, error), flush=True)
            return None
        if result is False:
            self.failures.append(name)
            print("  FAIL %-44s (check failed)" % name, flush=True)
            return None
        print("  ok   %-44s %s" % (name, "" if result in (True, None) else result), flush=True)
        return result

    def finish(self):
        if self.failures:
            print("%s: %d step(s) failed: %s" % (self.peer, len(self.failures), ", ".join(self.failures)), flush=True)
            return 1
        print("%s: every flow passed" % self.peer, flush=True)
        return 0


def expect(condition, message):
    if not condition:
        raise AssertionError(message)
    return True
