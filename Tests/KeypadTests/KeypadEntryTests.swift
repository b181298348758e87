import Foundation
import Imaging
import Keypad
import Testing

/// A PIN typed on a door keypad, driven with a fake clock as the reader drives it with the
/// kernel's event timestamps.
struct KeypadEntryTests {
    static func entry(minimum: Int = 4, maximum: Int = 12, pause: Double = 5) throws -> KeypadEntry {
        KeypadEntry(try KeypadEntry.Settings(minimumDigits: minimum, maximumDigits: maximum, pause: pause))
    }

    /// Presses `keys` one second apart from `start`, returning the last outcome.
    static func type(_ keys: [KeypadKey], into entry: inout KeypadEntry, from start: Double = 100) -> KeypadEntry.Outcome {
        var last = KeypadEntry.Outcome.ignored
        for (index, key) in keys.enumerated() { last = entry.press(key, at: start + Double(index)) }
        return last
    }

    static func digits(_ text: String) -> [KeypadKey] {
        text.compactMap { $0.wholeNumberValue.map { KeypadKey.digit(UInt8($0)) } }
    }

    @Test func digitsThenSubmitGiveTheSecretMaskedUntilRevealed() throws {
        var entry = try Self.entry()
        guard case .digitTaken(let count) = entry.press(.digit(7), at: 10) else {
            Issue.record("the first digit was not taken")
            return
        }
        #expect(count == 1)
        guard case .submitted(var secret) = Self.type(Self.digits("391") + [.submit], into: &entry, from: 11) else {
            Issue.record("no secret after submit")
            return
        }
        #expect(secret.reveal() == "7391")
        #expect(secret.description == "••••" && !"\(secret)".contains("7") && !String(reflecting: secret).contains("7391"))
        secret.wipe()
        #expect(secret.reveal().isEmpty && secret.count == 0)
        #expect(!entry.isEntering && entry.count == 0 && entry.deadline == nil)
    }

    @Test func clearStartsAgain() throws {
        var entry = try Self.entry()
        _ = Self.type(Self.digits("12"), into: &entry)
        guard case .cleared = entry.press(.clear, at: 103) else {
            Issue.record("clear did not clear")
            return
        }
        #expect(entry.count == 0)
        guard case .submitted(let secret) = Self.type(Self.digits("2468") + [.submit], into: &entry, from: 104) else {
            Issue.record("the entry after clear was not submitted")
            return
        }
        #expect(secret.reveal() == "2468")
        guard case .ignored = entry.press(.clear, at: 200) else {
            Issue.record("clear with nothing typed did something")
            return
        }
    }

    @Test func aPauseDropsTheEntryAndTheNextKeyStartsAfresh() throws {
        var entry = try Self.entry(pause: 5)
        _ = Self.type(Self.digits("55"), into: &entry, from: 100)  // last key at 101
        #expect(entry.deadline == 106)
        guard case .ignored = entry.expire(at: 105.9) else {
            Issue.record("dropped before the pause")
            return
        }
        guard case .timedOut = entry.expire(at: 106) else {
            Issue.record("not dropped after the pause")
            return
        }
        #expect(!entry.isEntering && entry.count == 0)
        // Without expire being called, a late key starts a new entry: the old digits are gone.
        _ = Self.type(Self.digits("99"), into: &entry, from: 200)
        guard case .digitTaken(let count) = entry.press(.digit(1), at: 210) else {
            Issue.record("no digit taken after a pause")
            return
        }
        #expect(count == 1)
        guard case .submitted(let secret) = Self.type(Self.digits("234") + [.submit], into: &entry, from: 211) else {
            Issue.record("no secret")
            return
        }
        #expect(secret.reveal() == "1234")
    }

    @Test func anEntryTooShortOrTooLongIsRefusedAndTheNextOneWorks() throws {
        var entry = try Self.entry(minimum: 4, maximum: 6)
        guard case .rejected(.tooShort) = Self.type(Self.digits("123") + [.submit], into: &entry) else {
            Issue.record("a three-digit entry was not refused")
            return
        }
        guard case .rejected(.tooLong) = Self.type(Self.digits("1234567"), into: &entry, from: 200) else {
            Issue.record("a seventh digit was not refused")
            return
        }
        #expect(entry.count == 0, "the refused digits are dropped at once")
        guard case .ignored = Self.type(Self.digits("89") + [.submit], into: &entry, from: 207) else {
            Issue.record("an overflowed entry was submitted")
            return
        }
        guard case .submitted(let secret) = Self.type(Self.digits("808080") + [.submit], into: &entry, from: 300) else {
            Issue.record("the entry after a refusal was not taken")
            return
        }
        #expect(secret.reveal() == "808080")
        guard case .ignored = entry.press(.submit, at: 400) else {
            Issue.record("submit with nothing typed did something")
            return
        }
    }

    /// 1,000 keys in a burst (a stuck key, a child, a fuzzer): the entry never holds more than a
    /// PIN's digits, gives at most one refusal per overflow, and never a secret it was not given.
    @Test func aFloodOfKeysIsBounded() throws {
        var entry = try Self.entry()
        var generator = SeededGenerator(seed: 21)
        var submitted: [String] = []
        var refusals = 0
        for index in 0..<1_000 {
            let key: KeypadKey = switch generator.next() % 20 {
            case 0: .submit
            case 1: .clear
            default: .digit(UInt8(generator.next() % 10))
            }
            switch entry.press(key, at: 1_000 + Double(index) * 0.001) {
            case .submitted(let secret): submitted.append(secret.reveal())
            case .rejected(.tooLong): refusals += 1
            default: break
            }
            #expect(entry.count <= 12)
        }
        #expect(submitted.allSatisfy { (4...12).contains($0.count) && $0.allSatisfy(\.isNumber) }, "\(submitted)")
        #expect(submitted.count <= 1_000 / 5)
        // Digits only: a run of 1,000 digits is one refusal and nothing else.
        var stuck = try Self.entry()
        var outcomes: [String] = []
        for index in 0..<1_000 {
            if case .rejected = stuck.press(.digit(8), at: Double(index) * 0.01) { outcomes.append("refused") }
        }
        #expect(outcomes == ["refused"] && stuck.count == 0)
    }

    @Test func settingsNoEntryCouldUseAreRefused() {
        #expect(throws: KeypadSettingsError.self) { try KeypadEntry.Settings(minimumDigits: 0) }
        #expect(throws: KeypadSettingsError.self) { try KeypadEntry.Settings(minimumDigits: 8, maximumDigits: 6) }
        #expect(throws: KeypadSettingsError.self) { try KeypadEntry.Settings(maximumDigits: 33) }
        #expect(throws: KeypadSettingsError.self) { try KeypadEntry.Settings(pause: 0.5) }
        #expect(throws: KeypadSettingsError.self) { try KeypadEntry.Settings(pause: .nan) }
        do {
            _ = try KeypadEntry.Settings(minimumDigits: 8, maximumDigits: 6)
            Issue.record("accepted")
        } catch {
            #expect(error.description == "the fewest digits (8) is more than the most (6)")
        }
    }
}

/// The kernel's key codes, read from its own header where it is installed (linux-libc-dev):
/// what a USB keypad, a keyboard, and the matrix-keypad and gpio-keys overlays send.
struct KeypadKeyTests {
    static let header = "/usr/include/linux/input-event-codes.h"

    static func codes() throws -> [String: UInt16] {
        let text = try String(contentsOfFile: header, encoding: .utf8)
        var codes: [String: UInt16] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("#define KEY_") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 3 else { continue }
            let value = words[2]
            let number = value.hasPrefix("0x") ? UInt16(value.dropFirst(2), radix: 16) : UInt16(value)
            if let number { codes[String(words[1])] = number }
        }
        return codes
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: header), "linux-libc-dev's input-event-codes.h is not installed"))
    func everyCodeADoorUsesMeansWhatTheKernelSays() throws {
        let codes = try Self.codes()
        func key(_ name: String) throws -> KeypadKey? { KeypadKey(linuxCode: try #require(codes[name], "\(name) missing")) }
        for digit in 0...9 {
            for name in ["KEY_\(digit)", "KEY_KP\(digit)", "KEY_NUMERIC_\(digit)"] {
                #expect(try key(name) == .digit(UInt8(digit)), "\(name)")
            }
        }
        for name in ["KEY_ENTER", "KEY_KPENTER", "KEY_NUMERIC_POUND"] { #expect(try key(name) == .submit, "\(name)") }
        for name in ["KEY_ESC", "KEY_BACKSPACE", "KEY_KPASTERISK", "KEY_DELETE", "KEY_NUMERIC_STAR"] {
            #expect(try key(name) == .clear, "\(name)")
        }
        // Every other key means nothing at a door.
        let meaningful = Set((0...9).flatMap { ["KEY_\($0)", "KEY_KP\($0)", "KEY_NUMERIC_\($0)"] }
                             + ["KEY_ENTER", "KEY_KPENTER", "KEY_NUMERIC_POUND", "KEY_ESC", "KEY_BACKSPACE", "KEY_KPASTERISK",
                                "KEY_DELETE", "KEY_NUMERIC_STAR"])
        let meaningfulCodes = Set(meaningful.compactMap { codes[$0] })
        for (name, code) in codes where !meaningfulCodes.contains(code) {
            #expect(KeypadKey(linuxCode: code) == nil, "\(name) (\(code)) should be ignored")
        }
    }
}
