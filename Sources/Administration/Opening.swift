import FingerprintModule
import FingerprintProtocol
import Foundation
import TemplateStore

/// Opens a module for administration: with the paired address and password when the store has
/// a pairing, re-checking what answers; then reconciles. The transport is the caller's: it
/// passes a function that opens the module at an address and password (a serial port, the
/// simulator's pseudo-terminal, a socket of the service).
public enum AdministrationOpener {
    /// Opens the module at (address, password); throws when nothing answers. `probeBaudRates`
    /// false means: try only the configured rate (quick, for trying several credentials);
    /// true: also probe the other standard rates (the last resort).
    public typealias Connect = (_ address: UInt32, _ password: UInt32, _ probeBaudRates: Bool) throws -> FingerprintModule

    /// Connects, checks the module's identity against the pairing, and (when the module can be
    /// trusted) reconciles interrupted operations. A module that is reset or swapped throws
    /// `.untrustedModule` unless `allowUntrusted` (for `pair --force`).
    /// `unpaired` are the address and password to use while the store has no pairing.
    public static func open(store: TemplateStore, unpaired: (address: UInt32, password: UInt32),
                            allowUntrusted: Bool = false, connect: Connect) throws -> Administrator {
        let (module, finding) = try connectChecked(store: store, unpaired: unpaired, connect: connect)
        let administrator = Administrator(module: module, store: store)
        administrator.finding = finding
        if finding != .unpaired && finding != .verified {
            try store.appendAudit(event: finding.event, detail: finding.description)
        }
        switch finding {
        case .reset, .swapped:
            if !allowUntrusted { throw AdministrationError.untrustedModule(finding) }
        default:
            try administrator.reconcile()
        }
        return administrator
    }

    /// The connection and what it says about the module, without reconciling.
    public static func connectChecked(store: TemplateStore, unpaired: (address: UInt32, password: UInt32),
                                      connect: Connect) throws -> (FingerprintModule, IdentityFinding) {
        // Before any byte goes to the module: an image sensor's store is no module's.
        try StoreReaderKind.requireModuleStore(store)
        guard let identity = try store.moduleIdentity() else {
            return (try connect(unpaired.address, unpaired.password, true), .unpaired)
        }
        if try store.value(forKey: Administrator.unpairingKey) != nil,
           let module = try AdministrationOpener.finishUnpairing(store: store, identity: identity, connect: connect) {
            return (module, .unpaired)
        }
        let previous = Administrator.parseCredentials(try store.value(forKey: Administrator.previousCredentialsKey))
        let pairedError: Error
        do {
            let module = try connect(identity.address, identity.password, false)
            if previous != nil {
                // SetAdder went through but the pairing was not confirmed: confirm it now.
                try finishPairing(module, identity: identity, store: store)
                return (module, .pairingCompleted)
            }
            return (module, compare(module, with: identity))
        } catch {
            pairedError = error
        }
        if let previous {
            // Interrupted between SetPwd and SetAdder, or before SetPwd.
            for password in [identity.password, previous.password] {
                // A probe: no answer with these credentials just means "try the next ones".
                guard let module = try? connect(previous.address, password, false) else { continue }
                if password != identity.password { try module.setPassword(identity.password) }
                try module.setAddress(identity.address)
                try module.reconnect()
                try finishPairing(module, identity: identity, store: store)
                return (module, .pairingCompleted)
            }
        }
        // A probe at the factory address: an answer there is the finding `.reset`; silence is
        // no finding (the paired error below is what gets reported).
        if (previous == nil || previous! != (Frame.defaultAddress, 0)),
           let module = try? connect(Frame.defaultAddress, 0, false) {
            return (module, .reset)
        }
        // Perhaps only the baud rate changed: the paired credentials once more, probing rates.
        do {
            let module = try connect(identity.address, identity.password, true)
            return (module, compare(module, with: identity))
        } catch {
            throw pairedError
        }
    }

    static func finishPairing(_ module: FingerprintModule, identity: ModuleIdentity, store: TemplateStore) throws {
        var identity = identity
        identity.slotTableDigest = SlotTableDigest.of(try module.readIndexTable().occupied)
        try store.transaction {
            try store.setModuleIdentity(identity)
            try store.setValue(nil, forKey: Administrator.previousCredentialsKey)
            try store.appendAudit(event: "repair", detail: "finished an interrupted pairing")
        }
    }

    /// `.verified`, or `.swapped` naming what differs.
    static func compare(_ module: FingerprintModule, with identity: ModuleIdentity) -> IdentityFinding {
        var differences: [String] = []
        if let family = module.family?.rawValue, family != identity.family {
            differences.append("family \(family), paired \(identity.family)")
        }
        if let capacity = module.capacity, capacity != identity.capacity {
            differences.append("capacity \(capacity), paired \(identity.capacity)")
        }
        if let paired = identity.productInfo, let now = Administrator.productInfoText(module.productInfo), now != paired {
            differences.append("product information differs")
        }
        return differences.isEmpty ? .verified : .swapped(detail: differences.joined(separator: "; "))
    }
}
