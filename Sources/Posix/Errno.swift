import Glibc

/// A C `errno` value raised by a failed system call.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(rawValue: errno) }

    /// `strerror` text plus the symbolic name when known, e.g. "Permission denied (EACCES)".
    public var description: String {
        let text = strerror(rawValue).map { String(cString: $0) } ?? "error \(rawValue)"
        if let name = Errno.names[rawValue] { return "\(text) (\(name))" }
        return "\(text) (errno \(rawValue))"
    }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let busy = Errno(rawValue: EBUSY)
    public static let ioError = Errno(rawValue: EIO)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    public static let notATerminal = Errno(rawValue: ENOTTY)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    public static let messageTooLong = Errno(rawValue: EMSGSIZE)

    private static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO",
        EBADF: "EBADF", EAGAIN: "EAGAIN", EACCES: "EACCES", EBUSY: "EBUSY", EEXIST: "EEXIST",
        ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL",
        ENOTTY: "ENOTTY", EPIPE: "EPIPE", ENAMETOOLONG: "ENAMETOOLONG", ETIMEDOUT: "ETIMEDOUT",
        EADDRINUSE: "EADDRINUSE", ECONNREFUSED: "ECONNREFUSED", ECONNRESET: "ECONNRESET",
        EMSGSIZE: "EMSGSIZE", ENOTSOCK: "ENOTSOCK", EROFS: "EROFS", ENOSPC: "ENOSPC",
    ]
}

/// Runs a C call until it does not fail with EINTR; maps a -1 result to the thrown `errno`.
@inline(__always)
public func retryingOnInterrupt<R: BinaryInteger>(_ call: () -> R) throws(Errno) -> R {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno.current
        if error != .interrupted { throw error }
    }
}
