"""The console's security checks with plain HTTP clients (Python's http.client, ssl and raw
sockets; nothing of fpmod's), against a running `fpmod run` whose console has an admin.

    python3 tools/console/security_test.py --url https://127.0.0.1:PORT --cafile CERT \
        --lock-url http://127.0.0.1:PORT2 --admin NAME --password PASSWORD --used-setup-code CODE

Prints one "ok"/"FAIL" line per check and exits 1 when any failed.
"""
import argparse
import http.client
import json
import socket
import ssl
import sys
import time
import urllib.parse
import warnings

failures = 0


def check(ok, text):
    global failures
    print(("ok   " if ok else "FAIL ") + text, flush=True)
    if not ok:
        failures += 1


class Console:
    def __init__(self, url, cafile):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.origin = f"https://{self.host}:{self.port}"
        self.context = ssl.create_default_context(cafile=cafile)

    def request(self, method, path, body=None, headers=None, source=None):
        connection = http.client.HTTPSConnection(self.host, self.port, context=self.context, timeout=10,
                                                 source_address=(source, 0) if source else None)
        all_headers = dict(headers or {})
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            all_headers.setdefault("Content-Type", "application/json")
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), payload

    def raw_status(self, request_line, headers, body):
        """Sends a request line, headers and (part of) a body over TLS; returns the status the
        server answers with, reading while the rest is not sent."""
        with socket.create_connection((self.host, self.port), timeout=10) as raw:
            with self.context.wrap_socket(raw, server_hostname=self.host) as tls:
                head = request_line + "\r\n" + f"Host: {self.host}:{self.port}\r\n"
                head += "".join(f"{name}: {value}\r\n" for name, value in headers.items()) + "\r\n"
                try:
                    tls.sendall(head.encode() + body)
                except OSError:
                    pass
                reply = b""
                try:
                    while b"\r\n" not in reply:
                        chunk = tls.recv(4096)
                        if not chunk:
                            break
                        reply += chunk
                except OSError:
                    pass
        parts = reply.split(b" ", 2)
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None

    def login(self, name, password, cookie=None):
        headers = {"Origin": self.origin}
        if cookie:
            headers["Cookie"] = f"fpmod_session={cookie}"
        status, headers, payload = self.request("POST", "/api/v1/login", {"name": name, "password": password}, headers)
        if status != 200:
            raise SystemExit(f"login as {name} failed: {status} {payload[:200]!r}")
        cookie = headers["Set-Cookie"].split(";")[0].split("=", 1)[1]
        return cookie, json.loads(payload)["csrf"]


READS = ["/api/v1/session", "/api/v1/status", "/api/v1/health", "/api/v1/users", "/api/v1/schedules", "/api/v1/log",
         "/api/v1/log.csv", "/api/v1/plots/latency.svg", "/api/v1/plots/identify.svg", "/api/v1/plots/hourly.svg",
         "/api/v1/settings", "/api/v1/accounts", "/api/v1/tokens"]
CHANGES = [("/api/v1/door/mode", {"mode": "lockdown"}), ("/api/v1/users/rename", {"name": "a", "newName": "b"}),
           ("/api/v1/users/access", {"name": "a", "uses": 1}), ("/api/v1/users/delete", {"name": "a"}), ("/api/v1/users/disable", {"name": "a"}),
           ("/api/v1/users", {"name": "eve"}), ("/api/v1/users/pin", {"name": "a", "pin": "482913"}),
           ("/api/v1/cards", {"name": "a", "number": "26:1:2"}), ("/api/v1/cards/delete", {"name": "a", "label": "card"}),
           ("/api/v1/cards/switch", {"name": "a", "label": "card", "enabled": False}),
           ("/api/v1/cards/validity", {"name": "a", "label": "card", "validUntil": "2026-12-24"}),
           ("/api/v1/schedules", {"name": "evil", "text": "daily 00:00-23:59"}), ("/api/v1/schedules/delete", {"name": "x"}),
           ("/api/v1/enrollments", {"name": "mallory"}), ("/api/v1/settings", {"config": "{}"}),
           ("/api/v1/accounts", {"name": "mallory", "role": "admin", "password": "mallory's password"}),
           ("/api/v1/accounts/delete", {"name": "admin"}), ("/api/v1/tokens", {"name": "t", "role": "admin"}),
           ("/api/v1/tokens/revoke", {"name": "t"}), ("/api/v1/logout-everywhere", {})]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--cafile", required=True)
    parser.add_argument("--lock-url", required=True)
    parser.add_argument("--admin", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--used-setup-code", required=True)
    args = parser.parse_args()
    console = Console(args.url, args.cafile)

    # Without a session nothing is read or changed.
    for path in READS:
        status, _, _ = console.request("GET", path)
        check(status == 401, f"GET {path} without a session: {status}")
    for path, body in CHANGES:
        status, _, _ = console.request("POST", path, body, {"Origin": console.origin})
        check(status == 401, f"POST {path} without a session: {status}")
    status, headers, _ = console.request("GET", "/users")
    check(status == 303 and headers.get("Location") == "/login", f"the users page without a session sends to /login: {status}")

    # The setup code worked once (the browser test used it); never again.
    status, _, payload = console.request("POST", "/api/v1/setup", {"code": args.used_setup_code, "name": "mallory",
                                                                   "password": "mallory's password"}, {"Origin": console.origin})
    check(status in (403, 409), f"the used setup code is refused: {status} {payload[:80]!r}")

    # Session fixation: a token the attacker planted is not the one the login leaves.
    planted, _ = console.login(args.admin, args.password)
    cookie, csrf = console.login(args.admin, args.password, cookie=planted)
    check(cookie != planted, "the login issues a new session token")
    status, _, _ = console.request("GET", "/api/v1/session", headers={"Cookie": f"fpmod_session={planted}"})
    check(status == 401, f"the planted session no longer works after the login: {status}")
    session = {"Cookie": f"fpmod_session={cookie}"}

    # Cross-site requests: a foreign Origin, no Origin, no or a wrong CSRF token.
    body = {"name": "evil", "text": "daily 00:00-23:59"}
    for what, extra in [("a foreign Origin", {"Origin": "https://evil.example", "X-CSRF-Token": csrf}),
                        ("no Origin", {"X-CSRF-Token": csrf}),
                        ("no CSRF token", {"Origin": console.origin}),
                        ("a wrong CSRF token", {"Origin": console.origin, "X-CSRF-Token": ("A" if csrf[0] != "A" else "B") + csrf[1:]})]:
        status, _, _ = console.request("POST", "/api/v1/schedules", body, {**session, **extra})
        check(status == 403, f"a POST with {what} is refused: {status}")
    status, _, payload = console.request("POST", "/api/v1/schedules", b"name=evil&text=x",
                                         {**session, "Origin": console.origin, "X-CSRF-Token": csrf,
                                          "Content-Type": "application/x-www-form-urlencoded"})
    check(status == 415, f"a form-encoded POST is refused: {status}")
    status, _, payload = console.request("GET", "/api/v1/schedules", headers=session)
    check(status == 200 and b"evil" not in payload, "no refused request changed anything")

    # Static paths: only what the binary carries.
    for path in ["/assets/../../etc/passwd", "/assets/%2e%2e/%2e%2e/etc/passwd", "/assets/..%2fstore.db", "/assets/console.js%00.png"]:
        status, _, payload = console.request("GET", path)
        check(status in (400, 404) and b"root:" not in payload, f"GET {path}: {status}")

    # Sizes: headers and bodies are bounded.
    status, _, _ = console.request("GET", "/api/v1/status", headers={**session, "X-Big": "a" * 20000})
    check(status == 431, f"a 20 kB header is refused with 431: {status}")
    # Announced, then only begun: the answer must come before the body does (nothing is buffered).
    status = console.raw_status("POST /api/v1/schedules HTTP/1.1", {**session, "Origin": console.origin, "X-CSRF-Token": csrf,
                                                                    "Content-Type": "application/json", "Content-Length": "200000"}, b"{   ")
    check(status == 413, f"a 200 kB body is refused with 413 before it is sent: {status}")
    status = console.raw_status("POST /api/v1/schedules HTTP/1.1", {**session, "Origin": console.origin, "X-CSRF-Token": csrf,
                                                                    "Content-Type": "application/json", "Transfer-Encoding": "chunked"},
                                b"".join(b"%x\r\n%s\r\n" % (8192, b" " * 8192) for _ in range(10)) + b"0\r\n\r\n")
    check(status == 413, f"a chunked body past 64 KiB is refused with 413: {status}")
    deep = "[" * 100 + "]" * 100
    status, _, _ = console.request("POST", "/api/v1/schedules", deep.encode(), {**session, "Origin": console.origin, "X-CSRF-Token": csrf})
    check(status == 400, f"JSON nested 100 deep is refused: {status}")

    # TLS below 1.2 is refused; 1.2 and 1.3 are taken.
    for version, expected in [(ssl.TLSVersion.TLSv1_1, False), (ssl.TLSVersion.TLSv1_2, True), (ssl.TLSVersion.TLSv1_3, True)]:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.load_verify_locations(args.cafile)
        try:
            warnings.simplefilter("ignore", DeprecationWarning)
            context.set_ciphers("DEFAULT:@SECLEVEL=0")
            context.minimum_version = version
            context.maximum_version = version
        except (ssl.SSLError, ValueError):
            pass
        try:
            with socket.create_connection((console.host, console.port), timeout=5) as raw:
                with context.wrap_socket(raw, server_hostname=console.host) as tls:
                    accepted = tls.version()
        except (ssl.SSLError, OSError):
            accepted = None
        check((accepted is not None) == expected, f"{version.name}: {'accepted' if accepted else 'refused'}")

    # A thousand idle connections from one address do not keep another out, and are let go.
    idle = []
    for _ in range(1000):
        try:
            s = socket.socket()
            s.settimeout(2)
            s.connect((console.host, console.port))
            idle.append(s)
        except OSError:
            break
    try:
        status, _, _ = console.request("GET", "/api/v1/session", headers=session, source="127.0.0.2")
        check(status == 200, f"with {len(idle)} idle connections open from 127.0.0.1, 127.0.0.2 is served: {status}")
    finally:
        for s in idle:
            s.close()
    status, _, _ = console.request("GET", "/api/v1/session", headers=session)
    check(status == 200, f"after they closed, 127.0.0.1 is served again: {status}")

    # The lock screen: loopback only, no login, nothing but unlock attempts.
    lock = urllib.parse.urlsplit(args.lock_url)
    def lock_request(method, path, body=None, origin=None):
        connection = http.client.HTTPConnection(lock.hostname, lock.port, timeout=10)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if origin:
            headers["Origin"] = origin
        connection.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        return response.status, payload
    for path in ["/api/v1/users", "/api/v1/settings", "/users", "/assets/console.js"]:
        status, _ = lock_request("GET", path)
        check(status == 404, f"the lock screen's listener has no {path}: {status}")
    status, _ = lock_request("POST", "/lock/api/pin", {"pin": "1234"}, origin="https://evil.example")
    check(status == 403, f"a PIN from another page's origin is refused: {status}")
    status, _ = lock_request("GET", "/lock/api/state")
    check(status == 200, f"the lock screen's state needs no login: {status}")

    print(f"{failures} failed", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
