import Administration
import Foundation
import HostReader
import ImageSensorSimulator
import TemplateStore
import Testing
import TestSupport

/// A host reader refuses a module's store (and marks the stores it uses), so the two kinds of
/// reader never share slots or templates.
@Suite(.serialized) struct HostStoreGuardTests {
    /// A fresh store in its own folder, removed by the caller's `defer`.
    private func freshStore() throws -> (TemplateStore, String) {
        let directory = ReaderBench.temporaryDirectory()
        return (try TemplateStore(databasePath: directory + "/store.db", keyPath: directory + "/key"), directory)
    }

    private func refusal(_ store: TemplateStore) throws -> String? {
        let error = expectThrows(HostReaderError.self) { try HostReader(sensor: try SimulatedImageSensor(), store: store) }
        guard case .storeBelongsToModule(let path, let reason)? = error else { return nil }
        #expect(path == store.databasePath)
        #expect(error?.description.contains("separate store") == true)
        return reason
    }

    /// The mark the fleet's replica reads (whose slots are flash pages) is the one the host reader writes.
    @Test func theImageSensorMarkIsOneValue() {
        #expect(TemplateStore.imageSensorReaderKind == ReaderDescription.Kind.imageSensor.rawValue)
        #expect(StoreReaderKind.key == TemplateStore.readerKindKey)
    }

    @Test func aStorePairedWithAModuleIsRefused() throws {
        let (store, directory) = try freshStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try store.setModuleIdentity(ModuleIdentity(family: "r307", address: 0xFFFF_FFFF, password: 0, capacity: 1000))
        #expect(try refusal(store) == "it is paired with a r307 module")
        #expect(try StoreReaderKind.recorded(in: store) == nil)
    }

    @Test func aStoreWithModuleTemplatesIsRefusedNamingTheSlot() throws {
        let (store, directory) = try freshStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try store.addUser(name: "alice")
        try store.addFinger(user: "alice", label: "right-index", slot: 3, template: [UInt8](repeating: 0x03, count: 512), quality: 100)
        #expect(try refusal(store) == "slot 3, alice's right-index, holds a module template")
        try store.setValue("r307", forKey: TemplateStore.templateFamilyKey)
        #expect(try refusal(store) == "its templates were made by a r307 module")
    }

    @Test func aStoreMarkedAsAModulesIsRefused() throws {
        let (store, directory) = try freshStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try StoreReaderKind.record(.module, in: store)
        #expect(try refusal(store) == "it is marked as a module's store")
    }

    @Test func anEmptyStoreIsMarkedOnlyByTheFirstEnrollThenReopens() throws {
        let bench = try ReaderBench()
        #expect(try StoreReaderKind.recorded(in: bench.store) == nil)
        try bench.enroll("alice")
        #expect(try StoreReaderKind.recorded(in: bench.store) == .imageSensor)
        let again = try HostReader(sensor: try SimulatedImageSensor(), store: bench.store)
        again.fingerTimeout = .seconds(5)
        bench.sensor.autoTouch = nil
        #expect(again.readerDescription.kind == .imageSensor)
    }
}
