import FingerprintModule
import FingerprintProtocol
import Foundation
import TemplateStore

extension Administrator {
    /// Key-value entry naming the address and password the module had before an unfinished
    /// `pair`, so the next open can still reach it. Cleared when pairing completes. It holds the
    /// *old* credentials (the factory ones on a first pairing) in clear for that short window;
    /// the new ones are stored encrypted in the pairing record before the module is touched.
    static let previousCredentialsKey = "pairing.previous"

    /// Gives the module a random 32-bit password and a random non-default address, and records
    /// both (encrypted) with what the module is: family, capacity, product info, slot table.
    /// Order: store the new identity → SetPwd → SetAdder (acked from the new address) →
    /// reconnect with the new values (handshake + VfyPwd) → clear the recovery entry.
    @discardableResult
    public func pair(force: Bool = false) throws -> ModuleIdentity {
        if try store.moduleIdentity() != nil, !force { throw AdministrationError.alreadyPaired }
        var random = SystemRandomNumberGenerator()
        var password: UInt32 = 0
        while password == 0 { password = random.next() }
        var address = Frame.defaultAddress
        while address == Frame.defaultAddress || address == 0 { address = random.next() }

        var identity = ModuleIdentity(family: module.family?.rawValue ?? ModuleFamily.r30x.rawValue, address: address,
                                      password: password, capacity: try capacity,
                                      productInfo: Self.productInfoText(module.productInfo))
        try store.transaction {
            try store.setValue(Self.credentialsText(address: module.address, password: module.password),
                               forKey: Self.previousCredentialsKey)
            try store.setModuleIdentity(identity)
        }
        try failpoint("pair.before-module-write")
        try moduleStep("pairing (SetPwd)") { try module.setPassword(password) }
        try failpoint("pair.after-password")
        try moduleStep("pairing (SetAdder)") { try module.setAddress(address) }
        try failpoint("pair.after-address")
        try module.reconnect()
        identity.slotTableDigest = SlotTableDigest.of(try occupiedSlots())
        try store.transaction {
            try store.setModuleIdentity(identity)
            try store.setValue(nil, forKey: Self.previousCredentialsKey)
            try store.appendAudit(event: "pair", detail: "paired a \(identity.family) module with \(identity.capacity) slots at a new address")
        }
        finding = .verified
        return identity
    }

    static func credentialsText(address: UInt32, password: UInt32) -> String {
        String(address, radix: 16) + ":" + String(password, radix: 16)
    }

    static func parseCredentials(_ text: String?) -> (address: UInt32, password: UInt32)? {
        guard let parts = text?.split(separator: ":"), parts.count == 2,
              let address = UInt32(parts[0], radix: 16), let password = UInt32(parts[1], radix: 16) else { return nil }
        return (address, password)
    }

    /// Product info as stable JSON text (sorted keys), nil for families without it.
    static func productInfoText(_ info: ProductInfo?) -> String? {
        guard let info else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding a struct of strings and integers cannot fail; nil would only mean "no info".
        return (try? encoder.encode(info)).map { String(decoding: $0, as: UTF8.self) }
    }
}
