import Glibc

/// Whole-file writes that a crash or power cut never leaves half done: written to a temporary
/// name beside the target, `fsync`ed, then put in place with `rename(2)` (replace) or `link(2)`
/// (create only), and the directory `fsync`ed so the new name is durable too. Used by the
/// store's key file, backups and the simulator's flash.
public enum AtomicFile {
    /// Replaces (or creates) `path` with `bytes`, mode `mode` whatever the umask.
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) throws(Errno) {
        let temporary = try writeTemporary(beside: path, bytes: bytes, mode: mode)
        do throws(Errno) {
            _ = try retryingOnInterrupt { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw error
        }
        syncDirectory(of: path)
    }

    /// Creates `path` with `bytes` unless it exists already (then returns false and leaves it
    /// alone: someone else won the race).
    public static func createExclusively(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) throws(Errno) -> Bool {
        let temporary = try writeTemporary(beside: path, bytes: bytes, mode: mode)
        defer { unlink(temporary) }
        do throws(Errno) {
            _ = try retryingOnInterrupt { link(temporary, path) }
        } catch .fileExists {
            return false
        }
        syncDirectory(of: path)
        return true
    }

    /// `open(O_EXCL)` + `fchmod` + write-all + `fsync` of a fresh temporary file; returns its name.
    private static func writeTemporary(beside path: String, bytes: [UInt8], mode: mode_t) throws(Errno) -> String {
        let temporary = "\(path).tmp-\(getpid())"
        unlink(temporary)
        let fd = try retryingOnInterrupt { open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode) }
        do throws(Errno) {
            defer { close(fd) }
            _ = try retryingOnInterrupt { fchmod(fd, mode) }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { buffer in write(fd, buffer.baseAddress! + offset, buffer.count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Errno.current
                }
                offset += written
            }
            _ = try retryingOnInterrupt { fsync(fd) }
        } catch {
            unlink(temporary)
            throw error
        }
        return temporary
    }

    private static func syncDirectory(of path: String) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let fd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
