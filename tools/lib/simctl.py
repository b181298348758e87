"""One line to a simulator's control socket; its reply line to stdout.

    python3 tools/lib/simctl.py SOCKET 'touch alice-right-index 1'

The shell has no Unix-socket client (busybox and bash lack one), so the VM tests use this;
the Python tools import `request` from it.
"""
import socket
import sys


def request(path, line, timeout=10):
    """Sends `line` to the Unix socket at `path`; returns the first line of the reply."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect(path)
        s.sendall((line + "\n").encode())
        reply = b""
        while b"\n" not in reply:
            chunk = s.recv(4096)
            if not chunk:
                break
            reply += chunk
    finally:
        s.close()
    return reply.decode(errors="replace").split("\n")[0].strip()


if __name__ == "__main__":
    print(request(sys.argv[1], sys.argv[2]))
