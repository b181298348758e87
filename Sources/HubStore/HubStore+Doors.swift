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

    /// The door a join code is for, while it is valid; nil for an unknown, used or expired code.
    public func door(joinCode code: String) throws(HubStoreError) -> HubDoor? {
        guard JoinCode.isWellFormed(code) else { return nil }
        return try locked { connection throws(HubStoreError) in
            try Self.doors(connection, where: "join_code_sha256 = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND join_expires > now() AND revoked_at IS NULL", [code]).first
        }
    }

    /// Redeems the code for the certificate the hub issued: true when this call took it (of two
    /// doors racing with one code, one wins), false when it was used, expired or never was.
    public func completeJoin(code: String, certificateSHA256: String, serial: String) throws(HubStoreError) -> Bool {
        guard JoinCode.isWellFormed(code) else { return false }
        return try locked { connection throws(HubStoreError) in
            !(try connection.execute("""
                UPDATE doors SET join_code_sha256 = NULL, join_expires = NULL, certificate_sha256 = $2, certificate_serial = $3, last_seen = now()
                WHERE join_code_sha256 = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND join_expires > now() AND revoked_at IS NULL
                RETURNING id
                """, [code, certificateSHA256, serial])).isEmpty
        }
    }

    /// The door a client certificate belongs to (by its SHA-256), revoked or not; nil: none.
    public func door(certificateSHA256: String) throws(HubStoreError) -> HubDoor? {
        try locked { connection throws(HubStoreError) in
            try Self.doors(connection, where: "certificate_sha256 = $1", [certificateSHA256]).first
        }
    }

    /// Notes a door's request: when, and the revision it has pulled up to.
    public func noteDoorSeen(id: Int64, revision: Int64?) throws(HubStoreError) {
        try locked { connection throws(HubStoreError) in
            _ = try connection.execute("UPDATE doors SET last_seen = now(), last_revision = greatest(last_revision, coalesce($2::bigint, 0)) WHERE id = $1",
                                       [String(id), revision.map(String.init)])
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
    /// an unused join code with it. False when there is no such door.
    public func revokeDoor(named name: String) throws(HubStoreError) -> Bool {
        try locked { connection throws(HubStoreError) in
            !(try connection.execute("""
                UPDATE doors SET revoked_at = coalesce(revoked_at, now()), join_code_sha256 = NULL, join_expires = NULL
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
