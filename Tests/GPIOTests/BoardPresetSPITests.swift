import Testing
@testable import GPIO

@Suite struct BoardPresetSPITests {
    @Test func raspberryPiPresetsWireTheSensorToSPI0() throws {
        for name in ["rpi3", "rpi4", "rpi-zero2w", "rpi5"] {
            let spi = try #require(try BoardPreset.load(name: name, searchPaths: []).spi, "\(name)")
            #expect(spi.device == "/dev/spidev0.0")
            #expect([spi.mosi.offset, spi.miso.offset, spi.sclk.offset, spi.chipSelect.offset] == [10, 9, 11, 8])
            #expect([spi.mosi.pin, spi.miso.pin, spi.sclk.pin, spi.chipSelect.pin] == [19, 21, 23, 24])
            #expect(spi.irq.offset == 26 && spi.irq.pin == 37)
            #expect(spi.reset.offset == 16 && spi.reset.pin == 36 && spi.reset.activeLow == true)
            #expect(spi.note?.contains("dtparam=spi=on") == true)
        }
    }

    @Test func boardsWithoutSPIHaveNoSection() throws {
        #expect(try BoardPreset.load(name: "usb-serial", searchPaths: []).spi == nil)
        #expect(try BoardPreset.load(name: "gpio-vm", searchPaths: []).spi == nil)
    }

    static func rpi4() throws -> BoardPreset { try BoardPreset.load(name: "rpi4", searchPaths: []) }

    @Test func anIRQOnADoorLineIsRefused() throws {
        var preset = try Self.rpi4()
        preset.spi?.irq.offset = 18
        preset.spi?.irq.pin = 12
        #expect(preset.problems() == ["spi.irq.offset: GPIO18 is also gpio.lines.relay"])
    }

    @Test func sensorLinesMayNotTakeSPIPins() throws {
        var preset = try Self.rpi4()
        preset.spi?.reset.offset = 7
        preset.spi?.reset.pin = 26
        #expect(preset.problems() == ["spi.reset.offset: GPIO7 belongs to SPI0 (GPIO7–11)"])
    }

    @Test func theBusPinsAreSPI0s() throws {
        var preset = try Self.rpi4()
        preset.spi?.mosi = LineAssignment(offset: 12, pin: 32)
        #expect(preset.problems() == ["spi.mosi.offset: SPI0 MOSI is GPIO10, not GPIO12"])
    }

    @Test func ce1GoesWithSpidevDotOne() throws {
        var preset = try Self.rpi4()
        preset.spi?.device = "/dev/spidev0.1"
        #expect(preset.problems() == ["spi.chipSelect.offset: SPI0 CE1 is GPIO7, not GPIO8"])
        preset.spi?.chipSelect = LineAssignment(offset: 7, pin: 26)
        #expect(preset.problems() == [])
    }

    @Test func pinNumbersAreCheckedAgainstTheHeader() throws {
        var preset = try Self.rpi4()
        preset.spi?.irq.pin = 36
        #expect(preset.problems().contains("spi.irq.pin: GPIO26 is pin 37, not 36"))
    }

    @Test func theDeviceMustBeASpidevNode() throws {
        var preset = try Self.rpi4()
        preset.spi?.device = "/dev/ttyS0"
        #expect(preset.problems().first?.hasPrefix("spi.device:") == true)
    }
}
