import Posix

/// Checks an existing key file before the store uses it, the way ssh checks a private key: it
/// must be 32 bytes and readable only by its owner. A missing file passes (it may be created).
enum KeyFileCheck {
    static func check(_ keyPath: String) throws {
        // Missing, or not reachable: reading or creating the key reports what is wrong.
        guard let info = try? FileSystem.status(keyPath) else { return }
        guard info.kind == .regular else {
            throw StoreError.badKeyFile(keyPath: keyPath, detail: "not a regular file")
        }
        let mode = UInt32(info.permissions) & 0o777
        if mode & 0o077 != 0 {
            // Write access for others matters too: whoever can write it can swap the key.
            throw StoreError.keyFileExposed(keyPath: keyPath, mode: mode)
        }
        if info.size != Int64(Crypto.keyBytes) {
            throw StoreError.badKeyFile(keyPath: keyPath, detail: "\(info.size) bytes instead of \(Crypto.keyBytes)")
        }
    }
}
