import Foundation
import Testing
@testable import SPI

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

    /// /dev/null answers every spidev ioctl with ENOTTY: opening tolerates that (as under
    /// umockdev), the first message does not.
    @Test func aDeviceThatIsNoSPIFailsAtTheFirstMessage() throws {
        let device = try SPIDevice.open(path: "/dev/null", speedHz: 1_000_000)
        defer { device.close() }
        #expect(!device.settingsConfirmed)
        do {
            _ = try device.transfer([.write([0xFC]), .read(2)], deadline: .now + .seconds(1))
            Issue.record("a transfer on /dev/null succeeded")
        } catch {
            #expect(error == .notSPIDevice(path: "/dev/null"))
            #expect(error.description.contains("spidev"))
        }
    }

    @Test func aMessageLongerThanTheBufferIsRefusedWithTheFix() throws {
        let device = try SPIDevice.open(path: "/dev/null", speedHz: 1_000_000, maxMessageBytes: 4096)
        defer { device.close() }
        do {
            _ = try device.transfer([.write([0xC4, 0]), .read(36864)], deadline: .now + .seconds(5))
            Issue.record("transfer went through")
        } catch {
            #expect(error == .messageTooLong(path: "/dev/null", bytes: 36864, limit: 4096))
            #expect(error.description.contains("spidev.bufsiz=65536"))
        }
    }

    @Test func aMessageThatCannotMeetItsDeadlineIsNotStarted() throws {
        // 4000 bytes at 100 kHz take 320 ms: a 10 ms deadline cannot be kept.
        let device = try SPIDevice.open(path: "/dev/null", speedHz: 100_000, maxMessageBytes: 4096)
        defer { device.close() }
        do {
            _ = try device.transfer([.read(4000)], deadline: .now + .milliseconds(10))
            Issue.record("transfer went through")
        } catch {
            #expect(error == .wouldMissDeadline(path: "/dev/null", bytes: 4000, speedHz: 100_000))
        }
    }

    @Test func aClosedDeviceRefusesTransfers() throws {
        let device = try SPIDevice.open(path: "/dev/null", speedHz: 1_000_000)
        device.close()
        device.close()
        #expect(throws: SPIError.closed(path: "/dev/null")) {
            _ = try device.transfer([.write([0])], deadline: .now + .seconds(1))
        }
    }

    @Test func permissionTextNamesTheSPIGroup() {
        #expect(SPIError.permissionDenied(path: "/dev/spidev0.0").description.contains("`spi` group"))
    }
}
