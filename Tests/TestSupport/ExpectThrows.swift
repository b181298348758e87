import Testing

/// The error `body` throws, when it is an `E`; records an issue and returns nil otherwise.
///
/// Stands in for using the value of `#expect(throws: E.self) { … }`, which Swift Testing
/// returns only from Swift 6.1 on; Debian 13's toolchain is 6.0.
public func expectThrows<E: Error, R>(
    _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> E? {
    do {
        _ = try body()
        Issue.record("expected an error of type \(E.self), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as E {
        return error
    } catch {
        Issue.record("expected an error of type \(E.self), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
