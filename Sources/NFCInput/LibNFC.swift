import Synchronization

/// libnfc is not thread-safe: its contexts share process-wide state (the log set-up that
/// `nfc_init` and `nfc_exit` count), and a device must not see two calls at once. Every call
/// into it in this process goes through this one lock, so readers on different threads wait
/// for each other instead of corrupting libnfc.
enum LibNFC {
    private static let lock = Mutex(())

    static func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        // Mutex.withLock rethrows untyped, so the body's outcome travels as a Result.
        let result: Result<R, E> = lock.withLock { _ in
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
