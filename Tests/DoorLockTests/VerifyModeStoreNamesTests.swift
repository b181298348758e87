import AccessPolicy
import TemplateStore
import Testing

/// A restore checks a backup's verify modes against the store's list of names (TemplateStore
/// cannot see `VerifyMode`): a mode added to one and not the other would be refused, or written
/// and then refused by the store's CHECK, after the restore began.
@Suite struct VerifyModeStoreNamesTests {
    @Test func theStoreTakesExactlyTheVerifyModes() {
        #expect(TemplateStore.verifyModeNames.sorted() == VerifyMode.allCases.map(\.rawValue).sorted())
    }
}
