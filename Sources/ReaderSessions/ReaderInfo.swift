import Administration
import FingerprintModule
import FingerprintProtocol
import Foundation
import HostReader
import ImageSensor
import JSONValue
import TemplateStore

/// What the reader the options name says about itself (`fpmod info`, a console's device page):
/// a module's parameters, index table and product strings, or an image sensor's identity with
/// what the store holds. Only reads: the module's flash and the store are left as they are.
public enum ReaderInfo {
    case module(ModuleInfo)
    case imageSensor(SensorInfo)

    public struct ModuleInfo {
        public let family: ModuleFamily
        public let port: String
        public let parameters: SystemParameters
        public let occupied: Set<Int>
        public let templateCount: Int
        public let product: ProductInfo?
    }

    public struct SensorInfo {
        public let reader: ReaderDescription
        public let identity: SensorIdentity
        /// Users and fingers in the store; nil without a store yet.
        public let enrolled: (users: Int, fingers: Int)?
    }

    /// Opens the reader, reads, and closes it again.
    public static func read(_ options: ReaderOptions) throws -> ReaderInfo {
        let choice = try ReaderChoice(options)
        if choice.isImageSensor {
            let session = try ImageSensorSession.open(options, choice: choice, virtualFinger: nil)
            defer { session.close() }
            let identity = session.sensor.identity
            let reader = ReaderDescription(kind: .imageSensor, model: identity.model, capacity: HostReader.defaultCapacity,
                                           connection: identity.connection)
            var enrolled: (users: Int, fingers: Int)?
            if let database = options.storeDatabase, let key = options.storeKey, FileManager.default.fileExists(atPath: database) {
                let store = try TemplateStore(readingOnly: database, keyPath: key)
                enrolled = (try store.users().count, try store.allFingers().count)
            }
            return .imageSensor(SensorInfo(reader: reader, identity: identity, enrolled: enrolled))
        }
        let session = try ModuleSession.openVerified(options)
        defer { session.close() }
        let module = session.module
        let parameters = try module.readSystemParameters()
        let table = try module.readIndexTable()
        return .module(ModuleInfo(family: module.family ?? .r30x, port: module.transport.description, parameters: parameters,
                                  occupied: table.occupied, templateCount: try module.templateCount(), product: module.productInfo))
    }

    /// The JSON `fpmod info --json` prints (and a console serves).
    public var json: JSONValue {
        switch self {
        case .module(let info):
            let parameters = info.parameters
            var json: [String: JSONValue] = [
                "kind": .string(ReaderDescription.Kind.module.rawValue),
                "family": .string(info.family.rawValue),
                "port": .string(info.port),
                "baudRate": .int(Int64(parameters.baudRate)),
                "address": .string(parameters.address.hex8),
                "capacity": .int(Int64(parameters.capacity)),
                "templateCount": .int(Int64(info.templateCount)),
                "occupiedSlots": .array(info.occupied.sorted().map { .int(Int64($0)) }),
                "securityLevel": .int(Int64(parameters.securityLevel)),
                "packetSize": parameters.packetSize.map { .int(Int64($0)) } ?? .null,
                "status": .int(Int64(parameters.status.rawValue)),
            ]
            if let product = info.product {
                json["productInfo"] = [
                    "model": .string(product.model), "batch": .string(product.batch), "serial": .string(product.serial),
                    "hardwareVersion": .string("\(product.hardwareMajor).\(product.hardwareMinor)"),
                    "sensor": .string(product.sensorModel), "imageWidth": .int(Int64(product.imageWidth)),
                    "imageHeight": .int(Int64(product.imageHeight)), "templateSize": .int(Int64(product.templateSize)),
                    "capacity": .int(Int64(product.capacity)),
                ]
            }
            return .object(json)
        case .imageSensor(let info):
            let reader = info.reader, identity = info.identity
            var json: [String: JSONValue] = [
                "kind": .string(reader.kind.rawValue), "model": .string(reader.model),
                "capacity": .int(Int64(HostReader.defaultCapacity)), "connection": .string(reader.connection),
                "sensor": ["model": .string(identity.model), "hardwareId": identity.hardwareID.map { .int(Int64($0)) } ?? .null,
                           "width": .int(Int64(identity.width)), "height": .int(Int64(identity.height)),
                           "dpi": .int(Int64(identity.dotsPerInch)), "connection": .string(identity.connection)],
            ]
            if let enrolled = info.enrolled {
                json["users"] = .int(Int64(enrolled.users))
                json["templateCount"] = .int(Int64(enrolled.fingers))
            }
            return .object(json)
        }
    }
}
