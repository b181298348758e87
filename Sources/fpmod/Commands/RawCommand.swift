import ArgumentParsing
import FingerprintModule
import FingerprintProtocol
import ReaderSessions

/// `fpmod raw INSTRUCTION [HEX…]`: one instruction, the reply printed as the protocol writes it.
enum RawCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        let name = try parsed.require("instruction")
        guard let instruction = Instruction(named: name) else {
            throw CommandFailure(.usage, "Unknown instruction '\(name)'. Give a name such as GenImg, ReadSysPara, TempleteNum, or a code such as 0x1d.")
        }
        var parameters: [UInt8] = []
        for word in parsed.strings("parameters") {
            var hex = word.lowercased().hasPrefix("0x") ? String(word.dropFirst(2)) : word
            if hex.count % 2 == 1 { hex = "0" + hex }
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                guard let byte = UInt8(hex[index..<next], radix: 16) else {
                    throw CommandFailure(.usage, "Parameter '\(word)' is not hex bytes (e.g. 01 or 0003E8).")
                }
                parameters.append(byte)
                index = next
            }
        }
        guard parameters.count < Frame.maximumContentSize else {
            throw CommandFailure(.usage, "At most \(Frame.maximumContentSize - 1) parameter bytes fit in one frame.")
        }
        let session = try ModuleSession.openVerified(try invocation.readerOptions())
        defer { session.close() }
        let command = Command(instruction, parameters)
        let frame = command.frame(address: session.module.address)
        let ack = try session.module.exchange(command)
        let family = session.module.family ?? .r30x
        let reply = ack.frame(address: session.module.address)
        invocation.emit("""
            sent:     \(frame.encoded().hexString)   (\(instruction.name(in: family)))
            received: \(reply.encoded().hexString)
            code:     \(ack.code.describe(in: family))
            payload:  \(ack.payload.isEmpty ? "—" : ack.payload.hexString)
            """,
            json: ["instruction": .string(instruction.name(in: family)),
                   "sent": .string(frame.encoded().hexString), "received": .string(reply.encoded().hexString),
                   "code": .int(Int64(ack.code.rawValue)), "meaning": JSONValue(ack.code.meaning(in: family)),
                   "payload": .string(ack.payload.hexString)])
        return ack.isSuccess || ack.code == .echoAlive ? .ok : .denied
    }
}
