/// The store's schema as an ordered list of migrations. Migration N moves a database from
/// `user_version` N-1 to N. A released migration never changes: add a new entry instead.
enum Schema {
    static let migrations: [String] = [migration1, migration2, migration3, migration4, migration5, migration6, migration7, migration8, migration9, migration10, migration11, migration12]

    static var currentVersion: Int { migrations.count }

    /// Version 1: the full schema.
    static let migration1 = """
        CREATE TABLE users (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            display_name TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('admin', 'user')),
            fingerprint_unlock INTEGER NOT NULL DEFAULT 1 CHECK (fingerprint_unlock IN (0, 1)),
            pin_hash TEXT,
            created_at REAL NOT NULL
        );
        CREATE TABLE fingers (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            label TEXT NOT NULL,
            slot INTEGER NOT NULL UNIQUE CHECK (slot >= 0),
            template BLOB NOT NULL,
            template_digest TEXT NOT NULL,
            quality INTEGER NOT NULL,
            enrolled_at REAL NOT NULL,
            UNIQUE (user_id, label)
        );
        CREATE INDEX fingers_user ON fingers(user_id);
        CREATE TABLE module_identity (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            family TEXT NOT NULL,
            address INTEGER NOT NULL,
            password BLOB NOT NULL,
            capacity INTEGER NOT NULL,
            product_info TEXT,
            slot_table_digest TEXT,
            paired_at REAL NOT NULL
        );
        CREATE TABLE intents (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('enroll', 'delete', 'wipe', 'restore')),
            user TEXT,
            label TEXT,
            slot INTEGER,
            template BLOB,
            quality INTEGER,
            state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'module-written')),
            created_at REAL NOT NULL
        );
        CREATE TABLE audit (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            time REAL NOT NULL,
            event TEXT NOT NULL,
            user TEXT,
            slot INTEGER,
            score INTEGER,
            latency_json TEXT,
            detail TEXT
        );
        CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
        CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
        CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE store_meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
        """

    /// Version 2: `audit list --since` reads by time.
    static let migration2 = """
        CREATE INDEX audit_time ON audit(time);
        """

    /// Version 3: a duress finger is a flag of the finger, no longer a label convention. Fingers
    /// enrolled under the old convention (a label starting with "duress") keep their meaning.
    static let migration3 = """
        ALTER TABLE fingers ADD COLUMN duress INTEGER NOT NULL DEFAULT 0 CHECK (duress IN (0, 1));
        UPDATE fingers SET duress = 1 WHERE lower(label) LIKE 'duress%';
        """

    /// Version 4: a template moved between slots on the module (the library layout that follows
    /// use) is an intent too: from `slot` to `target_slot`, and a third state, the store's
    /// mapping already changed but the old slot not yet deleted. SQLite cannot alter a CHECK,
    /// so the table is rebuilt with its rows. A finger keeps the slot it was enrolled in
    /// (`enrolled_slot`): the enrolled-set digest is made of it, so a move is not a change of
    /// who is enrolled (no PIN is asked for after the service rearranged the library).
    static let migration4 = """
        CREATE TABLE intents_v4 (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('enroll', 'delete', 'wipe', 'restore', 'move')),
            user TEXT,
            label TEXT,
            slot INTEGER,
            template BLOB,
            quality INTEGER,
            state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'module-written', 'store-committed')),
            created_at REAL NOT NULL,
            target_slot INTEGER
        );
        INSERT INTO intents_v4 (id, kind, user, label, slot, template, quality, state, created_at)
            SELECT id, kind, user, label, slot, template, quality, state, created_at FROM intents;
        DROP TABLE intents;
        ALTER TABLE intents_v4 RENAME TO intents;
        ALTER TABLE fingers ADD COLUMN enrolled_slot INTEGER;
        UPDATE fingers SET enrolled_slot = slot;
        """

    /// Version 5: cards (an NFC card's UID, a Wiegand reader's card number) as credentials of a
    /// user, each switched on and off by itself. The number is never stored: `number_hash` is
    /// a keyed BLAKE2b of it (a key derived from the store key), found by equality, so a stolen
    /// database does not give the numbers to clone. A user's own verify mode (NULL: the door's).
    /// `panel_card`: the card number fpmod sends an access panel for the user after a grant
    /// (Wiegand out); it has to be sent as it is, so it is sealed under the store key.
    static let migration5 = """
        CREATE TABLE cards (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            label TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('wiegand', 'nfc-uid')),
            number_hash BLOB NOT NULL UNIQUE,
            enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
            added_at REAL NOT NULL,
            UNIQUE (user_id, label)
        );
        CREATE INDEX cards_user ON cards(user_id);
        ALTER TABLE users ADD COLUMN panel_card BLOB;
        ALTER TABLE users ADD COLUMN verify_mode TEXT CHECK (verify_mode IS NULL OR verify_mode IN
            ('finger', 'pin', 'card', 'finger-or-pin', 'card-and-finger', 'finger-and-pin', 'card-and-pin'));
        """

    /// Version 6: a DESFire card enrolled by fpmod (`desfire`: its UID authenticated by the
    /// card's AES key) is a kind of card of its own. SQLite cannot change a CHECK, so the table
    /// is rebuilt with its rows.
    static let migration6 = """
        CREATE TABLE cards_v6 (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            label TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('wiegand', 'nfc-uid', 'desfire')),
            number_hash BLOB NOT NULL UNIQUE,
            enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
            added_at REAL NOT NULL,
            UNIQUE (user_id, label)
        );
        INSERT INTO cards_v6 (id, user_id, label, kind, number_hash, enabled, added_at)
            SELECT id, user_id, label, kind, number_hash, enabled, added_at FROM cards;
        DROP TABLE cards;
        ALTER TABLE cards_v6 RENAME TO cards;
        CREATE INDEX cards_user ON cards(user_id);
        """

    /// Version 7: who may enter when (issue 25). Named weekly schedules and dated holidays, each
    /// kept as the text it was given (normalised), read again by `accessRules`, so a text this
    /// fpmod cannot read refuses the users on it instead of being dropped; a user's schedule
    /// (by name), validity (UTC seconds, `valid_until` exclusive) and remaining uses (NULL:
    /// unlimited; taken one by one in a single UPDATE, so two doors never both take the last);
    /// a card's own validity (a visitor's badge).
    static let migration7 = """
        CREATE TABLE schedules (
            name TEXT PRIMARY KEY,
            text TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE TABLE holidays (
            name TEXT PRIMARY KEY,
            first TEXT NOT NULL,
            last TEXT NOT NULL,
            yearly INTEGER NOT NULL DEFAULT 0 CHECK (yearly IN (0, 1)),
            hours TEXT,
            created_at REAL NOT NULL
        );
        ALTER TABLE users ADD COLUMN schedule TEXT;
        ALTER TABLE users ADD COLUMN valid_from INTEGER;
        ALTER TABLE users ADD COLUMN valid_until INTEGER;
        ALTER TABLE users ADD COLUMN uses_left INTEGER CHECK (uses_left IS NULL OR uses_left >= 0);
        ALTER TABLE cards ADD COLUMN valid_from INTEGER;
        ALTER TABLE cards ADD COLUMN valid_until INTEGER;
        """

    /// Version 8: the web console's accounts, sessions, API tokens and one-time setup code
    /// (issue 26). Never part of a user backup. Session and API tokens and the setup code are
    /// kept only as SHA-256 hashes, so a stolen database gives no live session; passwords as
    /// Argon2id strings. Login failures are counted per name as typed (`console_login_failures`,
    /// no reference to an account), so a name that is no account locks out exactly as one that
    /// is, and the counters survive a restart.
    static let migration8 = """
        CREATE TABLE console_accounts (
            name TEXT PRIMARY KEY,
            role TEXT NOT NULL CHECK (role IN ('admin', 'viewer')),
            password_hash TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE TABLE console_login_failures (
            name TEXT PRIMARY KEY,
            consecutive INTEGER NOT NULL DEFAULT 0 CHECK (consecutive >= 0),
            locked_until REAL,
            permanent INTEGER NOT NULL DEFAULT 0 CHECK (permanent IN (0, 1)),
            last_failure REAL NOT NULL
        );
        CREATE TABLE console_sessions (
            token_hash BLOB PRIMARY KEY,
            account TEXT NOT NULL REFERENCES console_accounts(name) ON DELETE CASCADE,
            csrf TEXT NOT NULL,
            created_at REAL NOT NULL,
            last_seen REAL NOT NULL
        );
        CREATE INDEX console_sessions_account ON console_sessions(account);
        CREATE TABLE console_tokens (
            name TEXT PRIMARY KEY,
            token_hash BLOB NOT NULL UNIQUE,
            role TEXT NOT NULL CHECK (role IN ('admin', 'viewer')),
            created_by TEXT NOT NULL,
            created_at REAL NOT NULL,
            last_used REAL
        );
        CREATE TABLE console_setup (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            code_hash BLOB NOT NULL,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL
        );
        """

    /// Version 9: the audit log's hash chain (`AuditChain`). Rows written before it keep NULLs;
    /// the first chained row's `prev_hash` is the chain folded over them, so they are covered too.
    static let migration9 = """
        ALTER TABLE audit ADD COLUMN prev_hash BLOB;
        ALTER TABLE audit ADD COLUMN hash BLOB;
        ALTER TABLE audit ADD COLUMN mac BLOB;
        """

    /// Version 10: a door in a fleet (issue 28). `users.from_hub`: the user came from the hub (a
    /// finger enrolled here for them goes up to the hub; a local user's stays here).
    /// `fingers.hub_digest`: the template digest the hub holds for this finger (NULL: the hub has
    /// none), so a finger enrolled or replaced here is uploaded once, and one that came from the
    /// hub is never sent back.
    static let migration10 = """
        ALTER TABLE users ADD COLUMN from_hub INTEGER NOT NULL DEFAULT 0 CHECK (from_hub IN (0, 1));
        ALTER TABLE fingers ADD COLUMN hub_digest TEXT;
        """

    /// Version 11: cards enrolled at a door for a user of the fleet's hub go up to it.
    /// `cards.hub_state`: 0 the card stays here (a local user's, a DESFire card, or one hashed
    /// under the door's own key), 1 hashed under the fleet's card key and not at the hub yet,
    /// 2 the hub has it (sent from here, or it came from the hub). Cards from before stay here.
    static let migration11 = """
        ALTER TABLE cards ADD COLUMN hub_state INTEGER NOT NULL DEFAULT 0 CHECK (hub_state IN (0, 1, 2));
        """

    /// Version 12: a change made at a door to a card the hub has (switched off or on, new dates,
    /// removed) goes up to the hub, so every door follows — a lost card removed at one door is
    /// gone from all of them. One row per card, saying what changed (`switched`: on or off;
    /// `dated`: its validity), so the hub changes only that and keeps what it changed itself
    /// meanwhile; `version` grows with each change, so an upload marks done only what it sent.
    static let migration12 = """
        CREATE TABLE card_edits_for_hub (
            user_name TEXT NOT NULL,
            label TEXT NOT NULL,
            number_hash BLOB NOT NULL,
            removed INTEGER NOT NULL CHECK (removed IN (0, 1)),
            switched INTEGER NOT NULL DEFAULT 0 CHECK (switched IN (0, 1)),
            dated INTEGER NOT NULL DEFAULT 0 CHECK (dated IN (0, 1)),
            version INTEGER NOT NULL DEFAULT 1,
            PRIMARY KEY (user_name, label)
        );
        """
}
