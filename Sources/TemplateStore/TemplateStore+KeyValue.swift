extension TemplateStore {
    /// Small persistent state, such as the access policy's state JSON.
    public func value(forKey key: String) throws -> String? {
        try locked { try connection.scalar("SELECT value FROM kv WHERE key = ?", [.text(key)]).string }
    }

    /// Stores `value` under `key`; nil removes the key.
    public func setValue(_ value: String?, forKey key: String) throws {
        try locked {
            if let value {
                try connection.query("INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)", [.text(key), .text(value)])
            } else {
                try connection.query("DELETE FROM kv WHERE key = ?", [.text(key)])
            }
        }
    }
}
