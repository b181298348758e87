import CMosquitto
import Foundation
import Posix
import Synchronization

/// One `mosquitto_connect_async` / `mosquitto_reconnect_async`, run on a short-lived thread of
/// its own, because both resolve the broker's host name with a blocking getaddrinfo: a name
/// whose DNS server is slow or gone would otherwise hold the service's loop (and the touch
/// that waits on it) for as long as the resolver's timeouts, 10 s and more with glibc's
/// defaults. The TCP connect itself is non-blocking, so the thread lives for the lookup.
///
/// Why a thread around the libmosquitto call rather than resolving first and handing
/// libmosquitto the address: TLS checks the broker's certificate against, and sends SNI for,
/// the host name given to the connect call; an address there would break `mqtts://` to a name.
///
/// While an attempt runs, its thread alone touches the handle: the client polls `wakeup`
/// instead of the socket and calls nothing of libmosquitto until `result` is set. An owner that
/// goes away meanwhile `abandon()`s the attempt, and the thread destroys the handle when the
/// lookup ends, so nothing waits on DNS, not even a shutdown.
final class ConnectAttempt: Sendable {
    private struct State {
        var result: Result<Void, MQTTError>?
        var abandoned = false
    }

    /// Readable once the call returned.
    let wakeup: WakeupPipe
    private let state = Mutex(State())

    /// Starts the call on a new thread. `handle` is passed as its address: the pointer is not
    /// Sendable, and the hand-over above is what makes using it there safe.
    init(handle: OpaquePointer, reconnect: Bool, host: String, port: Int32, keepAlive: Int32) throws(Errno) {
        wakeup = try WakeupPipe()
        let address = Int(bitPattern: UnsafeRawPointer(handle))
        let thread = Thread { [self] in
            let handle = OpaquePointer(bitPattern: address)
            let rc = reconnect ? mosquitto_reconnect_async(handle) : mosquitto_connect_async(handle, host, port, keepAlive)
            // Here, not on the loop thread: MOSQ_ERR_ERRNO's text is this thread's errno.
            let result: Result<Void, MQTTError> = rc == MOSQ_ERR_SUCCESS.rawValue ? .success(())
                : .failure(.failed(reconnect ? "mosquitto_reconnect_async" : "mosquitto_connect_async", rc))
            let abandoned = state.withLock { state in
                state.result = result
                return state.abandoned
            }
            if abandoned { mosquitto_destroy(handle) } else { wakeup.signal() }
        }
        thread.name = "fpmod-mqtt-connect"
        thread.start()
    }

    /// How the call went, once it returned; nil while it runs.
    var result: Result<Void, MQTTError>? {
        wakeup.drain()
        return state.withLock { $0.result }
    }

    /// The owner is gone: returns true when the call already returned (the owner destroys the
    /// handle), false when the thread will destroy it at the end of the call.
    func abandon() -> Bool {
        state.withLock { state in
            state.abandoned = true
            return state.result != nil
        }
    }
}
