import AccessPolicy
import FleetTrust
import Glibc
import TemplateStore

/// A door as the hub knows it.
public struct HubDoor: Sendable, Equatable {
    public var id: Int64
    public var name: String
    /// Whether the door has redeemed its join code (it has a certificate).
    public var joined: Bool
    public var revoked: Bool
    /// The hub revision the door last pulled up to.
    public var lastRevision: Int64
    /// Seconds since 1970 of its last request; nil: never.
    public var lastSeen: Double?
    /// The family of fingers its reader takes, as the door last said (`HubFinger.hostFamily`
    /// for an image sensor, a module's family), and a module's template size; nil: not said yet.
    public var readerFamily: String? = nil
    public var templateSize: Int? = nil

    /// "an image sensor (host templates)", "a r30x module (512-byte templates)"; nil: not said yet.
    public var readerDescription: String? {
        guard let readerFamily else { return nil }
        return readerFamily == HubFinger.hostFamily ? "an image sensor (host templates)"
            : "a \(readerFamily) module" + (templateSize.map { " (\($0)-byte templates)" } ?? "")
    }

    /// Why this door's reader cannot use `finger`; nil when it can.
    public func cannotUse(_ finger: HubFinger) -> String? {
        guard let readerFamily, let reader = readerDescription else { return "its reader is not known yet (no sync since its reader was first opened)" }
        if finger.family != readerFamily { return "its reader is \(reader)" }
        if finger.family != HubFinger.hostFamily, let templateSize, templateSize != finger.templateSize { return "its reader is \(reader)" }
        return nil
    }
}

/// What a join code redeems (`HubStore.redemption(joinCode:keySHA256:)`).
public enum JoinRedemption: Sendable, Equatable {
    /// The code is unused: a certificate is to be issued for the door.
    case new(HubDoor)
    /// The code was redeemed with this same key and the door never used the certificate: the
    /// same certificate again, as the first answer may have been lost.
    case again(HubDoor, certificatePEM: String)
}

extension HubStore {
    /// How long a join code is good for.
    public static let joinCodeLifetimeHours = 24

    /// A new one-time join code for the door `name` (added when new; a door that joined already
    /// must be revoked first: a second code for a working door would let a second machine be it).
    /// The code is shown once; the hub keeps only its SHA-256.
    public func joinCode(forDoor name: String) throws(HubStoreError) -> String {
        try HubUser.checked { () throws(NameError) in _ = try RuleName(validating: name) }
        let code = JoinCode.make()
        return try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> String in
                let existing = try connection.execute("SELECT certificate_sha256 IS NOT NULL, revoked_at IS NOT NULL FROM doors WHERE name = $1 FOR UPDATE", [name])
                if let row = existing.first, row[0] == "t", row[1] == "f" {
                    throw .invalid("door \(name.debugDescription) has joined already; revoke it first to join another machine as it")
                }
                if let row = existing.first, row[1] == "t" {
                    throw .invalid("door \(name.debugDescription) is revoked; add the machine under a new name")
                }
                try connection.execute("""
                    INSERT INTO doors (name, join_code_sha256, join_expires) VALUES ($1, encode(sha256(convert_to($2, 'UTF8')), 'hex'),
                        now() + make_interval(hours => $3::int))
                    ON CONFLICT (name) DO UPDATE SET join_code_sha256 = EXCLUDED.join_code_sha256, join_expires = EXCLUDED.join_expires
                    """, [name, code, String(Self.joinCodeLifetimeHours)])
                return code
            }
        }
    }

    /// What a join code with a request for the key `keySHA256` (`FleetAuthority.requestKeySHA256`)
    /// redeems while the code is valid: a new certificate for the door, or the certificate the
    /// code was redeemed for with that same key when the door has not used it yet (the answer to
    /// its first join was lost). Nil for an unknown, expired or revoked door's code, one redeemed
    /// with another key, or one whose certificate the door has used.
    public func redemption(joinCode code: String, keySHA256: String) throws(HubStoreError) -> JoinRedemption? {
        guard JoinCode.isWellFormed(code) else { return nil }
        return try locked { connection throws(HubStoreError) in
            let rows = try connection.execute("""
                SELECT id, certificate_sha256 IS NULL, join_certificate FROM doors
                WHERE join_code_sha256 = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND join_expires > now() AND revoked_at IS NULL
                    AND (certificate_sha256 IS NULL OR join_key_sha256 = $2 AND join_certificate IS NOT NULL)
                """, [code, keySHA256])
            guard let row = rows.first else { return nil }
            guard row.count == 3, let id = row[0] else { throw .unexpectedReply("a join row") }
            guard let door = try Self.doors(connection, where: "id = $1", [id]).first else { return nil }
            if row[1] == "t" { return .new(door) }
            guard let certificatePEM = row[2] else { throw .unexpectedReply("a join row") }
            return .again(door, certificatePEM: certificatePEM)
        }
    }

    /// Redeems the code for the certificate the hub issued for the key `keySHA256`: true when
    /// this call took it (of two doors racing with one code, one wins), false when it was
    /// redeemed already, expired or never was. The code stays, for the same key only, until the
    /// door uses the certificate (`noteDoorSeen`) or the code expires.
    public func completeJoin(code: String, keySHA256: String, certificate: IssuedCertificate) throws(HubStoreError) -> Bool {
        guard JoinCode.isWellFormed(code) else { return false }
        return try locked { connection throws(HubStoreError) in
            !(try connection.execute("""
                UPDATE doors SET certificate_sha256 = $2, certificate_serial = $3, join_key_sha256 = $4, join_certificate = $5, last_seen = now()
                WHERE join_code_sha256 = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND join_expires > now() AND revoked_at IS NULL
                    AND certificate_sha256 IS NULL
                RETURNING id
                """, [code, certificate.sha256Fingerprint, certificate.serial, keySHA256, certificate.certificatePEM])).isEmpty
        }
    }

    /// The door a client certificate belongs to (by its SHA-256), revoked or not; nil: none.
    public func door(certificateSHA256: String) throws(HubStoreError) -> HubDoor? {
        try locked { connection throws(HubStoreError) in
            try Self.doors(connection, where: "certificate_sha256 = $1", [certificateSHA256]).first
        }
    }

    /// Notes a door's request with its certificate: when, and the revision it has pulled up to.
    /// The door had its join's answer, so its code is spent for good: not even its own key
    /// redeems it again. True when this request spent it (the door's first with its certificate).
    @discardableResult
    public func noteDoorSeen(id: Int64, revision: Int64?) throws(HubStoreError) -> Bool {
        try locked { connection throws(HubStoreError) in
            let rows = try connection.execute("""
                WITH before AS (SELECT id, join_code_sha256 IS NOT NULL AS pending FROM doors WHERE id = $1 FOR UPDATE)
                UPDATE doors SET last_seen = now(), last_revision = greatest(last_revision, coalesce($2::bigint, 0)),
                    join_code_sha256 = NULL, join_expires = NULL, join_key_sha256 = NULL, join_certificate = NULL
                FROM before WHERE doors.id = before.id
                RETURNING before.pending
                """, [String(id), revision.map(String.init)])
            return rows.first?.first == "t"
        }
    }

    /// Records the reader a door says it has (`reader` of `GET /v1/changes`), when it changed.
    public func noteDoorReader(id: Int64, family: String?, templateSize: Int?) throws(HubStoreError) {
        try locked { connection throws(HubStoreError) in
            _ = try connection.execute("""
                UPDATE doors SET module_family = $2, template_size = $3::integer
                WHERE id = $1 AND (module_family IS DISTINCT FROM $2 OR template_size IS DISTINCT FROM $3::integer)
                """, [String(id), family, templateSize.map(String.init)])
        }
    }

    /// Every door, by name.
    public func doors() throws(HubStoreError) -> [HubDoor] {
        try locked { connection throws(HubStoreError) in try Self.doors(connection, where: "true", []) }
    }

    /// Revokes the door named `name`: its certificate is refused from the next request on, and
    /// its join code with it (unused, or redeemed and kept for a door that may ask again).
    /// False when there is no such door.
    public func revokeDoor(named name: String) throws(HubStoreError) -> Bool {
        try locked { connection throws(HubStoreError) in
            !(try connection.execute("""
                UPDATE doors SET revoked_at = coalesce(revoked_at, now()), join_code_sha256 = NULL, join_expires = NULL,
                    join_key_sha256 = NULL, join_certificate = NULL
                WHERE name = $1 RETURNING id
                """, [name])).isEmpty
        }
    }

    private static func doors(_ connection: PostgresConnection, where condition: String, _ parameters: [String?]) throws(HubStoreError) -> [HubDoor] {
        let rows = try connection.execute("""
            SELECT id, name, certificate_sha256 IS NOT NULL, revoked_at IS NOT NULL, last_revision, extract(epoch FROM last_seen),
                module_family, template_size
            FROM doors WHERE \(condition) ORDER BY name
            """, parameters)
        var doors: [HubDoor] = []
        for row in rows {
            guard row.count == 8, let id = row[0].flatMap({ Int64($0) }), let name = row[1], let revision = row[4].flatMap({ Int64($0) }) else {
                throw .unexpectedReply("a door row")
            }
            doors.append(HubDoor(id: id, name: name, joined: row[2] == "t", revoked: row[3] == "t", lastRevision: revision,
                                 lastSeen: row[5].flatMap { Double($0) }, readerFamily: row[6], templateSize: row[7].flatMap { Int($0) }))
        }
        return doors
    }
}
