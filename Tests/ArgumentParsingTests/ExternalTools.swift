import Foundation

/// Runs the tools the rendered documents are checked with (bash, groff, man), when present.
enum ExternalTools {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The tool's path on PATH, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ executable: String, _ arguments: [String], directory: String? = nil,
                    environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary directory holding `files` (empty files), removed by the caller.
    static func temporaryDirectory(files: [String] = []) throws -> String {
        let directory = NSTemporaryDirectory() + "fpmod-docs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for file in files { _ = FileManager.default.createFile(atPath: directory + "/" + file, contents: Data()) }
        return directory
    }

    /// Sources `script` in a bash without startup files and calls `function` once per command
    /// line, as bash does on TAB: COMP_WORDS holds the words, the last one the word being
    /// completed, COMP_CWORD its index; the working directory is `directory`. Returns COMPREPLY
    /// for each line.
    static func complete(script: String, function: String, lines: [[String]], directory: String) throws -> [[String]] {
        let scripts = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scripts) }
        let scriptPath = scripts + "/completion.bash"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        var driver = "source \(quote(scriptPath)) || exit 3\n"
        driver += #"_drive() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=(); "#
        driver += function + #"; printf '%s\037' "${COMPREPLY[@]}"; printf '\036'; }"# + "\n"
        for line in lines { driver += "_drive " + line.map(quote).joined(separator: " ") + "\n" }
        let driverPath = scripts + "/driver.bash"
        try driver.write(toFile: driverPath, atomically: true, encoding: .utf8)
        let result = try run("/bin/bash", ["--norc", "--noprofile", driverPath], directory: directory)
        guard result.status == 0, result.stderr.isEmpty else {
            throw Failure(message: "bash exited \(result.status): \(result.stderr)")
        }
        var records = result.stdout.split(separator: "\u{1E}", omittingEmptySubsequences: false).map { record in
            record.split(separator: "\u{1F}").map(String.init)
        }
        records.removeLast()
        return records
    }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    struct Failure: Error, CustomStringConvertible { var message: String; var description: String { message } }
}
