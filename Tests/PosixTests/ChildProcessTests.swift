import Foundation
import Posix
import Testing

/// `ChildProcess`: the hooks' spawn and reap, with the environment given and typed errors.
@Suite struct ChildProcessTests {
    @Test func aChildSeesExactlyItsEnvironmentAndIsReaped() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let out = directory + "/out"
        let pid = try ChildProcess.spawn(["/bin/sh", "-c", "printf %s \"$FPMOD_EVENT\" > \"$OUT\""],
                                         environment: ["FPMOD_EVENT": "unlock", "OUT": out, "PATH": "/usr/bin:/bin"])
        let deadline = ContinuousClock.now + .seconds(10)
        while !ChildProcess.reap(pid), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "unlock")
    }

    @Test func aMissingProgramIsATypedError() {
        #expect(throws: Errno.noSuchFile) { try ChildProcess.spawn(["/nonexistent/fpmod-hook"], environment: [:]) }
    }
}
