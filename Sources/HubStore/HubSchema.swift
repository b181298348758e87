/// The hub's schema in PostgreSQL as an ordered list of migrations: migration N moves a
/// database from version N-1 to N, and `hub_migrations` records each one applied. A released
/// migration never changes: add a new one.
///
/// The tables mirror what a door's SQLite store keeps (users, fingers, cards, schedules,
/// holidays, door modes), plus the fleet's own: doors, the change log doors pull, and every
/// door's events.
public enum HubSchema {
    static let migrations: [String] = [migration1, migration2, migration3]

    public static var currentVersion: Int { migrations.count }

    /// Any fixed number: the advisory lock that lets one migrator at a time in.
    static let migrationLock: Int64 = 0x6670_6D6F_6431 // "fpmod1"
    /// The advisory lock every change takes before its revision, so revisions commit in order
    /// (a sequence alone hands out 7 before 8 but may commit 8 first: a door that pulled 8
    /// would never see 7).
    static let changeLock: Int64 = 0x6670_6D6F_6432 // "fpmod2"

    /// Version 1.
    ///
    /// `changes` holds, per thing (kind and key), the revision of its latest change and its
    /// state then (or a tombstone): a door that last saw revision R pulls the rows above R, in
    /// order, and each is the whole new state, so an older change of the same thing is never
    /// needed again (it is replaced, not kept). Revisions come from one sequence over all kinds.
    ///
    /// The credential tables mirror a door's store (`TemplateStore`'s schema), so a door applies
    /// a change without translating it:
    /// - `users`: a PIN only as its Argon2id string (`pin_hash`), as on the door; no table of
    ///   its own, since a user has at most one PIN.
    /// - `fingers`: the template sealed (XChaCha20-Poly1305) under the fleet's template key,
    ///   never in the clear; `module_family` and `template_size` (the plain template's bytes)
    ///   let a door tell whether its reader can take it, so one finger may have one template
    ///   per family.
    /// - `cards`: the number only as a keyed hash (`number_hash`, under the fleet's card key),
    ///   as a stolen database must not give numbers to clone.
    /// - `schedules` and `holidays`: the text the door's `schedule add` and `holiday add` take.
    /// - `door_modes`: a door's mode as `DoorMode` names it.
    static let migration1 = """
        CREATE TABLE doors (
            id bigserial PRIMARY KEY,
            name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64),
            certificate_sha256 text UNIQUE,
            revoked_at timestamptz,
            last_seen timestamptz,
            last_revision bigint NOT NULL DEFAULT 0,
            module_family text,
            template_size integer,
            created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE SEQUENCE revisions AS bigint MINVALUE 1;
        CREATE TABLE changes (
            revision bigint NOT NULL UNIQUE CHECK (revision > 0),
            kind text NOT NULL CHECK (kind IN ('user', 'finger', 'card', 'schedule', 'holiday', 'door-mode')),
            key text NOT NULL,
            tombstone boolean NOT NULL,
            payload jsonb,
            changed_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (kind, key),
            CHECK (tombstone = (payload IS NULL))
        );
        CREATE TABLE users (
            name text PRIMARY KEY,
            display_name text NOT NULL,
            role text NOT NULL CHECK (role IN ('admin', 'user')),
            fingerprint_unlock boolean NOT NULL DEFAULT true,
            pin_hash text CHECK (pin_hash LIKE '$argon2%'),
            verify_mode text CHECK (verify_mode IN
                ('finger', 'pin', 'card', 'finger-or-pin', 'card-and-finger', 'finger-and-pin', 'card-and-pin')),
            schedule text,
            valid_from bigint,
            valid_until bigint,
            uses_left integer CHECK (uses_left >= 0),
            created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE fingers (
            user_name text NOT NULL REFERENCES users(name) ON DELETE CASCADE ON UPDATE CASCADE,
            label text NOT NULL,
            module_family text NOT NULL,
            template_size integer NOT NULL CHECK (template_size > 0),
            sealed_template bytea NOT NULL,
            quality integer NOT NULL,
            duress boolean NOT NULL DEFAULT false,
            enrolled_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (user_name, label, module_family)
        );
        CREATE TABLE cards (
            user_name text NOT NULL REFERENCES users(name) ON DELETE CASCADE ON UPDATE CASCADE,
            label text NOT NULL,
            kind text NOT NULL CHECK (kind IN ('wiegand', 'nfc-uid', 'desfire')),
            number_hash bytea NOT NULL UNIQUE,
            enabled boolean NOT NULL DEFAULT true,
            valid_from bigint,
            valid_until bigint,
            added_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (user_name, label)
        );
        CREATE TABLE schedules (
            name text PRIMARY KEY,
            text text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE holidays (
            name text PRIMARY KEY,
            first text NOT NULL,
            last text NOT NULL,
            yearly boolean NOT NULL DEFAULT false,
            hours text,
            created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE door_modes (
            door_id bigint PRIMARY KEY REFERENCES doors(id) ON DELETE CASCADE,
            mode text NOT NULL CHECK (mode IN ('normal', 'passage', 'lockdown', 'first-person-in'))
        );
        CREATE TABLE door_events (
            door_id bigint NOT NULL REFERENCES doors(id),
            sequence bigint NOT NULL CHECK (sequence > 0),
            time double precision NOT NULL,
            event text NOT NULL,
            user_name text,
            detail text,
            previous_hash bytea NOT NULL CHECK (length(previous_hash) = 32),
            hash bytea NOT NULL CHECK (length(hash) = 32),
            received_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (door_id, sequence)
        );
        CREATE INDEX door_events_time ON door_events (time);
        """
}

extension HubSchema {
    /// Version 2: joining. A door is added with a one-time join code, kept only as its SHA-256
    /// (a stolen database gives no code to join with) and valid until `join_expires`; redeeming
    /// it clears both and records the certificate the hub issued (its serial, to name it; its
    /// SHA-256, by which the door is known on every request).
    static let migration2 = """
        ALTER TABLE doors ADD COLUMN join_code_sha256 text UNIQUE, ADD COLUMN join_expires timestamptz,
            ADD COLUMN certificate_serial text;
        """
}

extension HubSchema {
    /// Version 3: a join whose answer was lost. Redeeming a code no longer forgets it at once:
    /// the code (its SHA-256), its expiry, the SHA-256 of the public key it was redeemed with
    /// (DER SubjectPublicKeyInfo, upper-case hex) and the certificate issued for that key stay
    /// until the door first uses that certificate or the code expires, so a door that never had
    /// the answer asks again with the same key and is given the same certificate: the hub still
    /// knows one certificate for it, and a certificate for another key is refused.
    /// The certificate is public (the door's private key never leaves it).
    static let migration3 = """
        ALTER TABLE doors ADD COLUMN join_key_sha256 text CHECK (join_key_sha256 ~ '^[0-9A-F]{64}$'),
            ADD COLUMN join_certificate text,
            ADD CONSTRAINT doors_join_redeemed CHECK ((join_key_sha256 IS NULL) = (join_certificate IS NULL));
        """
}
