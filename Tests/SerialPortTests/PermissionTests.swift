import Foundation
import Glibc
import Testing
@testable import SerialPort

/// Root opens anything, and CI runs as root, so the denial is observed in a child process: this
/// test binary again, under `setpriv` as nobody, running only this test in child mode.
@Suite struct PermissionTests {
    static let childPathVariable = "FPMOD_TEST_UNPRIVILEGED_OPEN"

    @Test func permissionDeniedNamesTheDialoutGroup() throws {
        if let path = ProcessInfo.processInfo.environment[Self.childPathVariable] {
            try runAsUnprivilegedChild(opening: path)
            return
        }
        let pty = try PseudoTerminal()
        defer { pty.close() }
        #expect(chmod(pty.slavePath, 0o600) == 0)
        guard getuid() == 0 else {
            // Already unprivileged: the 0600 slave belongs to us, so use a root-only file.
            #expect(serialError { _ = try SerialPort.open(path: "/etc/shadow") } == .permissionDenied(path: "/etc/shadow"))
            return
        }
        let setpriv = "/usr/bin/setpriv"
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "setpriv (util-linux) is needed to drop root")
        let (testBinary, isCopy) = try binaryNobodyCanRun()
        // Only a copy is removed: the build directory itself may well live under /tmp too.
        defer { if isCopy { removeTemporaryDirectory((testBinary as NSString).deletingLastPathComponent) } }

        let child = Process()
        child.executableURL = URL(fileURLWithPath: setpriv)
        child.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", testBinary,
            "--testing-library", "swift-testing", "--filter", "permissionDeniedNamesTheDialoutGroup",
        ]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.childPathVariable: pty.slavePath]) { $1 }
        child.currentDirectoryURL = URL(fileURLWithPath: "/")
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()

        #expect(child.terminationStatus == 0, "child output:\n\(text)")
        #expect(text.contains("CHILD-RESULT: Permission denied opening \(pty.slavePath)."), "child output:\n\(text)")
        #expect(text.contains("sudo usermod -aG dialout $USER"))
    }

    /// This test binary, or a copy of it in a world-readable temporary directory when the build
    /// directory is not reachable for other users (a checkout under /root, say).
    private func binaryNobodyCanRun() throws -> (path: String, isCopy: Bool) {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var path = binary
        var reachable = true
        while path != "/" && !path.isEmpty {
            var info = stat()
            if stat(path, &info) != 0 || info.st_mode & 0o001 == 0 { reachable = false }
            path = (path as NSString).deletingLastPathComponent
        }
        if reachable { return (binary, false) }
        let directory = try makeTemporaryDirectory()
        #expect(chmod(directory, 0o755) == 0)
        let copy = directory + "/fpmodPackageTests.xctest"
        try FileManager.default.copyItem(atPath: binary, toPath: copy)
        return (copy, true)
    }

    private func runAsUnprivilegedChild(opening path: String) throws {
        #expect(getuid() != 0)
        let error = serialError { _ = try SerialPort.open(path: path) }
        #expect(error == .permissionDenied(path: path))
        print("CHILD-RESULT: \(error.map(String.init(describing:)) ?? "opened without error")")
    }
}
