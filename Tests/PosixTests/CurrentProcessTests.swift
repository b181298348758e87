import Foundation
import Glibc
import Posix
import Testing

/// The ids as other programs see them: `sh` reports its parent's pid, `id` this user's ids.
struct CurrentProcessTests {
    /// Runs a command with this process as its parent; its stdout, trimmed.
    func output(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theIdIsWhatAChildSeesAsItsParent() throws {
        #expect(try output("/bin/sh", ["-c", "echo $PPID"]) == String(CurrentProcess.id))
    }

    @Test func theEffectiveIdsAreWhatIdSays() throws {
        #expect(try output("/usr/bin/id", ["-u"]) == String(CurrentProcess.effectiveUserID))
        #expect(try output("/usr/bin/id", ["-g"]) == String(CurrentProcess.effectiveGroupID))
    }

    @Test func theGroupsAreWhatIdSays() throws {
        let listed = Set(try output("/usr/bin/id", ["-G"]).split(separator: " ").map(String.init))
        let ours = Set((try CurrentProcess.supplementaryGroupIDs() + [CurrentProcess.effectiveGroupID]).map(String.init))
        #expect(ours == listed)
    }

    @Test func aSignalNobodyHandlesIsDeliveredToThisProcess() throws {
        // SIGWINCH is ignored by default: delivered, nothing happens, no error.
        #expect(throws: Never.self) { try CurrentProcess.send(SIGWINCH) }
        #expect(throws: Errno.invalidArgument) { try CurrentProcess.send(-1) }
    }
}
