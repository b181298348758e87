import CLibfprint

/// Runs GLib's default main context on the calling thread until a condition holds.
///
/// libfprint delivers everything (device state changes, the socket reads of the virtual device,
/// minutiae found by its worker thread, results) as sources on the default main context, and its
/// own `_sync` calls iterate `g_main_context_iteration(NULL, …)`, i.e. that default context. So
/// the host matcher iterates the default context itself, only from inside `LibfprintSession`,
/// whose single instance is reached through one process-wide lock: one thread at a time, never a
/// background thread. Nothing else in fpmod uses GLib.
enum GLibLoop {
    /// Iterates (blocking between events) until `done()` is true; a watchdog source wakes the
    /// loop after `seconds` so a stuck device becomes an error instead of a hang.
    static func run(_ operation: String, seconds: Int, until done: () -> Bool) throws(HostMatchingError) {
        if done() { return }
        let watchdog = Flag()
        let source = g_timeout_add_seconds(UInt32(seconds), { userData in
            Unmanaged<Flag>.fromOpaque(userData!).takeUnretainedValue().value = true
            return 0  // G_SOURCE_REMOVE
        }, Unmanaged.passUnretained(watchdog).toOpaque())
        defer { if !watchdog.value { g_source_remove(source) } }
        while !done() {
            if watchdog.value { throw .timedOut(operation: operation, seconds: seconds) }
            g_main_context_iteration(nil, 1)
        }
    }

    /// Runs whatever is ready without waiting; true if something ran.
    @discardableResult
    static func runPending() -> Bool { g_main_context_iteration(nil, 0) != 0 }
}

/// A boolean a C callback can set through an opaque pointer.
final class Flag {
    var value = false
}

/// Where a GAsyncReadyCallback leaves its result until the loop picks it up. Passed retained to
/// the callback, which releases it, so an abandoned operation cannot touch freed memory.
final class AsyncOutcome {
    var result: OpaquePointer?

    var isFinished: Bool { result != nil }

    deinit { if let result { g_object_unref(UnsafeMutableRawPointer(result)) } }

    /// The `GAsyncReadyCallback` and its `user_data` for one operation.
    func callback() -> (GAsyncReadyCallback, UnsafeMutableRawPointer) {
        let ready: GAsyncReadyCallback = { _, result, userData in
            let outcome = Unmanaged<AsyncOutcome>.fromOpaque(userData!).takeRetainedValue()
            outcome.result = OpaquePointer(g_object_ref(UnsafeMutableRawPointer(result)))
        }
        return (ready, Unmanaged.passRetained(self).toOpaque())
    }
}

/// Takes a GError (freeing it) as its message.
func consume(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "no reason given" }
    defer { g_error_free(error) }
    return error.pointee.message.map { String(cString: $0) } ?? "no reason given"
}
