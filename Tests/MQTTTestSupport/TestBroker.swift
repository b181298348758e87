import Foundation
import Glibc
import MQTT
import Posix

/// A real mosquitto broker on a free loopback port, with its own config file: authentication on
/// (a password file made with `mosquitto_passwd`), anonymous clients refused, nothing persisted.
/// Stopped and its directory removed at `deinit`; `stop()`/`start()` in between restart it on
/// the same port, for the reconnect tests.
public final class TestBroker {
    public static let program = "/usr/sbin/mosquitto"
    public static let passwordTool = "/usr/bin/mosquitto_passwd"

    public let directory: String
    public let port: Int
    private var pid: pid_t?

    /// With `tls`, the listener speaks only TLS, with a server certificate for 127.0.0.1 signed
    /// by a CA made for this broker (`caFile`).
    public init(users: [String: String], tls: Bool = false) throws {
        directory = try makeTemporaryDirectory(prefix: "fpmod-broker")
        port = try freeLoopbackPort()
        let tlsSettings = tls ? try Self.makeCertificates(in: directory) : ""
        let passwords = directory + "/passwords"
        var first = true
        for (user, password) in users.sorted(by: { $0.key < $1.key }) {
            // -c creates the file (first user only), -b takes the password from the command line.
            try run(Self.passwordTool, (first ? ["-c"] : []) + ["-b", passwords, user, password])
            first = false
        }
        let config = """
            listener \(port) 127.0.0.1
            allow_anonymous false
            password_file \(passwords)
            persistence false
            log_dest file \(directory)/mosquitto.log
            log_type all
            user \(currentUserName())
            \(tlsSettings)
            """
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    public var caFile: String { directory + "/ca.pem" }

    /// A CA and a server certificate (P-256, valid two days, subjectAltName IP 127.0.0.1) made
    /// with openssl; returns the listener's settings.
    static func makeCertificates(in directory: String) throws -> String {
        try makeCA(directory + "/ca")
        let server = directory + "/server"
        try run("/usr/bin/openssl", ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                     "-keyout", server + ".key", "-out", server + ".csr", "-subj", "/CN=127.0.0.1"])
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: server + ".ext", atomically: true, encoding: .utf8)
        try run("/usr/bin/openssl", ["x509", "-req", "-in", server + ".csr", "-CA", directory + "/ca.pem",
                                     "-CAkey", directory + "/ca.key", "-CAcreateserial", "-out", server + ".pem",
                                     "-days", "2", "-extfile", server + ".ext"])
        return "cafile \(directory)/ca.pem\ncertfile \(server).pem\nkeyfile \(server).key\n"
    }

    /// A self-signed CA: `<base>.pem` and `<base>.key`.
    public static func makeCA(_ base: String) throws {
        try run("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                     "-keyout", base + ".key", "-out", base + ".pem", "-days", "2",
                                     "-subj", "/CN=fpmod test CA"])
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    public var configPath: String { directory + "/mosquitto.conf" }
    public var logPath: String { directory + "/mosquitto.log" }
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Starts the broker and waits until its port accepts a TCP connection. Spawned with
    /// `ChildProcess`, which unblocks every signal in the child: a test thread (libdispatch's)
    /// has SIGTERM blocked, mosquitto keeps the mask it inherits around its epoll_wait, and a
    /// broker started with Foundation's Process never sees the SIGTERM that should stop it.
    public func start() throws {
        precondition(pid == nil, "broker already running")
        let started = try ChildProcess.spawn([Self.program, "-c", configPath], environment: ["PATH": "/usr/sbin:/usr/bin:/bin"])
        pid = started
        let deadline = ContinuousClock.now + .seconds(20)
        while !acceptsConnections() {
            guard !ChildProcess.reap(started), ContinuousClock.now < deadline else {
                stop()
                throw BrokerHarnessError("mosquitto did not start listening on 127.0.0.1:\(port):\n\(log)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Changes (or adds) a user's password and has the running broker reload its password file
    /// (SIGHUP).
    public func setPassword(user: String, password: String) throws {
        try run(Self.passwordTool, ["-b", directory + "/passwords", user, password])
        if let pid { kill(pid, SIGHUP) }
    }

    /// SIGTERM, then waits for the broker to exit (SIGKILL if it has not after 20 s).
    public func stop() {
        guard let running = pid else { return }
        pid = nil
        kill(running, SIGTERM)
        if !waitForExit(running, within: .seconds(20)) {
            kill(running, SIGKILL)
            _ = waitForExit(running, within: .seconds(5))
        }
    }

    private func acceptsConnections() -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { Glibc.close(socket) }
        var address = loopbackAddress(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    public func clientOptions(user: String?, password: String?, clientID: String) -> MQTTOptions {
        var options = MQTTOptions(host: "127.0.0.1", port: port, clientID: clientID, username: user, password: password)
        // Short delays keep the reconnect tests short; nothing asserts how short.
        options.reconnectInitial = .milliseconds(50)
        options.reconnectMaximum = .milliseconds(400)
        options.keepAliveSeconds = 5
        return options
    }
}

public struct BrokerHarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Runs a program to completion (at most 60 s) and returns its output; throws with the output
/// when it fails. Through `sh -c 'exec …'` so the output lands in a file and the child starts
/// with every signal unblocked (mosquitto_sub's -W timer is a SIGALRM). `allowTimeout`: exit
/// status 27 (mosquitto_sub's -W timeout) counts as success too.
@discardableResult
public func run(_ program: String, _ arguments: [String], allowTimeout: Bool = false) throws -> String {
    let directory = try makeTemporaryDirectory(prefix: "fpmod-run")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let output = directory + "/output"
    let script = "\"$0\" \"$@\" > \"$FPMOD_OUTPUT\" 2>&1; echo $? > \"$FPMOD_OUTPUT.status\""
    let pid = try ChildProcess.spawn(["/bin/sh", "-c", script, program] + arguments,
                                     environment: ["FPMOD_OUTPUT": output, "PATH": "/usr/sbin:/usr/bin:/bin"])
    if !waitForExit(pid, within: .seconds(60)) {
        kill(pid, SIGKILL)
        _ = waitForExit(pid, within: .seconds(5))
    }
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    let status = (try? String(contentsOfFile: output + ".status", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    guard status == "0" || (allowTimeout && status == "27") else {
        throw BrokerHarnessError("\(program) \(arguments.joined(separator: " ")) exited \(status ?? "by a signal"): \(text)")
    }
    return text
}

/// Polls `waitpid(WNOHANG)` until `pid` has exited or `limit` passed.
public func waitForExit(_ pid: pid_t, within limit: Duration) -> Bool {
    let deadline = ContinuousClock.now + limit
    while !ChildProcess.reap(pid) {
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return true
}

public func makeTemporaryDirectory(prefix: String) throws -> String {
    var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else { throw Errno.current }
    return String(cString: created)
}

/// A port the kernel just handed out for 127.0.0.1 and released again: free unless another
/// process grabs it in the moment before the broker binds it.
func freeLoopbackPort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Errno.current }
    defer { Glibc.close(socket) }
    var address = loopbackAddress(port: 0)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw Errno.current }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    guard named == 0 else { throw Errno.current }
    return Int(UInt16(bigEndian: address.sin_port))
}

func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

func currentUserName() -> String {
    guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "root" }
    return String(cString: name)
}
