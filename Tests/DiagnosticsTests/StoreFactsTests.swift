@testable import Diagnostics
import Foundation
import Glibc
import TemplateStore
import Testing
import TestSupport

/// The store's facts read from a real SQLite store in a scratch folder, then judged.
@Suite struct StoreFactsTests {
    private func facts(_ folder: ScratchFolder) -> StoreFacts {
        SystemFacts.store(databasePath: folder.file("store.db"), keyPath: folder.file("store.key"), describe: { "\($0)" })
    }

    @Test func noStoreYetSkipsTheStoreChecks() {
        let folder = ScratchFolder(prefix: "diagnostics-store")
        defer { folder.remove() }
        let store = facts(folder)
        #expect(store.database == nil)
        #expect(store.pairing == .unknown(reason: "no store yet."))
        var doctor = DoctorFacts()
        doctor.store = store
        let checks = DoctorChecks.evaluate(doctor).filter { $0.id.hasPrefix("store") }
        #expect(checks.count == 5)
        #expect(checks.allSatisfy { $0.verdict == .skipped })
    }

    @Test func pairedPrivateStoreIsOK() throws {
        let folder = ScratchFolder(prefix: "diagnostics-store")
        defer { folder.remove() }
        do {
            let store = try TemplateStore(databasePath: folder.file("store.db"), keyPath: folder.file("store.key"))
            try store.setModuleIdentity(ModuleIdentity(family: "r30x", address: 0xA1B2_C3D4, password: 7, capacity: 200))
        }
        chmod(folder.path, 0o700)
        chmod(folder.file("store.db"), 0o600)
        chmod(folder.file("store.key"), 0o600)
        let store = facts(folder)
        guard case let .paired(family, address, _) = store.pairing else {
            Issue.record("not paired: \(store.pairing)")
            return
        }
        #expect(family == "r30x" && address == 0xA1B2_C3D4)
        #expect(store.pendingOperations == [])
        #expect(store.openError == nil)
        #expect(DoctorChecks.pairing(store).verdict == .ok)
        #expect(DoctorChecks.storeKey(store).verdict == .ok)
        #expect(DoctorChecks.pendingOperations(store).verdict == .ok)
    }

    @Test func missingKeyIsAProblemAndNotCreated() throws {
        let folder = ScratchFolder(prefix: "diagnostics-store")
        defer { folder.remove() }
        _ = try TemplateStore(databasePath: folder.file("store.db"), keyPath: folder.file("store.key"))
        unlink(folder.file("store.key"))
        let store = facts(folder)
        #expect(store.key == nil)
        #expect(DoctorChecks.storeKey(store).verdict == .problem)
        #expect(!FileManager.default.fileExists(atPath: folder.file("store.key")), "the doctor must not create a key")
    }
}
