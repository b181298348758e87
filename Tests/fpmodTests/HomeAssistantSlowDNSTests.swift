import Foundation
import Glibc
import MQTT
import MQTTTestSupport
import Testing

/// The broker given by a host name whose DNS server does not answer: libmosquitto's connect
/// resolves it with a blocking getaddrinfo, which fpmod runs on a thread of its own. Here the
/// real binary runs in a mount namespace whose /etc/resolv.conf names a DNS server of the
/// test's (a few lines of Python on a loopback address) that holds every answer until the test
/// releases it, with the resolver told to wait 30 s per try, three tries: a lookup on the loop
/// thread would hold the service for 90 s, longer than the bounds below.
@Suite(.serialized)
struct HomeAssistantSlowDNSTests {
    static let nameserver = "127.0.83.53"
    static let brokerName = "broker.fpmod-test.example"

    /// Answers A queries for any name with 127.0.0.1 (others with no records), but only once
    /// the release file exists; writes each name asked for to the held file.
    static let dnsServer = """
        import os, socket, struct, sys
        address, held, release = sys.argv[1:4]
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind((address, 53))
        s.settimeout(0.05)
        print("listening", flush=True)
        def reply(query):
            end = 12
            while query[end] != 0:
                end += query[end] + 1
            qtype = struct.unpack(">H", query[end + 1:end + 3])[0]
            question = query[12:end + 5]
            answers = struct.pack(">HHHIH4B", 0xC00C, 1, 1, 60, 4, 127, 0, 0, 1) if qtype == 1 else b""
            return query[:2] + struct.pack(">HHHHH", 0x8180, 1, 1 if answers else 0, 0, 0) + question + answers
        pending = []
        while True:
            try:
                query, peer = s.recvfrom(512)
                pending.append((query, peer))
                with open(held, "a") as f:
                    f.write("asked\\n")
            except socket.timeout:
                pass
            if os.path.exists(release):
                for query, peer in pending:
                    s.sendto(reply(query), peer)
                pending = []
        """

    /// The test needs a mount namespace of its own. Inside a chroot whose / is no mount point
    /// (the Debian 13 tier's root) `unshare --mount` cannot make its mounts private and
    /// refuses; the test is then skipped, since binding over /etc/resolv.conf without that
    /// would change it for everything else in the root.
    static let mountNamespaceWorks: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["--mount", "--fork", "/bin/true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    @Test(.enabled(if: HomeAssistantSlowDNSTests.mountNamespaceWorks,
                   "unshare --mount does not work here (a chroot whose / is no mount point)"))
    func aBrokerNameThatIsSlowToResolveDoesNotHoldTheLock() throws {
        let cli = CLI()
        let broker = try TestBroker(users: ["fpmod": "door-secret", "homeassistant": "ha-secret"])
        try broker.start()
        let sockets = cli.directory + "/sockets"
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        let passwordFile = cli.directory + "/mqtt.password"
        try "door-secret\n".write(toFile: passwordFile, atomically: false, encoding: .utf8)
        #expect(chmod(passwordFile, 0o600) == 0)
        let config = cli.directory + "/config.json"
        try """
            {"board": "gpio-vm", "control": {"socket": "\(sockets)/control.sock"}, "events": {"socket": "\(sockets)/events.sock"},
             "mqtt": {"url": "mqtt://fpmod@\(Self.brokerName):\(broker.port)", "passwordFile": "\(passwordFile)",
                      "deviceId": "front-door"}}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let resolvConf = cli.directory + "/resolv.conf"
        try "nameserver \(Self.nameserver)\noptions timeout:30 attempts:3\n".write(toFile: resolvConf, atomically: true, encoding: .utf8)
        let held = cli.directory + "/dns-held", release = cli.directory + "/dns-release"

        let dns = Process()
        dns.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        dns.arguments = ["-c", Self.dnsServer, Self.nameserver, held, release]
        let dnsOutput = Pipe()
        dns.standardOutput = dnsOutput
        try dns.run()
        defer {
            // SIGKILL: a child of a test thread inherits its blocked SIGTERM (see TestBroker.start).
            kill(dns.processIdentifier, SIGKILL)
            dns.waitUntilExit()
        }
        #expect(String(decoding: dnsOutput.fileHandleForReading.availableData, as: UTF8.self).contains("listening"))

        // fpmod sees the test's resolv.conf in a mount namespace of its own; --kill-child takes
        // it down with unshare.
        let service = try LoggedProcess(cli, executable: "/usr/bin/unshare", arguments: [
            "--mount", "--fork", "--kill-child", "/bin/sh", "-c", #"mount --bind "$0" /etc/resolv.conf && exec "$@""#,
            resolvConf, CLI.binary, "--config", config, "run", "--sim", "--sim-gpio",
        ])
        defer {
            if service.isRunning { kill(service.processIdentifier, SIGKILL) }
            service.waitUntilExit()
        }
        var log: String { service.log }
        let ha = try MQTTObserver(broker, user: "homeassistant", password: "ha-secret", filters: ["fpmod/front-door/#"])

        try waitFor("fpmod's lookup of \(Self.brokerName) to reach the test's DNS server") {
            FileManager.default.fileExists(atPath: held)
        }
        // The lookup is held, and the lock answers and decides all the same: the control
        // socket (fpmod status, served by the loop) and a touch of a stranger's finger.
        try waitFor("the module, through the running service", timeout: .seconds(20)) {
            let status = try cli.run(["--config", config, "status", "--json"])
            return status.json?["module"] as? String == "connected"
        }
        _ = try CLI.unixRequest(path: sockets + "/sim-control.sock", line: "touch stranger-thumb")
        try waitFor("the stranger's no-match, with the lookup still held", timeout: .seconds(20)) { log.contains("no-match") }
        #expect(!FileManager.default.fileExists(atPath: release))
        #expect(ha.last("fpmod/front-door/availability") == nil, "online before the name resolved?\n\(log)")

        // Released: the name resolves to 127.0.0.1, and the bridge connects.
        _ = FileManager.default.createFile(atPath: release, contents: nil)
        #expect(ha.pump(within: .seconds(40)) { ha.last("fpmod/front-door/availability") == "online" }, "service log:\n\(log)")
        #expect(ha.pump { ha.last("fpmod/front-door/lock/state") == "LOCKED" })
    }
}
