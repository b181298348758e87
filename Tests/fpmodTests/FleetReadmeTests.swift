import Foundation
import Testing
import TestSupport

/// The README's fleet section, run as written: a hub on a PostgreSQL (a scratch one here, in place
/// of the `apt install` line), two doors on the simulated FPC1020, one enrollment at the front door,
/// and the back door naming alice. Only what a reader pastes is filled in: the database, a free
/// port for 8443, the two join codes and the authority's SHA-256 the commands before printed.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct FleetReadmeTests {
    /// The first ```sh block of the README's "Many doors" section.
    static func block() throws -> [String] {
        let readme = try String(contentsOf: ReadmeSocketExamplesTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Many doors")).upperBound
        let lines = readme[section...].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "```sh"))
        let end = try #require(lines[(start + 1)...].firstIndex(of: "```"))
        return Array(lines[(start + 1)..<end])
    }

    @Test func theReadmesCommandsBringUpAHubAndTwoDoorsAndOneEnrollmentOpensBoth() throws {
        let server = try TemporaryPostgres()
        let database = try server.newDatabase("readme")
        let home = ScratchFolder(prefix: "fpmod-readme-fleet")
        defer { home.remove() }
        let port = String(Int.random(in: 20_000...40_000))
        var lines = try Self.block()
        #expect(lines.first?.contains("apt install postgresql") == true, "the section starts by installing PostgreSQL")
        lines.removeFirst()
        var script = ["set -eo pipefail", "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT"]
        for line in lines {
            var line = line.replacingOccurrences(of: "8443", with: port)
            if line.hasPrefix("export FPMOD_HUB_DATABASE=") { line = "export FPMOD_HUB_DATABASE='\(database)'" }
            line = line.replacingOccurrences(of: "FRONT-CODE", with: "$front").replacingOccurrences(of: "BACK-CODE", with: "$back")
                .replacingOccurrences(of: "--authority-sha256 SHA-256", with: "--authority-sha256 \"$sha\"")
            if line.hasPrefix("fpmod hub serve") {
                // Its first line is what the reader copies the SHA-256 from.
                script.append(line.replacingOccurrences(of: " &", with: " 2> hub.log &"))
                script.append("for _ in $(seq 1 300); do grep -q 'SHA-256' hub.log && break; sleep 0.1; done; sha=$(sed -n 's/.*SHA-256 //p' hub.log)")
            } else if line.hasPrefix("fpmod hub add-door") {
                let command = line.components(separatedBy: "#")[0]
                script.append("(\(command)) | tee codes.txt")
                script.append("front=$(sed -n 's/^Join code for door front .*: //p' codes.txt); back=$(sed -n 's/^Join code for door back .*: //p' codes.txt)")
            } else {
                script.append(line)
            }
        }
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-c", script.joined(separator: "\n")]
        bash.currentDirectoryURL = URL(fileURLWithPath: home.path)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FPMOD_") }
        environment["HOME"] = home.path
        environment["PATH"] = (CLI.binary as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        bash.environment = environment
        let output = Pipe()
        bash.standardOutput = output
        bash.standardError = output
        try bash.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        #expect(bash.terminationStatus == 0, "\(text)")
        #expect(text.contains("as front: nothing new at revision 1; 1 finger(s) sent"), "\(text)")
        #expect(text.contains("as back: revision 0 → 2: users +1 −0") && text.contains("fingers +1 −0"), "\(text)")
        #expect(text.contains("verify-match: alice"), "\(text)")
        #expect(text.contains("Fleet console setup code (works once, for 24 hours): "), "\(text)")
    }
}
