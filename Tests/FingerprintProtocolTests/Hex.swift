/// Test helper: "EF 01 FF" → bytes.
func hex(_ text: String) -> [UInt8] {
    text.split(separator: " ").map { UInt8($0, radix: 16)! }
}
