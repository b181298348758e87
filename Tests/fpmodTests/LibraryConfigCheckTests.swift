import Foundation
import Testing

/// `fpmod config check` on the `library` section, through the real binary.
@Suite(.serialized) struct LibraryConfigCheckTests {
    private func check(_ cli: CLI, _ text: String) throws -> CLI.Result {
        let path = cli.directory + "/config.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try cli.run(["config", "check", path])
    }

    @Test func theLibrarySectionIsChecked() throws {
        let cli = CLI()
        #expect(try check(cli, #"{"library": {"searchOrder": "whole", "maxFlashWritesPerDay": 50}}"#).status == 0)
        let bad = try check(cli, #"{"library": {"searchOrder": "random", "maxFlashWritesPerDay": 99999}}"#)
        #expect(bad.status == 78)
        #expect(bad.stdout.contains("library.searchOrder: 'random' is not one of whole, regulars-first"), "\(bad.stdout)")
        #expect(bad.stdout.contains("library.maxFlashWritesPerDay"), "\(bad.stdout)")
    }
}
