import Foundation
import Glibc
import Testing

/// A --port that is no UART says what it is and lists the serial devices that exist.
@Suite struct PortErrorTests {
    @Test func aDirectoryIsNamedAsSuch() throws {
        let cli = CLI()
        let result = try cli.run(["--port", cli.directory, "info"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("\(cli.directory) is a directory, not a serial device"), "\(result.stderr)")
        #expect(result.stderr.contains("erial devices"))
        #expect(result.stderr.contains("--port"))
        #expect(!result.stderr.contains("EISDIR"))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/tty0") && access("/dev/tty0", R_OK | W_OK) == 0))
    func aVirtualConsoleIsNotAUART() throws {
        let cli = CLI()
        let result = try cli.run(["--port", "/dev/tty0", "info"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("/dev/tty0 is a virtual console (the screen and keyboard), not a UART"), "\(result.stderr)")
        #expect(result.stderr.contains("erial devices"))
        #expect(!result.stderr.contains("EINVAL"))
        #expect(!result.stderr.contains("baud"))
    }
}
