import ConsoleAuth
import Foundation
import Synchronization
import TemplateStore
import TestSupport
import Testing

/// The one-time code that makes the first admin.
struct SetupCodeTests {
    @Test func aCodeIsFourGroupsOfFourUnambiguousCharacters() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let code = try fixture.setupCode.issue()
        let groups = code.split(separator: "-")
        #expect(groups.count == 4 && groups.allSatisfy { $0.count == 4 }, "\(code)")
        #expect(code.replacingOccurrences(of: "-", with: "").allSatisfy { SetupCode.alphabet.contains($0) })
        #expect(!contains(fixture.storeBytes(), code.replacingOccurrences(of: "-", with: "")), "kept as a hash only")
        #expect(try fixture.setupCode.needed())
    }

    /// The first redeem makes an admin; the code is gone afterwards, even with no account left.
    @Test func aCodeWorksOnce() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let code = try fixture.setupCode.issue()
        let account = try fixture.setupCode.redeem(code: code, name: "alice", password: "correct horse battery")
        #expect(account.name == "alice" && account.role == .admin)
        #expect(try !fixture.setupCode.needed())
        #expect(throws: ConsoleAuthError.alreadySetUp) { try fixture.setupCode.redeem(code: code, name: "bob", password: "correct horse battery") }
        try fixture.store.deleteConsoleAccount(name: "alice")
        #expect(throws: ConsoleAuthError.noSetupCode) { try fixture.setupCode.redeem(code: code, name: "bob", password: "correct horse battery") }
        #expect(try fixture.store.consoleAccounts().isEmpty)
    }

    @Test func aCodeIsRefusedOnceAnAccountExists() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.store.addConsoleAccount(name: "alice", role: .viewer, passwordHash: try Passwords.hash("correct horse battery"))
        let code = try fixture.setupCode.issue()
        #expect(throws: ConsoleAuthError.alreadySetUp) { try fixture.setupCode.redeem(code: code, name: "mallory", password: "correct horse battery") }
        #expect(try fixture.store.consoleAccounts().map(\.name) == ["alice"])
    }

    @Test func anExpiredCodeIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let code = try fixture.setupCode.issue()
        fixture.clock.advance(24 * 3600)
        #expect(throws: ConsoleAuthError.setupCodeExpired) { try fixture.setupCode.redeem(code: code, name: "alice", password: "correct horse battery") }
        #expect(try fixture.setupCode.needed())
    }

    /// A wrong code (or a bad name or password) leaves the code as it is; the right one, typed
    /// in lower case with spaces, works afterwards.
    @Test func aWrongCodeIsRefusedAndDoesNotConsumeIt() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let code = try fixture.setupCode.issue()
        #expect(throws: ConsoleAuthError.wrongSetupCode) { try fixture.setupCode.redeem(code: "0000-0000-0000-0000", name: "alice", password: "correct horse battery") }
        #expect(throws: ConsoleAuthError.weakPassword(.tooShort(characters: 5))) { try fixture.setupCode.redeem(code: code, name: "alice", password: "short") }
        #expect(expectThrows(ConsoleAuthError.self) { try fixture.setupCode.redeem(code: code, name: "al ice", password: "correct horse battery") }?.status == 400)
        let typed = code.lowercased().replacingOccurrences(of: "-", with: " ")
        #expect(try fixture.setupCode.redeem(code: typed, name: "alice", password: "correct horse battery").name == "alice")
    }

    @Test func aNewCodeReplacesTheEarlierOne() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let first = try fixture.setupCode.issue()
        let second = try fixture.setupCode.issue()
        #expect(throws: ConsoleAuthError.wrongSetupCode) { try fixture.setupCode.redeem(code: first, name: "alice", password: "correct horse battery") }
        try fixture.setupCode.redeem(code: second, name: "alice", password: "correct horse battery")
    }

    /// Two requests, each on its own connection to the file, redeem one code at once: exactly
    /// one account is made.
    @Test func twoRacingRedeemsMakeExactlyOneAccount() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let code = try fixture.setupCode.issue()
        let stores = [try fixture.open(), try fixture.open()]
        let outcomes = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        for (index, store) in stores.enumerated() {
            let clock = fixture.clock.clock
            Thread {
                do {
                    try SetupCode(store: store, clock: clock).redeem(code: code, name: "admin\(index)", password: "correct horse battery")
                    outcomes.withLock { $0.append("made") }
                } catch let error as ConsoleAuthError {
                    outcomes.withLock { $0.append("refused: \(error)") }
                } catch {
                    outcomes.withLock { $0.append("failed: \(error)") }
                }
                done.signal()
            }.start()
        }
        done.wait()
        done.wait()
        let seen = outcomes.withLock { $0 }
        #expect(seen.filter { $0 == "made" }.count == 1, "\(seen)")
        #expect(seen.filter { $0.hasPrefix("refused") }.count == 1, "\(seen)")
        #expect(try fixture.store.consoleAccounts().count == 1)
    }
}
