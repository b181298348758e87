import Administration
import ArgumentParsing
import FingerprintModule
import FingerprintProtocol
import Foundation
import HostReader
import PrintableText
import ReaderSessions
import TemplateStore

/// `fpmod info`: what the module says about itself; for an image sensor, the reader and the
/// sensor's identity.
enum InfoCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let choice = try invocation.readerChoice()
        if choice.isImageSensor { return try imageSensor(invocation, choice) }
        let session = try ModuleSession.openVerified(try invocation.readerOptions())
        defer { session.close() }
        let module = session.module
        let parameters = try module.readSystemParameters()
        let table = try module.readIndexTable()
        let count = try module.templateCount()
        let family = module.family ?? .r30x
        let info = module.productInfo

        var lines = [
            "Module:          \(family.profile.displayName) (family \(family))",
            "Port:            \(module.transport.description)",
            "Baud rate:       \(parameters.baudRate) (N = \(parameters.baudMultiplier))",
            "Address:         \(parameters.address.hex8)",
            "Capacity:        \(parameters.capacity) templates",
            "Templates used:  \(count)" + (table.occupied.isEmpty ? "" : " (slots \(SlotList.format(table.occupied)))"),
            "Security level:  \(parameters.securityLevel)",
            "Packet size:     \(parameters.packetSize.map(String.init) ?? "code \(parameters.packetSizeCode)") bytes",
            "Status:          \(describe(parameters.status))",
        ]
        if let info {
            lines += [
                "Product:         \(info.model) batch \(info.batch) serial \(info.serial), hardware \(info.hardwareMajor).\(info.hardwareMinor)",
                "Sensor:          \(info.sensorModel), \(info.imageWidth)×\(info.imageHeight) px, templates of \(info.templateSize) bytes",
            ]
        }
        var json: [String: JSONValue] = [
            "kind": .string(ReaderDescription.Kind.module.rawValue),
            "family": .string(family.rawValue),
            "port": .string(module.transport.description),
            "baudRate": .int(Int64(parameters.baudRate)),
            "address": .string(parameters.address.hex8),
            "capacity": .int(Int64(parameters.capacity)),
            "templateCount": .int(Int64(count)),
            "occupiedSlots": .array(table.occupied.sorted().map { .int(Int64($0)) }),
            "securityLevel": .int(Int64(parameters.securityLevel)),
            "packetSize": parameters.packetSize.map { .int(Int64($0)) } ?? .null,
            "status": .int(Int64(parameters.status.rawValue)),
        ]
        if let info {
            json["productInfo"] = [
                "model": .string(info.model), "batch": .string(info.batch), "serial": .string(info.serial),
                "hardwareVersion": .string("\(info.hardwareMajor).\(info.hardwareMinor)"),
                "sensor": .string(info.sensorModel), "imageWidth": .int(Int64(info.imageWidth)),
                "imageHeight": .int(Int64(info.imageHeight)), "templateSize": .int(Int64(info.templateSize)),
                "capacity": .int(Int64(info.capacity)),
            ]
        }
        // One line each: the product strings are whatever the device sends.
        invocation.emit(lines.map { Printable.escaped($0) }.joined(separator: "\n"), json: .object(json))
        return .ok
    }

    /// The sensor as it identifies itself, matching on the host, and what the store holds. The
    /// store is only read (no store yet is fine): info records nothing.
    private static func imageSensor(_ invocation: Invocation, _ choice: ReaderChoice) throws -> ExitCode {
        let session = try ImageSensorSession.open(try invocation.readerOptions(), choice: choice, virtualFinger: nil)
        defer { session.close() }
        let identity = session.sensor.identity
        let reader = ReaderDescription(kind: .imageSensor, model: identity.model, capacity: HostReader.defaultCapacity,
                                       connection: identity.connection)
        var enrolled: (users: Int, fingers: Int)?
        if FileManager.default.fileExists(atPath: invocation.storePaths.database) {
            let store = try invocation.openStoreForReading()
            enrolled = (try store.users().count, try store.allFingers().count)
        }
        let lines = [
            "Reader:          \(reader)",
            "Sensor:          \(identity)",
            "Enrolled:        " + (enrolled.map { "\($0.fingers) finger(s) of \($0.users) user(s), of \(HostReader.defaultCapacity)" }
                                   ?? "no store yet (enroll someone to start one)"),
        ]
        var json: [String: JSONValue] = [
            "kind": .string(reader.kind.rawValue), "model": .string(reader.model),
            "capacity": .int(Int64(HostReader.defaultCapacity)), "connection": .string(reader.connection),
            "sensor": ["model": .string(identity.model), "hardwareId": identity.hardwareID.map { .int(Int64($0)) } ?? .null,
                       "width": .int(Int64(identity.width)), "height": .int(Int64(identity.height)),
                       "dpi": .int(Int64(identity.dotsPerInch)), "connection": .string(identity.connection)],
        ]
        if let enrolled {
            json["users"] = .int(Int64(enrolled.users))
            json["templateCount"] = .int(Int64(enrolled.fingers))
        }
        // One line each: the product strings are whatever the device sends.
        invocation.emit(lines.map { Printable.escaped($0) }.joined(separator: "\n"), json: .object(json))
        return .ok
    }

    static func describe(_ status: SystemParameters.Status) -> String {
        var parts: [String] = []
        if status.contains(.busy) { parts.append("busy") }
        if status.contains(.lastMatchSucceeded) { parts.append("last match succeeded") }
        if status.contains(.passwordVerified) { parts.append("password verified") }
        if status.contains(.imageBufferValid) { parts.append("image in buffer") }
        return parts.isEmpty ? "idle" : parts.joined(separator: ", ")
    }
}

/// "0–3, 7, 10–12": a compact list of slot numbers.
enum SlotList {
    static func format(_ slots: Set<Int>) -> String {
        var ranges: [String] = []
        var sorted = slots.sorted()[...]
        while let first = sorted.first {
            var last = first
            sorted = sorted.dropFirst()
            while let next = sorted.first, next == last + 1 {
                last = next
                sorted = sorted.dropFirst()
            }
            ranges.append(first == last ? "\(first)" : "\(first)–\(last)")
        }
        return ranges.joined(separator: ", ")
    }
}
