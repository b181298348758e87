/// A door's one-time join code, as the hub makes it and a door checks it before sending it:
/// 20 letters in groups of five ("K7QPM-…", about 99 bits), from an alphabet without 0/O and
/// 1/I/L so that a code read aloud or typed survives.
public enum JoinCode {
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")

    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] }
        return stride(from: 0, to: 20, by: 5).map { String(letters[$0..<$0 + 5]) }.joined(separator: "-")
    }

    /// The code as the hub keeps it, from what a person typed (lower case, spaces or no dashes
    /// forgiven); nil when it cannot be a join code at all.
    public static func normalized(_ typed: String) -> String? {
        let letters = typed.uppercased().filter { $0 != "-" && $0 != " " }
        guard letters.count == 20, letters.allSatisfy(alphabet.contains) else { return nil }
        let characters = Array(letters)
        return stride(from: 0, to: 20, by: 5).map { String(characters[$0..<$0 + 5]) }.joined(separator: "-")
    }

    public static func isWellFormed(_ code: String) -> Bool {
        code.count == 23 && normalized(code) == code
    }

    /// 16 hex digits of the (normalized) code's SHA-256: names what a door keeps for a join with
    /// this code without writing the code itself down.
    public static func tag(_ code: String) throws(FleetTrustError) -> String {
        String(try X509.sha256(Array(code.utf8)).prefix(16))
    }
}
