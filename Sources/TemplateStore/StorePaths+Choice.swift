extension StorePaths {
    /// The key file of a store that was named without its key: beside the database, its path
    /// with `.key` appended (`--store ~/door.db` → `~/door.db.key`). Each store named this way
    /// has a key of its own, and a store given for a test or a copy never reaches for the
    /// installed key in /etc/fpmod.
    public static func keyBeside(_ database: String) -> String { database + ".key" }

    /// The store a command uses, from what names one (first wins): the command line or its
    /// environment (`--store`/FPMOD_STORE, `--key`/FPMOD_STORE_KEY), the config file's
    /// `store.database`/`store.key`, the defaults. A database named without a key at the same
    /// level gets its key beside it (`keyBeside`), never the default one; a key named alone
    /// goes with the database the next level names.
    public static func choose(named: (database: String?, key: String?),
                              configured: (database: String?, key: String?),
                              defaults: (database: String, key: String)) -> (database: String, key: String) {
        if let database = named.database {
            return (database, named.key ?? keyBeside(database))
        }
        if let database = configured.database {
            return (database, named.key ?? configured.key ?? keyBeside(database))
        }
        return (defaults.database, named.key ?? configured.key ?? defaults.key)
    }
}
