import Administration
import ArgumentParsing
import FingerprintModule
import FingerprintProtocol
import HostReader
import PrintableText
import ReaderSessions

/// `fpmod info`: what the module says about itself; for an image sensor, the reader and the
/// sensor's identity (`ReaderInfo`).
enum InfoCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let info = try ReaderInfo.read(try invocation.readerOptions())
        // One line each: the product strings are whatever the device sends.
        invocation.emit(lines(info).map { Printable.escaped($0) }.joined(separator: "\n"), json: info.json)
        return .ok
    }

    static func lines(_ info: ReaderInfo) -> [String] {
        switch info {
        case .module(let module):
            let parameters = module.parameters
            var lines = [
                "Module:          \(module.family.profile.displayName) (family \(module.family))",
                "Port:            \(module.port)",
                "Baud rate:       \(parameters.baudRate) (N = \(parameters.baudMultiplier))",
                "Address:         \(parameters.address.hex8)",
                "Capacity:        \(parameters.capacity) templates",
                "Templates used:  \(module.templateCount)" + (module.occupied.isEmpty ? "" : " (slots \(SlotList.format(module.occupied)))"),
                "Security level:  \(parameters.securityLevel)",
                "Packet size:     \(parameters.packetSize.map(String.init) ?? "code \(parameters.packetSizeCode)") bytes",
                "Status:          \(parameters.status.summary)",
            ]
            if let product = module.product {
                lines += [
                    "Product:         \(product.model) batch \(product.batch) serial \(product.serial), hardware \(product.hardwareMajor).\(product.hardwareMinor)",
                    "Sensor:          \(product.sensorModel), \(product.imageWidth)×\(product.imageHeight) px, templates of \(product.templateSize) bytes",
                ]
            }
            return lines
        case .imageSensor(let sensor):
            return [
                "Reader:          \(sensor.reader)",
                "Sensor:          \(sensor.identity)",
                "Enrolled:        " + (sensor.enrolled.map { "\($0.fingers) finger(s) of \($0.users) user(s), of \(HostReader.defaultCapacity)" }
                                       ?? "no store yet (enroll someone to start one)"),
            ]
        }
    }
}
