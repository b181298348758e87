import TemplateStore
import Wiegand

extension CardNumber {
    /// The frame a panel is sent for this card (Wiegand out); nil for an NFC UID.
    public var wiegandCredential: WiegandCredential? {
        guard kind == .wiegand else { return nil }
        let parts = typed.split(separator: ":")
        guard parts.count == 3, let bits = Int(parts[0]), let format = WiegandFormat(bitCount: bits),
              let facility = UInt32(parts[1]), let number = UInt32(parts[2]) else { return nil }
        return try? WiegandCredential(format: format, facility: facility, number: number)
    }
}
