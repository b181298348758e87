import DESFire

/// fpmod's application on a MIFARE DESFire EV1 card, and how its key is made for each card.
///
/// The card proves it holds the key by EV1 AES mutual authentication; the key is diversified
/// per card (NXP AN10922 from the store's DESFire master key, the card's UID, the AID and
/// `systemIdentifier`), so a key extracted from one card opens nothing but that card, and the
/// master key never leaves the door.
public struct DESFireApplication: Equatable, Sendable {
    /// The application's ID. F in the first nibble puts it outside the range mapped to MIFARE
    /// application directory IDs (NXP AN10787), which is the range left to proprietary
    /// applications without registering with NXP; 4D is "M" (module), 01 the version of this
    /// layout (one AES key, no files).
    public let aid: UInt32
    /// AN10922's system identifier: binds the keys to fpmod, not only to the master key.
    public let systemIdentifier: [UInt8]

    public static let fpmod = DESFireApplication(aid: 0xF5_4D_01, systemIdentifier: Array("fpmod".utf8))

    /// The application's key settings: the master key (its only key) can be changed with
    /// itself; no free listing, no free create/delete; the settings can be changed.
    static let keySettings: UInt8 = 0x09
    /// Key 0 after ChangeKey carries this version: a card keyed by fpmod says so.
    static let keyVersion: UInt8 = 0x01

    public init(aid: UInt32, systemIdentifier: [UInt8]) {
        self.aid = aid
        self.systemIdentifier = systemIdentifier
    }

    /// The card's AES-128 key for this application. `masterKey` is 16 bytes.
    public func cardKey(masterKey: [UInt8], uid: [UInt8]) throws(CryptoError) -> [UInt8] {
        try KeyDiversification.aes128(masterKey: masterKey,
                                      input: KeyDiversification.input(uid: uid, aid: aid, systemIdentifier: systemIdentifier))
    }
}

/// What the card on the reader turned out to be, for fpmod's secure mode.
public enum SecureCardRead: Equatable, Sendable {
    /// Not a DESFire card libfreefare knows (a Classic, an Ultralight, a phone …): its UID alone
    /// proves nothing.
    case plain(NFCCard)
    /// A DESFire card that proved it holds this store's key for it: its UID is authentic.
    case authenticated(NFCCard)
    /// A DESFire card that did not.
    case rejected(NFCCard, DESFireRejection)
}

public enum DESFireRejection: Equatable, Sendable, CustomStringConvertible {
    /// The card has no fpmod application (never enrolled, or formatted since).
    case noApplication
    /// The application is there but the card does not prove the key this store expects (a
    /// card enrolled by another store, a copy, or an emulator without the key).
    case wrongKey

    public var description: String {
        switch self {
        case .noApplication: "the card has no fpmod application (enroll it with fpmod card enroll)"
        case .wrongKey: "the card failed fpmod's AES authentication: it does not hold this store's key"
        }
    }
}

/// What `fpmod card enroll` did to a card.
public enum DESFireProvisioning: Equatable, Sendable {
    /// fpmod's application was created, its key changed to the card's key, and confirmed.
    case created(NFCCard)
    /// The application was there already with this store's key for the card (an enroll
    /// interrupted before the store committed, or a card deleted from the store): confirmed.
    case alreadyKeyed(NFCCard)
    /// Refused: the card's PICC master key is not the factory key, so fpmod cannot create its
    /// application (and does not format the card).
    case piccKeyNotDefault(NFCCard)
    /// Refused: the application exists but with another key (another fpmod store's card).
    case keyedElsewhere(NFCCard)
    /// Not a DESFire card.
    case notDESFire(NFCCard)
}
