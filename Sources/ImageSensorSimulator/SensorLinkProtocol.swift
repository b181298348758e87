import Foundation
import ImageSensor

/// The line protocol of a simulated sensor served to other processes
/// (`fpmod sim --profile fpc1020 --link PATH`, read by `SocketImageSensor`): one request line,
/// one reply line, over a Unix stream socket.
///
///     identity     →  ok WIDTH HEIGHT DPI MODEL<TAB>CONNECTION
///     reset        →  ok
///     wait MS      →  ok down   as soon as a finger is down (at once with auto-touch)
///                     ok up     when MS milliseconds passed without one
///     capture      →  ok image WIDTH HEIGHT BASE64   (WIDTH×HEIGHT grey bytes, row by row)
///     any of them  →  error no-images FOLDER | error unreadable-image PATH<TAB>REASON
///                     | error other TEXT
///
/// Base64 keeps an image on one line: 192×192 is 49 152 characters, under the 64 KiB line limit
/// of `UnixConnection`. Pure encoding and decoding; the sockets live in the server and client.
enum SensorLinkProtocol {
    static func identityReply(_ identity: SensorIdentity) -> String {
        "ok \(identity.width) \(identity.height) \(identity.dotsPerInch) \(identity.model)\t\(identity.connection)"
    }

    /// The identity of a reply's words after `ok`, or nil when they are not one.
    static func identity(from reply: String) -> SensorIdentity? {
        let words = reply.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
        guard words.count == 5, words[0] == "ok", let width = Int(words[1]), let height = Int(words[2]),
              let dpi = Int(words[3]) else { return nil }
        let names = words[4].split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        guard names.count == 2 else { return nil }
        return SensorIdentity(model: String(names[0]), hardwareID: nil, width: width, height: height, dotsPerInch: dpi,
                              connection: String(names[1]))
    }

    static func imageReply(_ image: SensorImage) -> String {
        "ok image \(image.width) \(image.height) " + Data(image.pixels).base64EncodedString()
    }

    static func image(from reply: String) -> SensorImage? {
        let words = reply.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 5, words[0] == "ok", words[1] == "image", let width = Int(words[2]), let height = Int(words[3]),
              let data = Data(base64Encoded: String(words[4])) else { return nil }
        return try? SensorImage(width: width, height: height, pixels: Array(data))
    }

    static func errorReply(_ error: ImageSensorError) -> String {
        switch error {
        case let .noImages(folder): "error no-images \(oneLine(folder))"
        case let .unreadableImage(path, reason): "error unreadable-image \(oneLine(path))\t\(oneLine(reason))"
        default: "error other \(oneLine(error.description))"
        }
    }

    /// The error an `error …` reply stands for; `path` is the link's, for errors of its own.
    static func error(from reply: String, path: String) -> ImageSensorError? {
        let words = reply.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count == 3, words[0] == "error" else { return nil }
        let rest = String(words[2])
        switch words[1] {
        case "no-images":
            return .noImages(folder: rest)
        case "unreadable-image":
            let parts = rest.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return .unreadableImage(path: String(parts[0]), reason: parts.count == 2 ? String(parts[1]) : "")
        default:
            return .sensorLink(path: path, problem: "the simulator reports: " + rest)
        }
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : $0 })
    }
}
