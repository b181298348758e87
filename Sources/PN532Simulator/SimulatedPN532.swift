import PN532

/// The PN532's firmware as a host sees it through HSU, without I/O: bytes in, timed bytes out.
/// It answers what libnfc's pn532_uart driver and pn53x chip code send on open, when polling
/// and on close (see docs/nfc.md), acknowledging each valid command frame before its response.
///
/// Power: the chip starts asleep (the PN532 C106 starts in Low VBat mode) and after PowerDown;
/// asleep it ignores everything until a `55` byte on the line wakes it, as the HSU does.
public struct SimulatedPN532: Sendable {
    /// Bytes to write, `delay` after the frame that caused them arrived.
    public struct Transmission: Equatable, Sendable {
        public var delay: Duration
        public var bytes: [UInt8]
    }

    /// How long the firmware takes between its ACK and its response.
    public var responseDelay: Duration = .milliseconds(1)
    public private(set) var card: SimulatedCard?
    public var fault: PN532Fault = .none
    public private(set) var asleep = true
    public private(set) var fieldOn = false
    public private(set) var commandsHandled = 0
    /// The target number of the listed (selected) card, if any.
    public private(set) var selectedTarget: UInt8?

    private var decoder = PN532FrameDecoder()
    private var registers = CIURegisters()
    private var parameters: UInt8 = 0x00
    /// MxRtyPassiveActivation: FF retries InListPassiveTarget until a card comes.
    private var passiveActivationRetries: UInt8 = 0xFF
    /// An InListPassiveTarget waiting for a card (infinite retries): its MaxTg, BrTy, initiator data.
    private var pendingList: (maximum: UInt8, modulation: UInt8, initiatorData: [UInt8])?
    private var lastResponse: [UInt8]?
    /// Every DESFire card ever placed, by UID: its applications and keys stay with it when it
    /// leaves the field and comes back, as on a real card.
    public private(set) var desfireCards: [[UInt8]: SimulatedDESFire] = [:]

    /// PN532 v1.6, supporting ISO 14443 A and B and ISO 18092 (what a real C106 reports).
    static let firmwareVersion: [UInt8] = [0x32, 0x01, 0x06, 0x07]
    static let autoRATS: UInt8 = 0x10

    public init() {}

    public var decoderStatistics: PN532FrameDecoder.Statistics { decoder.statistics }
    /// Whether an InListPassiveTarget waits for a card.
    public var isWaitingForCard: Bool { pendingList != nil }

    // MARK: The field

    /// Puts `card` in the field (replacing any other): a waiting InListPassiveTarget finds it.
    public mutating func place(_ card: SimulatedCard) -> [Transmission] {
        self.card = card
        if card.kind == .desfire {
            var desfire = desfireCards[card.uid] ?? SimulatedDESFire(uid: card.uid)
            if let piccKey = card.piccKey { desfire.piccKey = .init(cipher: .des, bytes: piccKey) }
            desfire.reset()
            desfireCards[card.uid] = desfire
        }
        selectedTarget = nil
        guard let pending = pendingList, fieldOn, !asleep else { return [] }
        guard let data = listResponse(maximum: pending.maximum, modulation: pending.modulation, initiatorData: pending.initiatorData, waiting: false) else {
            return []
        }
        pendingList = nil
        return respond(data, cardAnswer: true, delay: responseDelay)
    }

    /// Takes the card out of the field; a selected target is gone with it.
    public mutating func remove() {
        card = nil
        selectedTarget = nil
    }

    // MARK: The host interface

    /// Bytes from the host; returns what the PN532 sends back.
    public mutating func receive(_ bytes: [UInt8]) -> [Transmission] {
        var input = bytes[...]
        if asleep {
            // The HSU wakes on any byte of the preamble; the bytes before the first 55 are lost.
            guard let wake = input.firstIndex(of: 0x55) else { return [] }
            asleep = false
            input = input[(wake + 1)...]
        }
        decoder.feed(input)
        var out: [Transmission] = []
        while !asleep, let frame = decoder.nextFrame() {
            out += handle(frame)
        }
        return out
    }

    private mutating func handle(_ frame: PN532Frame) -> [Transmission] {
        if fault == .silent { return [] }
        if fault == .exchangeSilent, case let .information(.hostToPN532, data) = frame, data.first == PN532Command.inDataExchange.rawValue {
            return []
        }
        switch frame {
        case .ack:
            // The host aborts the running command.
            pendingList = nil
            return []
        case .nack:
            return lastResponse.map { [Transmission(delay: .zero, bytes: $0)] } ?? []
        case .applicationError, .information(.pn532ToHost, _):
            return []
        case let .information(.hostToPN532, data):
            // A new command cancels one still waiting for a card.
            pendingList = nil
            commandsHandled += 1
            let ack = Transmission(delay: .zero, bytes: PN532Frame.ack.bytes)
            return [ack] + execute(data)
        }
    }

    /// The response to one command (after its ACK), or the error frame for a syntax error.
    private mutating func execute(_ data: [UInt8]) -> [Transmission] {
        guard let code = data.first, let command = PN532Command(rawValue: code) else { return syntaxError() }
        let parameters = Array(data.dropFirst())
        switch command {
        case .diagnose:
            return diagnose(parameters)
        case .getFirmwareVersion:
            return parameters.isEmpty ? respond([command.responseCode] + Self.firmwareVersion) : syntaxError()
        case .getGeneralStatus:
            guard parameters.isEmpty else { return syntaxError() }
            var status: [UInt8] = [command.responseCode, 0x00, fieldOn ? 0x01 : 0x00, selectedTarget == nil ? 0 : 1]
            // Tg, BrRx, BrTx, type (106 kbps type A); then the SAM status.
            if let target = selectedTarget { status += [target, 0x00, 0x00, 0x00] }
            return respond(status + [0x00])
        case .readRegister:
            guard !parameters.isEmpty, parameters.count % 2 == 0 else { return syntaxError() }
            let values = stride(from: 0, to: parameters.count, by: 2).map { registers[UInt16(parameters[$0]) << 8 | UInt16(parameters[$0 + 1])] }
            return respond([command.responseCode] + values)
        case .writeRegister:
            guard !parameters.isEmpty, parameters.count % 3 == 0 else { return syntaxError() }
            for offset in stride(from: 0, to: parameters.count, by: 3) {
                registers[UInt16(parameters[offset]) << 8 | UInt16(parameters[offset + 1])] = parameters[offset + 2]
            }
            return respond([command.responseCode])
        case .setParameters:
            guard parameters.count == 1 else { return syntaxError() }
            self.parameters = parameters[0]
            return respond([command.responseCode])
        case .samConfiguration:
            guard (1...3).contains(parameters.count), (0x01...0x04).contains(parameters[0]) else { return syntaxError() }
            return respond([command.responseCode])
        case .powerDown:
            guard (1...2).contains(parameters.count) else { return syntaxError() }
            let reply = respond([command.responseCode, PN532Status.success.rawValue])
            // Asleep once the response is out: the next bytes must wake it again.
            asleep = true
            decoder.reset()
            fieldOn = false
            selectedTarget = nil
            return reply
        case .rfConfiguration:
            return rfConfiguration(parameters)
        case .inListPassiveTarget:
            guard parameters.count >= 2, (1...2).contains(parameters[0]) else { return syntaxError() }
            guard let response = listResponse(maximum: parameters[0], modulation: parameters[1],
                                              initiatorData: Array(parameters.dropFirst(2)), waiting: passiveActivationRetries == 0xFF) else {
                // No card and infinite retries: the response waits for a card (or the host's abort).
                pendingList = (parameters[0], parameters[1], Array(parameters.dropFirst(2)))
                return []
            }
            return respond(response, cardAnswer: response[1] > 0)
        case .inDeselect, .inRelease:
            guard parameters.count == 1 else { return syntaxError() }
            let target = parameters[0]
            if target != 0 && target != selectedTarget {
                return respond([command.responseCode, PN532Status.notAcceptable.rawValue])
            }
            selectedTarget = nil
            return respond([command.responseCode, PN532Status.success.rawValue])
        case .inSelect:
            guard parameters.count == 1 else { return syntaxError() }
            return respond([command.responseCode, PN532Status.notAcceptable.rawValue])
        case .inDataExchange:
            guard !parameters.isEmpty else { return syntaxError() }
            guard let target = selectedTarget, parameters[0] == target else {
                return respond([command.responseCode, PN532Status.notAcceptable.rawValue])
            }
            // A DESFire card answers its commands; other cards' applications are not modelled,
            // so they do not answer in time.
            guard let card, card.kind == .desfire, var desfire = desfireCards[card.uid] else {
                return respond([command.responseCode, PN532Status.timeout.rawValue], cardAnswer: true)
            }
            let answer = desfire.exchange(Array(parameters.dropFirst()))
            desfireCards[card.uid] = desfire
            return respond([command.responseCode, PN532Status.success.rawValue] + answer, cardAnswer: true, exchange: true)
        case .inCommunicateThru:
            // Raw frames to no modelled card (or none, as libnfc's barcode listening sends):
            // nothing answers.
            return respond([command.responseCode, PN532Status.timeout.rawValue], cardAnswer: true)
        case .inAutoPoll:
            return syntaxError()
        }
    }

    private mutating func diagnose(_ parameters: [UInt8]) -> [Transmission] {
        guard let test = parameters.first else { return syntaxError() }
        switch test {
        case 0x00:
            // Communication line test: the data comes back as sent.
            return respond([PN532Command.diagnose.responseCode] + parameters)
        case 0x06:
            // Card presence: does the selected ISO 14443-4 target still answer?
            let present = selectedTarget != nil && card != nil
            return respond([PN532Command.diagnose.responseCode, present ? 0x00 : PN532Status.timeout.rawValue], cardAnswer: true)
        default:
            return syntaxError()
        }
    }

    private mutating func rfConfiguration(_ parameters: [UInt8]) -> [Transmission] {
        guard let first = parameters.first, let item = PN532RFConfigurationItem(rawValue: first) else { return syntaxError() }
        let values = Array(parameters.dropFirst())
        let expectedCount: Int
        switch item {
        case .field: expectedCount = 1
        case .timings: expectedCount = 3
        case .maxRetriesCommunication: expectedCount = 1
        case .maxRetries: expectedCount = 3
        case .analog106A: expectedCount = 11
        case .analog212424: expectedCount = 3
        case .analogB: expectedCount = 3
        case .analog212424848: expectedCount = 9
        }
        guard values.count == expectedCount else { return syntaxError() }
        switch item {
        case .field:
            fieldOn = values[0] & 0x01 != 0
            if !fieldOn { selectedTarget = nil }
        case .maxRetries:
            passiveActivationRetries = values[2]
        default:
            break
        }
        return respond([PN532Command.rfConfiguration.responseCode])
    }

    /// InListPassiveTarget's response data, or nil when it must wait (no card, `waiting`).
    private mutating func listResponse(maximum: UInt8, modulation: UInt8, initiatorData: [UInt8], waiting: Bool) -> [UInt8]? {
        let code = PN532Command.inListPassiveTarget.responseCode
        // Only type A cards are modelled: other modulations find nothing.
        guard modulation == PN532Modulation.iso14443A106.rawValue, fieldOn, let card,
              initiatorData.isEmpty || initiatorData == card.cascadedUID else {
            return waiting ? nil : [code, 0x00]
        }
        selectedTarget = 1
        // Selection starts the card afresh: no application selected, no session.
        if card.kind == .desfire { desfireCards[card.uid]?.reset() }
        return [code, 0x01] + card.targetData(number: 1, withATS: parameters & Self.autoRATS != 0)
    }

    /// ACK is already out; the response frame follows after the firmware's time. A card's
    /// answer is scrambled under the garbage fault.
    private mutating func respond(_ data: [UInt8], cardAnswer: Bool = false, exchange: Bool = false, delay: Duration? = nil) -> [Transmission] {
        var bytes = PN532Frame.information(.pn532ToHost, data).bytes
        if cardAnswer && (fault == .garbage || (exchange && fault == .exchangeGarbage)) { bytes = Self.scrambled(bytes) }
        lastResponse = bytes
        return [Transmission(delay: delay ?? responseDelay, bytes: bytes)]
    }

    private mutating func syntaxError() -> [Transmission] {
        lastResponse = PN532Frame.applicationError.bytes
        return [Transmission(delay: responseDelay, bytes: PN532Frame.applicationError.bytes)]
    }

    /// The frame with its data after the response code flipped and a DCS that cannot match:
    /// header and length intact, so a host reads it whole and rejects it by its checksum.
    static func scrambled(_ frame: [UInt8]) -> [UInt8] {
        // 00 00 FF LEN LCS TFI CODE data… DCS 00 (normal frames: the responses here are short).
        var bytes = frame
        let dataStart = 7, dcsIndex = bytes.count - 2
        guard dcsIndex > dataStart else { return bytes }
        for index in dataStart..<dcsIndex { bytes[index] ^= 0x5A }
        let sum = bytes[5..<dcsIndex].reduce(0, &+)
        bytes[dcsIndex] = PN532Frame.checksum(sum) &+ 1
        return bytes
    }
}
