import Administration
import FailureKinds
import FingerprintModule
import ReaderSessions
import SerialPort
import ServiceClient
import TemplateStore
import Testing

/// Every layer's errors sorted by kind of problem, so each front end maps kinds, not types
/// (the CLI's exit codes are checked end to end in fpmodTests' ExitCodeTableTests).
@Suite struct FailureKindTests {
    struct Unknown: Error {}

    @Test func eachLayersErrorsHaveTheirKind() {
        let cases: [(any Error, FailureKind)] = [
            (ReaderSessionError.noPort, .config),
            (ReaderSessionError.twoReaders("--port", "--spi"), .usage),
            (ServiceClientError(.tryLater, "busy"), .tryLater),
            (StoreError.unknownUser("zoe"), .usage),
            (StoreError.busy(path: "/s.db"), .tryLater),
            (StoreError.backupInvalid(detail: "a card of an unknown kind"), .data),
            (StoreError.backupInvalidName(NameError(.cardLabel, "blue fob", .character(" "))), .data),
            (SerialPortError.noSuchDevice(path: "/dev/ttyX", candidates: []), .unavailable),
            (AdministrationError.noFingersEnrolled(user: "zoe"), .usage),
            (MatchPreflight.OutOfStep(whose: "zoe's 1 finger(s)"), .denied),
            (FingerCapture.NoFingerInTime(), .tryLater),
            (Unknown(), .io),
        ]
        for (error, kind) in cases {
            #expect(FailureKind(of: error) == kind, "\(error)")
        }
    }

    @Test func aModuleErrorFromItsTransportTakesTheTransportsKind() {
        #expect(FailureKind(of: ModuleError.transport(SerialPortError.busy(path: "/dev/ttyUSB0", holderPID: 42))) == .tryLater)
        #expect(FailureKind(of: ModuleError.transport(Unknown())) == .io)
    }

    @Test func aReadOnlyStoreIsIOOnAReadOnlyMountAndPermissionOtherwise() {
        #expect(FailureKind(of: StoreError.readOnly(path: "/s.db", detail: "ro", fileSystem: true)) == .io)
        #expect(FailureKind(of: StoreError.readOnly(path: "/s.db", detail: "mode", fileSystem: false)) == .permission)
    }
}
