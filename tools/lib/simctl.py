"""One line to a simulator's control socket; its reply line to stdout.

    python3 tools/lib/simctl.py SOCKET 'touch alice-right-index 1'

The shell has no Unix-socket client (busybox and bash lack one), so the VM tests use this.
"""
import socket
import sys

s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode())
reply = b""
while b"\n" not in reply:
    chunk = s.recv(4096)
    if not chunk:
        break
    reply += chunk
print(reply.decode(errors="replace").split("\n")[0])
