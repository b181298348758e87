import ConsoleHTTP
import DoorLock
import Foundation
import Glibc
import Posix

/// The console's TLS certificate: the user's (config `console.certificate` and `console.key`),
/// else a self-signed one made on first start and kept beside the store (key 0600), for the
/// names and addresses this machine is reached by. Its SHA-256 fingerprint is what
/// `fpmod console url` prints, for the user to compare with the browser's.
public struct ConsoleCertificate: Sendable {
    public var certificatePEM: String
    public var privateKeyPEM: String
    public var sha256Fingerprint: String
    public var certificatePath: String

    /// Where the self-signed pair lives: the store's folder.
    public static func defaultPaths(storeDatabase: String) -> (certificate: String, key: String) {
        let directory = (storeDatabase as NSString).deletingLastPathComponent
        return (directory + "/console-cert.pem", directory + "/console-key.pem")
    }

    public static func loadOrCreate(_ console: LockConfig.Console, storeDatabase: String) throws -> ConsoleCertificate {
        if let certificatePath = console.certificate, let keyPath = console.key {
            let certificate = try read(certificatePath, what: "console.certificate")
            let key = try read(keyPath, what: "console.key")
            return ConsoleCertificate(certificatePEM: certificate, privateKeyPEM: key,
                                      sha256Fingerprint: try SelfSignedCertificate.fingerprint(ofPEM: certificate),
                                      certificatePath: certificatePath)
        }
        let paths = defaultPaths(storeDatabase: storeDatabase)
        if FileSystem.exists(paths.certificate), FileSystem.exists(paths.key) {
            let certificate = try read(paths.certificate, what: "the console's certificate")
            return ConsoleCertificate(certificatePEM: certificate, privateKeyPEM: try read(paths.key, what: "the console's key"),
                                      sha256Fingerprint: try SelfSignedCertificate.fingerprint(ofPEM: certificate),
                                      certificatePath: paths.certificate)
        }
        let names = MachineNames.current(extra: console.hostNames)
        let made = try SelfSignedCertificate.make(commonName: names.hostNames.first ?? "fpmod", hostNames: names.hostNames,
                                                  ipAddresses: names.addresses)
        // The key first and private; the certificate last, so a half-made pair is never taken as whole.
        try AtomicFile.replace(paths.key, with: Array(made.privateKeyPEM.utf8), mode: 0o600)
        try AtomicFile.replace(paths.certificate, with: Array(made.certificatePEM.utf8), mode: 0o644)
        return ConsoleCertificate(certificatePEM: made.certificatePEM, privateKeyPEM: made.privateKeyPEM,
                                  sha256Fingerprint: made.sha256Fingerprint, certificatePath: paths.certificate)
    }

    static func read(_ path: String, what: String) throws -> String {
        guard let bytes = try FileSystem.contents(of: path), let text = String(bytes: bytes, encoding: .utf8) else {
            throw ConsoleStartError("\(what) \(path) cannot be read; check that it exists and that the service may read it.")
        }
        return text
    }
}

/// The names and IPv4 addresses this machine answers to: its host name, that name in `.local`
/// (mDNS, as a Raspberry Pi announces itself), localhost, and each interface's address.
public struct MachineNames: Sendable {
    public var hostNames: [String]
    public var addresses: [String]

    public static func current(extra: [String] = []) -> MachineNames {
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0 ? Self.text(buffer) : ""
        var names: [String] = []
        for name in [host, host.isEmpty || host.contains(".") ? "" : host + ".local", "localhost"] + extra
        where !name.isEmpty && !names.contains(name) {
            names.append(name)
        }
        return MachineNames(hostNames: names, addresses: interfaceAddresses())
    }

    static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// getifaddrs(3): every IPv4 address of an interface that is up, loopback first.
    static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return ["127.0.0.1"] }
        defer { freeifaddrs(list) }
        var addresses = ["127.0.0.1"]
        var cursor = list
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var raw = inet.pointee.sin_addr
                _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
            }
            let value = Self.text(text)
            if !addresses.contains(value) { addresses.append(value) }
        }
        return addresses
    }
}

public struct ConsoleStartError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
