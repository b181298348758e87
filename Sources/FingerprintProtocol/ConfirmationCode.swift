/// The first content byte of every acknowledgement (protocol.md §3). Values 00–1A mean the
/// same everywhere; above that the families diverge, so the meaning is looked up through the
/// family, and unknown codes are kept raw — never collapsed into a generic failure.
public struct ConfirmationCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = ConfirmationCode(rawValue: 0x00)
    public static let packetError = ConfirmationCode(rawValue: 0x01)
    public static let noFinger = ConfirmationCode(rawValue: 0x02)
    public static let imageFailed = ConfirmationCode(rawValue: 0x03)
    public static let imageTooDry = ConfirmationCode(rawValue: 0x04)
    public static let imageTooWet = ConfirmationCode(rawValue: 0x05)
    public static let imageMessy = ConfirmationCode(rawValue: 0x06)
    public static let featureFail = ConfirmationCode(rawValue: 0x07)
    public static let noMatch = ConfirmationCode(rawValue: 0x08)
    public static let notFound = ConfirmationCode(rawValue: 0x09)
    public static let enrollMismatch = ConfirmationCode(rawValue: 0x0A)
    public static let badLocation = ConfirmationCode(rawValue: 0x0B)
    public static let databaseReadFail = ConfirmationCode(rawValue: 0x0C)
    public static let uploadFeatureFail = ConfirmationCode(rawValue: 0x0D)
    public static let cannotReceivePackets = ConfirmationCode(rawValue: 0x0E)
    public static let uploadImageFail = ConfirmationCode(rawValue: 0x0F)
    public static let deleteFail = ConfirmationCode(rawValue: 0x10)
    public static let databaseClearFail = ConfirmationCode(rawValue: 0x11)
    public static let wrongPassword = ConfirmationCode(rawValue: 0x13)
    public static let invalidImage = ConfirmationCode(rawValue: 0x15)
    public static let residualFingerprint = ConfirmationCode(rawValue: 0x17)
    public static let flashError = ConfirmationCode(rawValue: 0x18)
    public static let invalidRegister = ConfirmationCode(rawValue: 0x1A)
    public static let badRegisterValue = ConfirmationCode(rawValue: 0x1B)
    public static let libraryFull = ConfirmationCode(rawValue: 0x1F)
    public static let addressError = ConfirmationCode(rawValue: 0x20)
    public static let passwordRequired = ConfirmationCode(rawValue: 0x21)
    /// AS608/ZFM-60/70 reply to GetEcho: "alive".
    public static let echoAlive = ConfirmationCode(rawValue: 0x55)
    /// Grow R50x: unsupported command.
    public static let unsupported = ConfirmationCode(rawValue: 0xFC)

    private static let commonMeanings: [UInt8: String] = [
        0x00: "success",
        0x01: "error receiving the command packet (or not allowed)",
        0x02: "no finger on the sensor",
        0x03: "image capture failed",
        0x06: "image too disordered to extract features",
        0x07: "too few features (poor image or partial finger)",
        0x08: "fingers do not match",
        0x09: "no matching template found",
        0x0A: "templates could not be merged (not the same finger)",
        0x0B: "page ID outside the library",
        0x0C: "template read error or empty slot",
        0x0D: "upload of features failed",
        0x0E: "module cannot receive the following data packets",
        0x0F: "upload of image failed",
        0x10: "delete failed",
        0x11: "clearing the library failed",
        0x13: "wrong password",
        0x15: "no valid image in the buffer",
        0x18: "flash read/write error",
        0x1A: "invalid register number",
    ]

    /// The meaning of this code as sent by a module of `family`, or nil when nobody documents it.
    public func meaning(in family: ModuleFamily) -> String? {
        if let common = ConfirmationCode.commonMeanings[rawValue] { return common }
        return family.profile.confirmationMeanings[rawValue]
    }

    /// `0x13 (wrong password)` or `0x80 (undocumented)`.
    public func describe(in family: ModuleFamily) -> String {
        "0x" + [rawValue].hexString + " (" + (meaning(in: family) ?? "undocumented") + ")"
    }

    public var description: String { "0x" + [rawValue].hexString }
}
