// libFuzzer entry point that plays a hostile fingerprint module: the fuzz input is the byte
// stream the module sends back, fed to the real driver (FingerprintModule) through an in-memory
// transport with virtual time. Built by tools/fuzz-module.sh together with the library sources
// (SwiftPM executables cannot link libFuzzer's own main).
//
// Input: one configuration byte, then records of [length hi][length lo][bytes]. Record 0 is on
// the line before the first command (the boot byte); each command frame the driver sends
// releases the next record; a flush drops what was released and not read. When the input is
// used up the line is silent (or, by configuration, unplugged) and every wait ends at once at
// its deadline on the virtual clock, so one input runs in microseconds.
//
// Every input drives the opening sequence (connect or reconnect), ReadProdInfo, ReadIndexTable,
// identify (GenImg, Img2Tz, Search), an enroll (captures, RegModel, Store, UpChar) and a restore
// (DownChar, Store, LoadChar, UpChar), each call carrying on after the one before failed.
// Invariants checked: no crash; no call keeps waiting on a silent line past its deadlines;
// every frame the driver sends is well formed and addressed to the module; a DownChar sends
// exactly the template; a Search hit is inside the range searched; and Administration maps a
// hit to a person only for a slot the store knows (any other slot is tamper).

@testable import Administration
import Transport
import FingerprintModule
import FingerprintProtocol
import Foundation
import SerialPort
import TemplateStore

/// `precondition` that also says why in an optimized build (where `precondition` traps silently).
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

func fail(_ message: String) -> Never { fatalError(message) }

// MARK: Transport with virtual time

/// What the module "sends": records released one per command, then silence.
final class ScriptedLine: ByteTransport {
    private let base = ContinuousClock.now
    private var elapsed: Duration = .zero
    /// The virtual clock the driver measures its deadlines on.
    var now: ContinuousClock.Instant { base + elapsed }

    private var records: [[UInt8]]
    private var nextRecord = 0
    private var inbox: [UInt8] = []
    private var inboxStart = 0
    /// Set when the line ran dry: replaces the silence with an unplugged cable.
    let unplugWhenDry: Bool
    /// Answers commands instead of the records (for writing the seed corpus); what it answers is kept.
    var responder: ((Command) -> [UInt8])?
    private(set) var answered: [[UInt8]] = []

    /// When the line first had nothing more to give, and how many empty waits followed.
    private(set) var dryAt: ContinuousClock.Instant?
    private(set) var emptyWaits = 0

    // What the driver sent, decoded.
    private var sentDecoder = FrameDecoder()
    private(set) var commands: [Command] = []
    private(set) var dataSent: [UInt8] = []
    private(set) var endPackets = 0
    var expectedAddress = Frame.defaultAddress

    private(set) var baudRate = 57600
    var description: String { "fuzz @ \(baudRate)" }
    /// Nothing to release: the line is memory. The driver's own close paths still run.
    func close() {}

    init(records: [[UInt8]], unplugWhenDry: Bool) {
        self.records = records
        self.unplugWhenDry = unplugWhenDry
        if let first = records.first {
            inbox = first
            nextRecord = 1
        }
    }

    private var isDry: Bool { inboxStart == inbox.count && (responder != nil || nextRecord >= records.count) }

    func send(_ bytes: [UInt8]) throws {
        if unplugWhenDry, isDry { throw SerialPortError.disconnected(path: "fuzz") }
        sentDecoder.feed(bytes)
        var commandsSent = 0
        while let frame = sentDecoder.nextFrame() {
            require(frame.address == expectedAddress, "the driver sent a frame to \(frame.address), not the module")
            switch frame.packetID {
            case .command:
                guard let command = Command(content: frame.content) else { fail("empty command frame") }
                commands.append(command)
                commandsSent += 1
                release(for: command)
            case .data: dataSent.append(contentsOf: frame.content)
            case .end:
                dataSent.append(contentsOf: frame.content)
                endPackets += 1
            case .acknowledge: fail("the driver sent an acknowledge packet")
            }
        }
        let statistics = sentDecoder.statistics
        require(statistics.discardedBytes == 0 && statistics.rejectedFrames == 0 && !sentDecoder.isInsideFrame,
                     "the driver sent a malformed frame: \(statistics)")
        require(commandsSent <= 1, "one write carried \(commandsSent) commands")
    }

    private func release(for command: Command) {
        if let responder {
            let reply = responder(command)
            answered.append(reply)
            append(reply)
        } else if nextRecord < records.count {
            append(records[nextRecord])
            nextRecord += 1
        }
    }

    private func append(_ bytes: [UInt8]) {
        if inboxStart == inbox.count {
            inbox = bytes
            inboxStart = 0
        } else {
            inbox.append(contentsOf: bytes)
        }
    }

    func receive(maxCount: Int, deadline: ContinuousClock.Instant) throws -> [UInt8] {
        require(maxCount > 0, "receive of \(maxCount) bytes")
        if inboxStart < inbox.count {
            let end = min(inbox.count, inboxStart + maxCount)
            defer { inboxStart = end }
            return Array(inbox[inboxStart..<end])
        }
        if unplugWhenDry, isDry { throw SerialPortError.disconnected(path: "fuzz") }
        if isDry, dryAt == nil { dryAt = now }
        emptyWaits += 1
        // Nothing comes: the wait ends at its deadline, at once.
        if deadline > now { elapsed = deadline - base }
        return []
    }

    func discardInput() throws {
        if unplugWhenDry, isDry { throw SerialPortError.disconnected(path: "fuzz") }
        inbox = []
        inboxStart = 0
    }

    func setBaudRate(_ baud: Int) throws {
        guard FingerprintProtocol.BaudRate.all.contains(baud) else { throw SerialPortError.unsupportedBaudRate(baud) }
        baudRate = baud
    }

    /// The search range of the last Search/HighSpeedSearch sent.
    var lastSearchRange: Range<Int>? {
        guard let search = commands.last(where: { [0x04, 0x1B].contains($0.instruction.rawValue) }),
              search.parameters.count == 5 else { return nil }
        let start = Int(search.parameters[1]) << 8 | Int(search.parameters[2])
        let count = Int(search.parameters[3]) << 8 | Int(search.parameters[4])
        return start..<(start + count)
    }

    func resetDataSent() {
        dataSent = []
        endPackets = 0
    }
}

// MARK: The store the harness trusts

/// Slots the store knows and whose they are.
let enrolled: [Int: String] = [0: "alice", 5: "bob", 130: "carol"]

final class Fixture {
    let directory: String
    let store: TemplateStore

    init() {
        var template = Array("/tmp/fpmod-fuzz-module.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
        directory = String(cString: made)
        do {
            store = try TemplateStore(databasePath: directory + "/store.db", keyPath: directory + "/store.key")
            for (slot, text) in enrolled.sorted(by: { $0.key < $1.key }) {
                let name = try UserName(validating: text)
                try store.addUser(name: name, role: text == "alice" ? .admin : .user)
                try store.addFinger(user: name, label: "right-index", slot: slot,
                                    template: [UInt8](repeating: UInt8(slot & 0xFF), count: 512), quality: 80)
            }
        } catch {
            fatalError("cannot create the fuzz store in \(directory): \(error)")
        }
    }
}

nonisolated(unsafe) var fixture: Fixture?

/// The store is made once per process and removed at exit.
func sharedFixture() -> Fixture {
    if let fixture { return fixture }
    let made = Fixture()
    fixture = made
    atexit {
        if let directory = fixture?.directory { try? FileManager.default.removeItem(atPath: directory) }
    }
    return made
}

// MARK: Configuration and input

struct Configuration {
    var family: ModuleFamily?
    var password: UInt32
    var reconnect: Bool
    var searchIndexRange: Bool
    var unplugWhenDry: Bool

    init(_ byte: UInt8) {
        family = switch byte & 0x07 {
        case 1: .r30x
        case 2: .as608
        case 3: .r50x
        case 4: .synochip
        default: nil
        }
        password = byte & 0x08 != 0 ? 0x1234_5678 : 0
        reconnect = byte & 0x10 != 0
        searchIndexRange = byte & 0x20 == 0
        unplugWhenDry = byte & 0x40 != 0
    }
}

func parseRecords(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
    var records: [[UInt8]] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
        let high = Int(bytes[index])
        let low = index + 1 < bytes.endIndex ? Int(bytes[index + 1]) : 0
        let start = min(index + 2, bytes.endIndex)
        let end = min(start + (high << 8 | low), bytes.endIndex)
        records.append(Array(bytes[start..<end]))
        index = end
    }
    return records
}

func encodeRecords(_ records: [[UInt8]]) -> [UInt8] {
    records.flatMap { [UInt8($0.count >> 8), UInt8($0.count & 0xFF)] + $0 }
}

// MARK: The session

/// The longest a call may go on waiting once the line is silent: two attempts at the longest
/// deadline (a Search over 65536 slots), the opening sequence's boot wait and handshakes, and
/// a recovery's second opening sequence.
func silentBudget(_ timeouts: CommandTimeouts) -> Duration {
    let longest = [timeouts.ordinary, timeouts.flashWrite, timeouts.searchBase + timeouts.searchPerPage * 65536,
                   timeouts.automatic, timeouts.dataPacket].max()! + .seconds(1)
    let opening = timeouts.bootWait + (timeouts.probe + timeouts.ordinary + timeouts.handshakeRetryGap) * 3
    return longest * 2 + opening * 2 + .seconds(3)
}

/// Runs one call and checks that it gave up in time once the line went silent.
func step<T>(_ line: ScriptedLine, _ module: FingerprintModule, _ name: String, _ body: () throws -> T) -> T? {
    let started = line.now
    let waitsBefore = line.emptyWaits
    defer {
        if let dryAt = line.dryAt {
            let silent = line.now - max(dryAt, started)
            // reconnect() probes every baud rate: one budget per rate.
            let rates = name == "reconnect" ? FingerprintProtocol.BaudRate.probeOrder.count : 1
            require(silent <= silentBudget(module.timeouts) * rates,
                         "\(name) went on waiting \(silent) on a silent line")
            require(line.emptyWaits - waitsBefore <= 200 * rates,
                         "\(name) polled a silent line \(line.emptyWaits - waitsBefore) times")
        }
    }
    do { return try body() } catch { return nil }
}

/// A fixed "template" to restore, the size the module says it uses.
func restoreTemplate(_ module: FingerprintModule) -> [UInt8] {
    let size = min(max(module.templateSize ?? module.profile.templateSize, 1), 4096)
    return (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
}

func session(_ configuration: Configuration, _ line: ScriptedLine, store: TemplateStore) {
    let module = FingerprintModule(transport: line, password: configuration.password, family: configuration.family)
    module.now = { line.now }
    let administrator = Administrator(module: module, store: store)

    if configuration.reconnect {
        _ = step(line, module, "reconnect") { try module.reconnect() }
    } else {
        _ = step(line, module, "connect") { try module.connect() }
    }
    line.expectedAddress = module.address
    _ = step(line, module, "readProductInfo") { try module.readProductInfo() }
    if let table = step(line, module, "readIndexTable", { try module.readIndexTable() }) {
        require(table.occupied.allSatisfy { $0 >= 0 && $0 < table.capacity }, "index table slot outside the library")
    }

    // Identify, and what the door would make of it.
    var timing = IdentifyTiming()
    let range = configuration.searchIndexRange ? module.indexTable?.occupiedRange : nil
    if case .match(let slot, let score)? = step(line, module, "identify", { try module.identify(range: range, timing: &timing) }) {
        guard let searched = line.lastSearchRange else { fail("a match without a Search") }
        require(searched.contains(slot), "a match at slot \(slot), outside the range searched \(searched)")
        let outcome: MatchOutcome
        do { outcome = try administrator.resolve(slot: slot, score: score, times: StageTimes(timing)) } catch {
            fatalError("the store failed: \(error)")
        }
        switch outcome {
        case .match(let found):
            require(enrolled[found.slot] == found.user && found.slot == slot && found.score == score,
                         "a match reported for slot \(slot) as \(found.user); the store knows \(enrolled)")
        case .tamper(let unknownSlot, _):
            require(unknownSlot == slot && enrolled[slot] == nil, "slot \(slot) known to the store became tamper")
        default:
            fail("a hit at slot \(slot) became \(outcome)")
        }
    }

    // Enroll: two captures, merge, store, read the template back (UpChar).
    let slot = 7
    _ = step(line, module, "captureImage") { try module.captureImage() }
    _ = step(line, module, "extractFeatures") { try module.extractFeatures(buffer: 1) }
    _ = step(line, module, "captureImage") { try module.captureImage() }
    _ = step(line, module, "extractFeatures") { try module.extractFeatures(buffer: 2) }
    _ = step(line, module, "registerModel") { try module.registerModel() }
    _ = step(line, module, "store") { try module.store(buffer: 1, slot: slot) }
    _ = step(line, module, "uploadTemplate") { try module.uploadTemplate(buffer: 1) }
    _ = step(line, module, "templateCount") { try module.templateCount() }

    // Restore: DownChar, Store, LoadChar, UpChar to verify.
    let template = restoreTemplate(module)
    line.resetDataSent()
    if step(line, module, "downloadTemplate", { try module.downloadTemplate(template, buffer: 1) }) != nil {
        require(line.dataSent == template && line.endPackets == 1, "DownChar sent other bytes than the template")
    }
    _ = step(line, module, "store") { try module.store(buffer: 1, slot: slot) }
    _ = step(line, module, "loadTemplate") { try module.loadTemplate(buffer: 1, slot: slot) }
    _ = step(line, module, "uploadTemplate") { try module.uploadTemplate(buffer: 1) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModule(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let configuration = Configuration(bytes[0])
    let line = ScriptedLine(records: parseRecords(bytes[1...]), unplugWhenDry: configuration.unplugWhenDry)
    session(configuration, line, store: sharedFixture().store)
    return 0
}

// MARK: Seed corpus

/// A healthy module: what a real one answers, for the seed corpus.
struct HealthyModule {
    var family: ModuleFamily
    var occupied: Set<Int> = Set(enrolled.keys)
    var hit: Int?
    var packetSizeCode = 2

    func reply(_ command: Command) -> [UInt8] {
        func ack(_ code: UInt8, _ payload: [UInt8] = []) -> [UInt8] {
            Acknowledgement(code: ConfirmationCode(rawValue: code), payload: payload).frame().encoded()
        }
        let profile = family.profile
        switch command.instruction.rawValue {
        case 0x40: return family == .r50x ? ack(0x00) : []
        case 0x53: return family == .as608 ? ack(0x55) : []
        case 0x0F:
            return ack(0x00, SystemParameters(capacity: 200, address: Frame.defaultAddress, packetSizeCode: packetSizeCode,
                                              baudMultiplier: 6).encoded())
        case 0x3C:
            guard family == .r50x else { return ack(0x01) }
            return ack(0x00, ProductInfo(model: "R503", batch: "B001", serial: "SN123456", hardwareMajor: 1,
                                         hardwareMinor: 2, sensorModel: "FPC1021", imageWidth: 192, imageHeight: 192,
                                         templateSize: 1536, capacity: 200).encoded())
        case 0x1F:
            var table = IndexTable(capacity: 200)
            for slot in occupied { table.merge(page: 0, bitmap: IndexTable.singleSlotBitmap(slot)) }
            let page = command.parameters.first.map(Int.init) ?? 0
            return ack(0x00, table.bitmap(page: page))
        case 0x04, 0x1B:
            guard let hit else { return ack(0x09) }
            return ack(0x00, [UInt8(hit >> 8), UInt8(hit & 0xFF), 0x00, 0x64])
        case 0x08:
            let template = (0..<profile.templateSize).map { UInt8(truncatingIfNeeded: $0) }
            return ack(0x00) + DataTransfer.encoded(template, packetSize: 32 << packetSizeCode)
        case 0x1D: return ack(0x00, [0x00, UInt8(occupied.count)])
        default: return ack(0x00)
        }
    }
}

extension IndexTable {
    /// Page-0 bitmap with one slot set (slots of page 0 only).
    static func singleSlotBitmap(_ slot: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: bytesPerPage)
        if slot < slotsPerPage { bytes[slot / 8] |= 1 << UInt8(slot % 8) }
        return bytes
    }
}

/// FPMOD_FUZZ_WRITE_SEEDS=DIR: write the seed corpus (healthy sessions) to DIR and exit.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzModuleInitialize(_ argc: UnsafeMutablePointer<CInt>,
                                 _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FPMOD_FUZZ_WRITE_SEEDS"] else { return 0 }
    var written = 0
    for family in ModuleFamily.allCases {
        for hit in [nil, 5, 100] as [Int?] {
            for configurationByte: UInt8 in [0x00, 0x08] {
                var byte = configurationByte
                switch family {
                case .r30x: byte |= hit == nil ? 0 : 1
                case .as608: byte |= 2
                case .r50x: byte |= hit == nil ? 0 : 3
                case .synochip: byte |= 4
                }
                let healthy = HealthyModule(family: family, hit: hit)
                let line = ScriptedLine(records: [[0x55]], unplugWhenDry: false)
                line.responder = healthy.reply
                session(Configuration(byte), line, store: sharedFixture().store)
                let seed = [byte] + encodeRecords([[0x55]] + line.answered)
                let name = "\(directory)/\(family)-\(hit.map { "hit\($0)" } ?? "nohit")-\(byte)"
                guard FileManager.default.createFile(atPath: name, contents: Data(seed)) else {
                    fatalError("cannot write \(name)")
                }
                written += 1
            }
        }
    }
    print("wrote \(written) seeds to \(directory)")
    exit(0)
}
