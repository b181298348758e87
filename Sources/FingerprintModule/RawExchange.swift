import FingerprintProtocol

extension FingerprintModule {
    /// Sends any command and returns the module's ack as it came, for `fpmod raw` and
    /// diagnostics. The same receive rules apply (flush, deadline, resync); the family check
    /// does not, so a tester can probe what a module really supports.
    public func exchange(_ command: Command) throws(ModuleError) -> Acknowledgement {
        try perform(command)
    }
}
