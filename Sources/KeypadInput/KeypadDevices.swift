import CEvdev
import Foundation
import Posix

/// The input devices of this machine that are keypads, and finding one by path or by name, now
/// or when it is plugged in.
public enum KeypadDevices {
    public struct Device: Equatable, Sendable {
        public let path: String
        public let name: String
        /// "NAME (PATH)", for lists in messages.
        public var listed: String { "\(name) (\(path))" }
    }

    public static let folder = "/dev/input"

    /// Every `/dev/input/eventN` with digit keys that this process may read, in N's order.
    /// Devices it may not open are left out (the messages that list keypads say how to get
    /// permission when the named one is such a device).
    public static func keypads() -> [Device] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let events = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("event"), let number = Int(name.dropFirst(5)) else { return nil }
            return (number, folder + "/" + name)
        }.sorted { $0.0 < $1.0 }
        return events.compactMap { _, path in
            guard let opened = try? EvdevKeypad.openDevice(path) else { return nil }
            defer { EvdevKeypad.release(opened.device, opened.descriptor) }
            return EvdevKeypad.hasDigitKeys(opened.device) ? Device(path: path, name: opened.name) : nil
        }
    }

    /// What a device is, looked at without grabbing it (a running service keeps its grab).
    public enum Inspection: Equatable, Sendable {
        case keypad(name: String)
        case notAKeypad(name: String)
        case unreadable(KeypadInputError)
    }

    public static func inspect(_ path: String) -> Inspection {
        do {
            let opened = try EvdevKeypad.openDevice(path)
            defer { EvdevKeypad.release(opened.device, opened.descriptor) }
            return EvdevKeypad.hasDigitKeys(opened.device) ? .keypad(name: opened.name) : .notAKeypad(name: opened.name)
        } catch {
            return .unreadable(error)
        }
    }

    /// The path a config or command names: a path (`/dev/input/by-id/usb-…-event-kbd`, whose
    /// symlink udev keeps stable across replugging) is taken as it is; anything else is a device
    /// name, looked up among the keypads. Waits up to `deadline` for it to appear (woken by the
    /// kernel through `DirectoryWatch`, not by polling).
    public static func resolve(_ spec: String, waitingUntil deadline: ContinuousClock.Instant? = nil) throws(KeypadInputError) -> String {
        while true {
            // Watch first, then look, so a device made in between still wakes the wait.
            let watch = deadline == nil ? nil : try? DirectoryWatch(path: watchedFolder(for: spec))
            if spec.hasPrefix("/") {
                if FileManager.default.fileExists(atPath: spec) { return spec }
            } else if let found = keypads().first(where: { $0.name == spec }) {
                return found.path
            }
            guard let watch, let deadline, ContinuousClock.now < deadline else { break }
            // A node appears before udev sets its permissions: look again within half a second.
            _ = try? watch.waitForChange(deadline: min(deadline, .now + .milliseconds(500)))
        }
        let keypads = keypads().map(\.listed)
        throw spec.hasPrefix("/") ? .notFound(path: spec, keypads: keypads) : .noneNamed(spec, keypads: keypads)
    }

    /// The deepest existing folder on the way to the device: /dev/input itself does not exist
    /// until the first input device does.
    public static func watchedFolder(for spec: String) -> String {
        var folder = spec.hasPrefix("/") ? (spec as NSString).deletingLastPathComponent : Self.folder
        while folder.count > 1, !FileManager.default.fileExists(atPath: folder) {
            folder = (folder as NSString).deletingLastPathComponent
        }
        return folder
    }
}
