import Administration
import Testing

/// The module opener refuses a store an image sensor enrolled on, before talking to the module.
@Suite(.serialized) struct StoreReaderKindTests {
    @Test func aStoreMarkedAsAnImageSensorsIsRefusedAndLeftAsItWas() throws {
        let bench = try Bench()
        try StoreReaderKind.record(.imageSensor, in: bench.store)
        do {
            _ = try bench.open()
            Issue.record("a module opened a store marked as an image sensor's")
        } catch let error as StoreKindError {
            #expect(error == .belongsToImageSensor(databasePath: bench.store.databasePath))
            #expect(error.description.contains("--store"))
        }
        #expect(try StoreReaderKind.recorded(in: bench.store) == .imageSensor)
        #expect(try bench.store.moduleIdentity() == nil)
        #expect(bench.server.library.isEmpty)
    }

    @Test func anUnmarkedOrModuleStoreOpens() throws {
        let bench = try Bench()
        _ = try bench.open()
        try StoreReaderKind.record(.module, in: bench.store)
        _ = try bench.open()
        #expect(try StoreReaderKind.recorded(in: bench.store) == .module)
    }
}
