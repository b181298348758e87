import Foundation
import Testing
@testable import SPI

/// A regular file of its own per test: it opens like a device node, answers every spidev
/// ioctl with ENOTTY (as /dev/null does), and its lock is no other test's.
final class NotADevice {
    let path = NSTemporaryDirectory() + "fpmod-not-spi-\(UUID().uuidString)"
    init() { _ = FileManager.default.createFile(atPath: path, contents: Data()) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

@Suite struct SPIDeviceTests {
    @Test func aMissingNodeNamesDtparam() throws {
        let path = "/dev/spidev-fpmod-test-\(UUID().uuidString)"
        do {
            _ = try SPIDevice.open(path: path, speedHz: 1_000_000)
            Issue.record("opened \(path)")
        } catch {
            guard case .noSuchDevice(let named, _) = error else { Issue.record("\(error)"); return }
            #expect(named == path)
            #expect(error.description.contains("dtparam=spi=on"))
            #expect(error.description.contains("/boot/firmware/config.txt"))
        }
    }

    /// A file answers every spidev ioctl with ENOTTY: opening tolerates that (as under
    /// umockdev), the first message does not.
    @Test func aDeviceThatIsNoSPIFailsAtTheFirstMessage() throws {
        let file = NotADevice()
        let device = try SPIDevice.open(path: file.path, speedHz: 1_000_000)
        defer { device.close() }
        #expect(!device.settingsConfirmed)
        do {
            _ = try device.transfer([.write([0xFC]), .read(2)], deadline: .now + .seconds(1))
            Issue.record("a transfer on a plain file succeeded")
        } catch {
            #expect(error == .notSPIDevice(path: file.path))
            #expect(error.description.contains("spidev"))
        }
    }

    @Test func aMessageLongerThanTheBufferIsRefusedWithTheFix() throws {
        let file = NotADevice()
        let device = try SPIDevice.open(path: file.path, speedHz: 1_000_000, maxMessageBytes: 4096)
        defer { device.close() }
        do {
            _ = try device.transfer([.write([0xC4, 0]), .read(36864)], deadline: .now + .seconds(5))
            Issue.record("transfer went through")
        } catch {
            #expect(error == .messageTooLong(path: file.path, bytes: 36864, limit: 4096))
            #expect(error.description.contains("spidev.bufsiz=65536"))
        }
    }

    @Test func aMessageThatCannotMeetItsDeadlineIsNotStarted() throws {
        // 4000 bytes at 100 kHz take 320 ms: a 10 ms deadline cannot be kept.
        let file = NotADevice()
        let device = try SPIDevice.open(path: file.path, speedHz: 100_000, maxMessageBytes: 4096)
        defer { device.close() }
        do {
            _ = try device.transfer([.read(4000)], deadline: .now + .milliseconds(10))
            Issue.record("transfer went through")
        } catch {
            #expect(error == .wouldMissDeadline(path: file.path, bytes: 4000, speedHz: 100_000))
        }
    }

    @Test func aClosedDeviceRefusesTransfers() throws {
        let file = NotADevice()
        let device = try SPIDevice.open(path: file.path, speedHz: 1_000_000)
        device.close()
        device.close()
        #expect(throws: SPIError.closed(path: file.path)) {
            _ = try device.transfer([.write([0])], deadline: .now + .seconds(1))
        }
    }

    @Test func aSecondOpenerIsToldWhoToStop() throws {
        let file = NotADevice()
        let first = try SPIDevice.open(path: file.path, speedHz: 1_000_000)
        #expect(throws: SPIError.busy(path: file.path)) { _ = try SPIDevice.open(path: file.path, speedHz: 1_000_000) }
        first.close()
        let again = try SPIDevice.open(path: file.path, speedHz: 1_000_000)
        again.close()
    }

    @Test func permissionTextNamesTheSPIGroup() {
        #expect(SPIError.permissionDenied(path: "/dev/spidev0.0").description.contains("`spi` group"))
    }
}
