import CShims
import Glibc
import Posix
import Synchronization

/// A pseudo-terminal pair standing in for a UART: a program opens `slavePath` (or a `link`
/// to it) as if it were /dev/ttyAMA0, and the owner of this object talks through `master`.
/// The slave is made raw before its path is known to anyone, and this object keeps its own
/// slave descriptor open: once every slave descriptor is closed the master reads EIO and
/// polls readable forever. Modem-control ioctls (DTR/RTS) fail with ENOTTY on a PTY; callers
/// that issue them must tolerate that.
public final class PseudoTerminal: Sendable {
    /// The controlling side (non-blocking, close-on-exec). Bytes written here are read by the
    /// slave's user and vice versa.
    public let master: FileDescriptor
    /// e.g. /dev/pts/3.
    public let slavePath: String
    private let slave: FileDescriptor
    private let state = Mutex(State())

    private struct State {
        var links: [String] = []
        var closed = false
    }

    /// `posix_openpt` + `grantpt` + `unlockpt` + `ptsname_r`, then opens the slave and sets it
    /// to raw 8N1 at 57600 baud.
    public init() throws(SerialPortError) {
        let master = FileDescriptor(rawValue: fpmod_posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC))
        guard master.rawValue >= 0 else { throw .io(.current, operation: "posix_openpt") }
        do throws(SerialPortError) {
            guard fpmod_grantpt(master.rawValue) == 0 else { throw .io(.current, operation: "grantpt") }
            guard fpmod_unlockpt(master.rawValue) == 0 else { throw .io(.current, operation: "unlockpt") }
            var name = [CChar](repeating: 0, count: 128)
            let result = fpmod_ptsname_r(master.rawValue, &name, name.count)
            guard result == 0 else { throw .io(Errno(rawValue: result), operation: "ptsname_r") }
            let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let slave: FileDescriptor
            do {
                slave = try FileDescriptor.open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
            } catch {
                throw .io(error, operation: "open \(slavePath)")
            }
            do {
                try TerminalSettings.makeRaw(slave)
                try TerminalSettings.setBaudRate(BaudRate.factoryDefault, on: slave)
                try master.setNonBlocking()
            } catch {
                try? slave.close()
                throw .io(error, operation: "make \(slavePath) raw")
            }
            self.master = master
            self.slavePath = slavePath
            self.slave = slave
        } catch {
            try? master.close()
            throw error
        }
    }

    deinit { close() }

    /// Creates a symlink at `path` pointing to `slavePath` (e.g. /tmp/fpmod-sim/ttyFP0), replacing
    /// an existing symlink there (a stale one from an earlier run). Refuses to replace anything
    /// that is not a symlink. The link is removed by `close()`.
    public func link(at path: String) throws(SerialPortError) {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFLNK else {
                throw .io(.fileExists, operation: "symlink \(path) (something other than a symlink is there; remove it)")
            }
            guard unlink(path) == 0 else { throw .io(.current, operation: "unlink stale link \(path)") }
        }
        guard symlink(slavePath, path) == 0 else { throw .io(.current, operation: "symlink \(path) → \(slavePath)") }
        state.withLock { $0.links.append(path) }
    }

    /// The speed the slave's user last set (stored, not applied: PTY bytes flow at once), so a
    /// simulator can pace its replies by it. Nil if it cannot be read.
    public func clientBaudRate() -> Int? {
        TerminalSettings.baudRate(of: master)
    }

    /// Closes both descriptors and removes the links. Idempotent. The slave's user then sees a
    /// hang-up (`SerialPortError.disconnected`).
    public func close() {
        let links: [String]? = state.withLock { state in
            if state.closed { return nil }
            state.closed = true
            return state.links
        }
        guard let links else { return }
        for link in links { unlink(link) }
        try? slave.close()
        try? master.close()
    }
}
