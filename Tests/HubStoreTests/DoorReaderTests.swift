@testable import HubStore
import Testing

/// Which doors can use a finger, and why the others cannot: the door's reader as it said it at
/// its last sync against the finger's family and template size. Pure.
@Suite struct DoorReaderTests {
    static func door(_ family: String?, _ size: Int? = nil) -> HubDoor {
        HubDoor(id: 1, name: "door", joined: true, revoked: false, lastRevision: 0, lastSeen: nil, readerFamily: family, templateSize: size)
    }

    static let host = HubFinger(user: "alice", label: "right-index", family: HubFinger.hostFamily, templateSize: 4_000, sealedTemplate: [], quality: 60)
    static let module = HubFinger(user: "alice", label: "right-index", family: "r30x", templateSize: 768, sealedTemplate: [], quality: 60)

    @Test func aFingerIsUsableWhereTheReaderTakesItsFamilyAndSize() {
        #expect(Self.door("host").cannotUse(Self.host) == nil)
        #expect(Self.door("r30x", 768).cannotUse(Self.module) == nil)
        #expect(Self.door("r30x", 512).cannotUse(Self.module) == "its reader is a r30x module (512-byte templates)")
        #expect(Self.door("as608", 768).cannotUse(Self.module) == "its reader is a as608 module (768-byte templates)")
        #expect(Self.door("host").cannotUse(Self.module) == "its reader is an image sensor (host templates)")
        #expect(Self.door("r30x", 768).cannotUse(Self.host) == "its reader is a r30x module (768-byte templates)")
        #expect(Self.door(nil).cannotUse(Self.host)?.contains("not known yet") == true)
    }
}
