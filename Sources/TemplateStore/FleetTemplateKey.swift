/// The fleet's template key: every finger travels between doors and rests at the hub sealed
/// under it (XChaCha20-Poly1305), never in the clear. The hub makes it once (its directory,
/// mode 0600, beside the authority's key) and hands it to a door over mutual TLS; a door keeps
/// it sealed under its own store key. The hub's database alone gives no template.
///
/// A sealed template is bound to whose finger it is (user, label, family as associated data):
/// a box moved to another user's row does not open.
public struct FleetTemplateKey: Sendable, Equatable {
    public let bytes: [UInt8]

    public static let byteCount = Crypto.keyBytes

    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// 64 hex digits, as the hub keeps it in its file and sends it.
    public init?(hex: String) {
        guard let bytes = HexText.bytes(hex), bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// A new random key (`randombytes_buf`).
    public static func generate() -> FleetTemplateKey {
        FleetTemplateKey(uncheckedBytes: Crypto.randomBytes(byteCount))
    }

    private init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }

    public var hex: String { HexText.text(bytes) }

    public func seal(_ template: [UInt8], user: String, label: String, family: String) -> [UInt8] {
        Crypto.seal(template, associatedData: Self.binding(user: user, label: label, family: family), key: bytes)
    }

    /// The template, or nil when the box was not sealed under this key for this finger.
    public func open(_ sealed: [UInt8], user: String, label: String, family: String) -> [UInt8]? {
        Crypto.open(sealed, associatedData: Self.binding(user: user, label: label, family: family), key: bytes)
    }

    /// The key of the fleet's cards' keyed hashes (what a store keeps of a card instead of its
    /// number), derived from this key with a context of its own: the hub and every door hash a
    /// card alike, and a door that had no card before it followed a hub takes it as its own.
    public var cardHashKey: [UInt8] { Crypto.derivedKey(bytes, context: "fpmodfck", id: 1) }

    /// A card's keyed hash under the fleet's card key: what the hub keeps and sends, never the number.
    public func cardHash(_ number: CardNumber) -> [UInt8] { TemplateStore.cardHash(number, key: cardHashKey) }

    private static func binding(user: String, label: String, family: String) -> [UInt8] {
        Array("fpmod fleet finger\u{0}\(user)\u{0}\(label)\u{0}\(family)".utf8)
    }
}
