import FleetTrust
import Testing
import TestSupport
@testable import HubStore

/// Issue 28: a join whose answer was lost. The code redeems again, for the key it was redeemed
/// with only, until the door used its certificate, the code expired or the door was revoked; on
/// a real PostgreSQL started for each test (`TemporaryPostgres`).
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct JoinAgainTests {
    let server: TemporaryPostgres
    let store: HubStore
    let authority: FleetAuthority

    init() throws {
        server = try TemporaryPostgres()
        let database = try server.newDatabase("hub")
        try HubStore.migrate(conninfo: database)
        store = try HubStore(conninfo: database)
        authority = try FleetAuthority.make(name: "test fleet")
    }

    /// A door's request and its key's SHA-256, as the hub reads it.
    static func request(reusing privateKeyPEM: String? = nil) throws -> (request: DoorRequest, keySHA256: String) {
        let request = try DoorRequest.make(privateKeyPEM: privateKeyPEM)
        return (request, try FleetAuthority.requestKeySHA256(requestPEM: request.requestPEM))
    }

    /// Redeems `code` as the hub's join does for a new door: the certificate it issued.
    func redeem(_ code: String, _ asked: (request: DoorRequest, keySHA256: String)) throws -> IssuedCertificate {
        let redemption = try store.redemption(joinCode: code, keySHA256: asked.keySHA256)
        guard case .new(let door)? = redemption else { throw NotNew(redemption: redemption) }
        let issued = try authority.issueDoorCertificate(requestPEM: asked.request.requestPEM, doorName: door.name)
        let completed = try store.completeJoin(code: code, keySHA256: asked.keySHA256, certificate: issued)
        #expect(completed)
        return issued
    }

    struct NotNew: Error { var redemption: JoinRedemption? }

    @Test func theSameKeyIsGivenTheSameCertificateAgainAndAnotherKeyNothing() throws {
        let code = try store.joinCode(forDoor: "garage")
        let first = try Self.request()
        let issued = try redeem(code, first)

        // The door lost the answer and asks again with the key it kept: a new request, the same key.
        let again = try Self.request(reusing: first.request.privateKeyPEM)
        #expect(again.keySHA256 == first.keySHA256 && again.request.requestPEM != first.request.requestPEM)
        let redemption = try store.redemption(joinCode: code, keySHA256: again.keySHA256)
        guard case let .again(door, certificatePEM)? = redemption else {
            Issue.record("not redeemed again: \(String(describing: redemption))")
            return
        }
        #expect(door.name == "garage" && door.joined && certificatePEM == issued.certificatePEM)
        // Only one certificate is the door's: a second completion finds the code taken.
        let second = try authority.issueDoorCertificate(requestPEM: again.request.requestPEM, doorName: "garage")
        let completedTwice = try store.completeJoin(code: code, keySHA256: again.keySHA256, certificate: second)
        #expect(!completedTwice)
        #expect(try store.door(certificateSHA256: issued.sha256Fingerprint)?.name == "garage")
        #expect(try store.door(certificateSHA256: second.sha256Fingerprint) == nil)

        // Another machine with the code (another key) gets nothing, nor does the code typed otherwise.
        let stranger = try Self.request()
        #expect(try store.redemption(joinCode: code, keySHA256: stranger.keySHA256) == nil)
        #expect(try store.redemption(joinCode: code.lowercased(), keySHA256: first.keySHA256) == nil)
    }

    @Test func onceTheDoorUsedItsCertificateTheCodeIsSpentEvenForItsKey() throws {
        let code = try store.joinCode(forDoor: "garage")
        let first = try Self.request()
        let issued = try redeem(code, first)
        let found = try store.door(certificateSHA256: issued.sha256Fingerprint)
        let door = try #require(found)
        let spentNow = try store.noteDoorSeen(id: door.id, revision: 0)
        #expect(spentNow, "the first request with the certificate spends the code")
        let spentAgain = try store.noteDoorSeen(id: door.id, revision: 0)
        #expect(!spentAgain)
        #expect(try store.redemption(joinCode: code, keySHA256: first.keySHA256) == nil)
        // Nothing of the join is kept once it is spent.
        let kept = try server.psql("hub", "SELECT count(*) FROM doors WHERE join_code_sha256 IS NOT NULL OR join_certificate IS NOT NULL")
        #expect(kept == "0")
    }

    @Test func aRevokedDoorNeverRedeemsItsCodeAgain() throws {
        let code = try store.joinCode(forDoor: "garage")
        let first = try Self.request()
        _ = try redeem(code, first)
        let revoked = try store.revokeDoor(named: "garage")
        #expect(revoked)
        #expect(try store.redemption(joinCode: code, keySHA256: first.keySHA256) == nil)
        // Nor does a code made before the revocation that was never used.
        let unused = try store.joinCode(forDoor: "porch")
        #expect(try store.revokeDoor(named: "porch"))
        let porch = try Self.request()
        #expect(try store.redemption(joinCode: unused, keySHA256: porch.keySHA256) == nil)
    }

    @Test func anExpiredCodeIsNotRedeemedAgain() throws {
        let code = try store.joinCode(forDoor: "garage")
        let first = try Self.request()
        _ = try redeem(code, first)
        // 24 hours from its making, as if they had passed.
        _ = try server.psql("hub", "UPDATE doors SET join_expires = now() - interval '1 second' WHERE name = 'garage'")
        #expect(try store.redemption(joinCode: code, keySHA256: first.keySHA256) == nil)
    }
}
