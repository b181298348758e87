@testable import Diagnostics
import Foundation
import Glibc
import Testing
import TestSupport

/// File modes as `stat` sees them, and the verdicts they lead to.
@Suite struct PermissionFactsTests {
    @Test func readableKeyIsAProblem() throws {
        let folder = ScratchFolder(prefix: "diagnostics-permissions")
        defer { folder.remove() }
        let path = folder.file("store.key")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("key".utf8)))
        chmod(path, 0o644)
        let node = try #require(SystemFacts.node(path))
        #expect(node.mode == 0o644)
        #expect(node.modeText == "0644")
        var store = StoreFacts(databasePath: folder.file("store.db"), keyPath: path)
        store.key = node
        let check = DoctorChecks.storeKey(store)
        #expect(check.verdict == .problem)
        #expect(check.fix == "chmod 600 \(path) (and consider who may have copied it).")

        chmod(path, 0o600)
        store.key = SystemFacts.node(path)
        #expect(DoctorChecks.storeKey(store).verdict == .ok)
    }

    @Test func absentPathHasNoNode() {
        #expect(SystemFacts.node("/nonexistent/fpmod-diagnostics") == nil)
    }

    @Test func serialPortTheUserMayNotOpen() {
        var facts = DoctorFacts()
        facts.user = UserFacts(name: "alice", uid: 1000, sessionGroups: ["alice"], accountGroups: ["alice", "dialout"])
        let node = FileNode(path: "/dev/ttyUSB0", mode: 0o660, owner: "root", group: "dialout", readWritable: false)
        facts.port = PortFacts(path: "/dev/ttyUSB0", resolvedPath: "/dev/ttyUSB0", source: .commandLine, node: node, open: .permissionDenied)
        let check = DoctorChecks.serialPermission(DoctorContext(facts))
        #expect(check.verdict == .problem)
        #expect(check.seen == "/dev/ttyUSB0 is root:dialout 0660; alice may not open it.")
    }
}

