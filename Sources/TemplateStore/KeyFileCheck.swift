import Glibc

/// Checks an existing key file before the store uses it, the way ssh checks a private key: it
/// must be 32 bytes and readable only by its owner. A missing file passes (it may be created).
enum KeyFileCheck {
    static func check(_ keyPath: String) throws {
        var info = stat()
        guard stat(keyPath, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw StoreError.badKeyFile(keyPath: keyPath, detail: "not a regular file")
        }
        let mode = UInt32(info.st_mode) & 0o777
        if mode & 0o077 != 0 {
            // Write access for others matters too: whoever can write it can swap the key.
            throw StoreError.keyFileExposed(keyPath: keyPath, mode: mode)
        }
        if info.st_size != Int(Crypto.keyBytes) {
            throw StoreError.badKeyFile(keyPath: keyPath, detail: "\(info.st_size) bytes instead of \(Crypto.keyBytes)")
        }
    }
}
