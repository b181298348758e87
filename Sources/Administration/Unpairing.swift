import FingerprintModule
import FingerprintProtocol
import TemplateStore

extension Administrator {
    /// Key-value entry set while an `unpair` is under way, so the next open finishes it: the
    /// module may already have the factory password, or the factory address too.
    static let unpairingKey = "pairing.unpairing"

    /// Undoes `pair`: the module gets the factory password 00000000 and address FFFFFFFF back
    /// (SetPwd, then SetAdder), and the store forgets the pairing, with an `unpair` audit row.
    /// Needs the store that paired the module: only it knows the password and address. A module
    /// that already answers at the factory credentials (reset) only has its pairing forgotten; a
    /// swapped one is refused. Interrupted, the next open finishes it.
    @discardableResult
    public func unpair() throws -> ModuleIdentity {
        guard let identity = try store.moduleIdentity() else { throw AdministrationError.notPaired }
        switch finding {
        case .swapped:
            throw AdministrationError.untrustedModule(finding)
        case .reset:
            try Self.forgetPairing(store, detail: "forgot the pairing of the \(identity.family) module: it already answered to the factory password and address")
            finding = .unpaired
            return identity
        default:
            break
        }
        try store.setValue("1", forKey: Self.unpairingKey)
        try failpoint("unpair.before-module-write")
        try moduleStep("unpairing (SetPwd)") { try module.setPassword(0) }
        try failpoint("unpair.after-password")
        try moduleStep("unpairing (SetAdder)") { try module.setAddress(Frame.defaultAddress) }
        try module.reconnect()
        try Self.forgetPairing(store, detail: "set the \(identity.family) module back to the factory password and address; forgot the pairing")
        finding = .unpaired
        return identity
    }

    static func forgetPairing(_ store: TemplateStore, detail: String) throws {
        try store.transaction {
            try store.setModuleIdentity(nil)
            try store.setValue(nil, forKey: unpairingKey)
            try store.setValue(nil, forKey: previousCredentialsKey)
            try store.appendAudit(event: "unpair", detail: detail)
        }
    }
}

extension AdministrationOpener {
    /// An interrupted `unpair`: the module answers at the factory credentials (done but not
    /// recorded), or at the paired address with the factory or the paired password (cut before
    /// SetAdder or before SetPwd). Finishes it; nil when nothing answers at any of these.
    static func finishUnpairing(store: TemplateStore, identity: ModuleIdentity, connect: Connect) throws -> FingerprintModule? {
        // Probes: no answer with these credentials just means "try the next ones".
        if let module = try? connect(Frame.defaultAddress, 0, false) {
            try Administrator.forgetPairing(store, detail: "finished an interrupted unpair")
            return module
        }
        for password in [0, identity.password] {
            guard let module = try? connect(identity.address, password, false) else { continue }
            if password != 0 { try module.setPassword(0) }
            try module.setAddress(Frame.defaultAddress)
            try module.reconnect()
            try Administrator.forgetPairing(store, detail: "finished an interrupted unpair")
            return module
        }
        return nil
    }
}
