import Administration
import DoorLock
import Foundation
import Testing

/// The `library` section: search order, the daily flash-write bound, an optional search cost.
struct LibraryConfigTests {
    @Test func defaultsAreRegularsFirstWithABoundedLayout() throws {
        let config = try LockConfig.parse(Data("{}".utf8))
        #expect(config.library.searchOrder == .regularsFirst)
        #expect(config.library.maxFlashWritesPerDay == 200)
        #expect(config.library.searchCost == nil)
    }

    @Test func valuesAreRead() throws {
        let config = try LockConfig.parse(Data(#"""
            {"library": {"searchOrder": "whole", "maxFlashWritesPerDay": 0, "searchCost": {"fixedMs": 12, "perTemplateMs": 1.5}}}
            """#.utf8))
        #expect(config.library.searchOrder == .whole)
        #expect(config.library.maxFlashWritesPerDay == 0)
        #expect(config.library.searchCost == SearchCost(fixedMilliseconds: 12, perTemplateMilliseconds: 1.5))
    }

    @Test func badValuesNameTheirPaths() {
        #expect(problems(#"{"library": {"searchOrder": "fastest"}}"#).first?
            .hasPrefix("library.searchOrder: 'fastest' is not one of whole, regulars-first") == true)
        #expect(problems(#"{"library": {"maxFlashWritesPerDay": 100000}}"#).first?.hasPrefix("library.maxFlashWritesPerDay") == true)
        #expect(problems(#"{"library": {"maxFlashWritesPerDay": -1}}"#).first?.hasPrefix("library.maxFlashWritesPerDay") == true)
        #expect(problems(#"{"library": {"searchCost": {"fixedMs": 10}}}"#).first?.hasPrefix("library.searchCost: needs both") == true)
        #expect(problems(#"{"library": {"searchCost": {"fixedMs": 10, "perTemplateMs": 0}}}"#).first?
            .hasPrefix("library.searchCost: fixedMs must be") == true)
        #expect(problems(#"{"library": {"order": "whole"}}"#).first?.hasPrefix("library.order") == true)
        #expect(problems(#"{"library": "whole"}"#).first?.hasPrefix("library") == true)
    }

    @Test func theExampleConfigSaysIt() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../tools/config.example.json")
        let config = try LockConfig.load(path: url.standardizedFileURL.path)
        #expect(config.library.searchOrder == .regularsFirst)
        #expect(config.library.maxFlashWritesPerDay == 200)
    }
}
