/// Why the host matcher could not enroll, identify or verify. None of these is a match: a caller
/// that gets one keeps the door shut.
public enum HostMatchingError: Error, Equatable, CustomStringConvertible {
    /// libfprint did not list its virtual_image device (a libfprint built without it).
    case virtualDeviceMissing(drivers: [String])
    /// libfprint failed to start (open) the device, or an operation failed inside it.
    case libfprint(operation: String, message: String)
    /// Fewer good images than enroll stages: some showed too few minutiae.
    case notEnoughUsableImages(needed: Int, accepted: Int, rejectedIndices: [Int])
    /// The probe image gave too few minutiae to compare (a smudge, a partial or empty finger).
    case unusableImage(reason: String)
    /// A template that cannot be read back (damaged or not made by this matcher).
    case unreadableTemplate(index: Int, message: String)
    /// A template of format 1: made by fpmod's first image-sensor matcher (libfprint's NBIS),
    /// which this matcher does not read; the finger must be enrolled again.
    case olderTemplateFormat(index: Int)
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// libfprint did not finish within the deadline (should not happen; the device is stuck).
    case timedOut(operation: String, seconds: Int)
    /// libfprint's overheating guard: it models every device as heating while active (about 3
    /// minutes of continuous use) and refuses work until it has cooled (minutes).
    case deviceTooHot
    /// The socket to the virtual device failed.
    case socket(operation: String, errno: Int32)

    public var description: String {
        switch self {
        case let .virtualDeviceMissing(drivers):
            "libfprint has no virtual_image device (it offered: \(drivers.isEmpty ? "none" : drivers.joined(separator: ", "))); install Debian's libfprint-2-2, which builds it in"
        case let .libfprint(operation, message):
            "libfprint failed to \(operation): \(message)"
        case let .notEnoughUsableImages(needed, accepted, rejected):
            "enrollment needs \(needed) usable images, got \(accepted) (images \(rejected.map(String.init).joined(separator: ", ")) showed too few ridge details); capture more images, pressing the whole fingertip flat"
        case let .unusableImage(reason):
            "the image cannot be matched (\(reason)); place the finger again, flat and still"
        case let .unreadableTemplate(index, message):
            "template \(index) cannot be read (\(message)); re-enroll that finger"
        case .olderTemplateFormat(let index):
            "template \(index) was made by an older fpmod matcher (template format 1, libfprint's NBIS; 2, without the ridges' directions; or 3, without the ridge pixels) that this version no longer reads; enroll that finger again"
        case let .imageTooLarge(width, height, limit):
            "a \(width)×\(height) image is larger than \(limit) pixels on a side; fit it to the sensor size first"
        case let .timedOut(operation, seconds):
            "libfprint did not finish \(operation) within \(seconds) s; restart fpmod"
        case .deviceTooHot:
            "libfprint paused matching after long continuous use (its overheating guard); wait a few minutes, and keep galleries small enough that a search takes well under a second"
        case let .socket(operation, errno):
            "the virtual image socket failed to \(operation) (errno \(errno)); check that the temporary folder is writable"
        }
    }
}
