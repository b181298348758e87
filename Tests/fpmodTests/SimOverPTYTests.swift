import Foundation
import Glibc
import Testing

/// The commands against `fpmod sim` running as its own process on a pseudo-terminal, reached
/// with --port like a real module; fingers are placed through its control socket.
@Suite(.serialized) struct SimOverPTYTests {
    /// One line to the simulator's control socket, its reply back.
    static func control(_ socketPath: String, _ line: String) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var reply: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1, byte != 0x0A { reply.append(byte) }
        return String(decoding: reply, as: UTF8.self)
    }

    @Test func enrollIdentifyPairAndSyncThroughAPseudoTerminal() throws {
        let cli = CLI()
        let link = cli.directory + "/sim0", controlPath = cli.directory + "/sim.ctl"
        let simulator = Process()
        simulator.executableURL = URL(fileURLWithPath: CLI.binary)
        simulator.arguments = ["sim", "--link", link, "--control", controlPath, "--state", cli.directory + "/module.state"]
        simulator.environment = cli.environment
        simulator.standardOutput = FileHandle.nullDevice
        simulator.standardError = FileHandle.nullDevice
        try simulator.run()
        defer {
            simulator.terminate()
            simulator.waitUntilExit()
        }
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: controlPath) || !FileManager.default.fileExists(atPath: link) { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: link))

        let port = ["--port", link]
        _ = try Self.control(controlPath, "touch alice 100")
        let enroll = try cli.run(port + ["enroll", "alice", "--json"])
        #expect(enroll.status == 0, "\(enroll.stderr)")
        _ = try Self.control(controlPath, "lift")
        #expect(try cli.run(port + ["pair"]).status == 0)

        _ = try Self.control(controlPath, "touch alice 1")
        let identify = try cli.run(port + ["identify", "--json"])
        #expect(identify.status == 0, "\(identify.stderr)")
        #expect(identify.json?["user"] as? String == "alice")
        _ = try Self.control(controlPath, "touch stranger 1")
        #expect(try cli.run(port + ["verify", "alice"]).status == 1)
        _ = try Self.control(controlPath, "lift")
        #expect(try cli.run(port + ["sync"]).status == 0)
        // Without the paired password and address, the module does not answer the factory ones.
        let unpaired = CLI()
        #expect(try unpaired.run(port + ["sync"]).status == 78)  // no store there
        #expect(try unpaired.run(port + ["enroll", "bob"]).status == 69)
        // The failed first enroll left no store behind.
        #expect(!FileManager.default.fileExists(atPath: unpaired.directory + "/store.db"))
    }
}
