import Foundation
import Glibc
import Keypad
import KeypadInput
import Testing
import TestSupport

/// The keypad on the input subsystem. Here, what needs no input device: refusals before
/// anything is made or opened. Where `/dev/uinput` can be written (root, a kernel with uinput:
/// the VM tier; `tools/gpio-vm-test.sh` runs `fpmod keypad` there too), a real virtual keypad
/// made in the kernel is found, grabbed and read.
struct KeypadInputTests {
    @Test func aPathThatIsNoInputDeviceIsNotFoundAndTheKeypadsAreListed() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        try "not a device".write(toFile: folder.file("file"), atomically: true, encoding: .utf8)
        for path in [folder.file("missing"), folder.file("file")] {
            do {
                _ = try EvdevKeypad(path: path)
                Issue.record("\(path) was opened as a keypad")
            } catch {
                guard case .notFound(let named, _) = error else {
                    Issue.record("\(path): \(error)")
                    continue
                }
                #expect(named == path)
                #expect(error.description.hasPrefix("No input device at \(path)."), "\(error)")
            }
        }
    }

    @Test func aNameNoDeviceHasIsRefusedAfterItsWait() throws {
        let name = "no such keypad \(getpid())"
        let started = ContinuousClock.now
        do {
            _ = try KeypadDevices.resolve(name, waitingUntil: .now + .milliseconds(300))
            Issue.record("found")
        } catch {
            #expect(error == .noneNamed(name, keypads: KeypadDevices.keypads().map(\.listed)))
            #expect(ContinuousClock.now - started >= .milliseconds(300), "it waited for the device")
        }
    }

    @Test func keysToTypeAreCheckedBeforeAnyDeviceIsMade() throws {
        #expect(try VirtualKeypad.codes(for: "12*#") == [0x201, 0x202, 0x20A, 0x20B])
        for bad in ["", "12a4", "1 2", "1\u{1B}[2J", String(repeating: "1", count: 257)] {
            do {
                _ = try VirtualKeypad.codes(for: bad)
                Issue.record("\(bad.debugDescription) accepted")
            } catch {
                guard case .badKeys(let reason) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(!reason.contains("\u{1B}"), "the refusal shows the key escaped: \(reason)")
            }
        }
    }

    @Test func aDeviceNameIsShownEscaped() {
        let error = KeypadInputError.notAKeypad(path: "/dev/input/event9", name: "evil\u{1B}[2Jname")
        #expect(!error.description.contains("\u{1B}") && error.description.contains("\\e[2J"), "\(error)")
    }

    static var uinputWritable: Bool { access("/dev/uinput", W_OK) == 0 }

    /// A real keypad in the kernel: made with uinput, found by its name, grabbed, and a PIN
    /// typed on it read back as the door reads it.
    @Test(.enabled(if: uinputWritable, "/dev/uinput is not writable here (no uinput module, or not root); the VM tier runs this path"))
    func aVirtualKeypadTypesAnEntryThatIsReadBack() throws {
        let name = "fpmod test keypad \(getpid())"
        let virtual = try VirtualKeypad(name: name)
        let path = try KeypadDevices.resolve(name, waitingUntil: .now + .seconds(5))
        #expect(path == virtual.devicePath || virtual.devicePath.isEmpty)
        let keypad = try EvdevKeypad(path: path)
        #expect(keypad.name == name)
        // Held: a second reader cannot grab it.
        #expect(throws: KeypadInputError.busy(path: path)) { _ = try EvdevKeypad(path: path) }
        try virtual.type("*4711#", interval: .milliseconds(5))
        var entry = KeypadEntry(try KeypadEntry.Settings())
        var pin: String?
        let deadline = ContinuousClock.now + .seconds(5)
        while pin == nil, ContinuousClock.now < deadline {
            for case .pressed(let key, let time) in try keypad.read(until: deadline) {
                if case .submitted(let secret) = entry.press(key, at: time) { pin = secret.reveal() }
            }
        }
        #expect(pin == "4711")
    }
}
