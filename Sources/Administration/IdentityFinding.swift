/// What the module on the port turned out to be, compared with the paired identity in the store.
public enum IdentityFinding: Equatable, Sendable, CustomStringConvertible {
    /// The store has no pairing: the module is used with the address and password given.
    case unpaired
    /// The module answered at the paired address and password and looks the same.
    case verified
    /// An interrupted `pair` was found half done and finished at this open.
    case pairingCompleted
    /// The module answers at the factory address and password although the store is paired:
    /// it was reset, or replaced by a new module.
    case reset
    /// The module answers at the paired address and password but is another kind of module.
    case swapped(detail: String)
    /// The module's library holds slots the store never wrote, or lacks slots it wrote,
    /// without an interrupted operation to explain it.
    case foreign(unknownSlots: [Int], missingSlots: [Int])

    /// True when the module may be used as the paired one.
    public var isTrusted: Bool {
        switch self {
        case .unpaired, .verified, .pairingCompleted: true
        case .reset, .swapped, .foreign: false
        }
    }

    /// The event name for the audit log and the event socket.
    public var event: String {
        switch self {
        case .unpaired: "unpaired"
        case .verified: "verified"
        case .pairingCompleted: "pairing-completed"
        case .reset: "module-reset"
        case .swapped: "module-swapped"
        case .foreign: "module-foreign"
        }
    }

    public var description: String {
        switch self {
        case .unpaired: return "the module is not paired"
        case .verified: return "the module is the paired one"
        case .pairingCompleted: return "an interrupted pairing was completed"
        case .reset:
            return "tamper: a module answers at the factory address, not at the paired one: this is not the module paired with this store (replaced, reset or foreign). If you replaced it on purpose, pair it again with `fpmod pair --force`, then `fpmod restore BACKUP` or `fpmod sync`"
        case .swapped(let detail):
            return "tamper: the module answers with the paired password but is not the paired module (\(detail)). If you replaced it on purpose, run `fpmod pair --force`, then `fpmod sync`"
        case .foreign(let unknown, let missing):
            var parts: [String] = []
            if !unknown.isEmpty { parts.append("slots \(unknown.map(String.init).joined(separator: ",")) that the store never wrote") }
            if !missing.isEmpty { parts.append("no template in slots \(missing.map(String.init).joined(separator: ",")) that the store wrote") }
            return "tamper: the module library changed outside fpmod: it has " + parts.joined(separator: " and ")
                + ". Run `fpmod sync` to make the module equal to the store"
        }
    }
}
