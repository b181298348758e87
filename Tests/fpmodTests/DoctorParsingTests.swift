@testable import Diagnostics
@testable import fpmod
import Testing

@Suite struct DoctorParsingTests {
    @Test(arguments: [
        ("Raspberry Pi 4 Model B Rev 1.4\0", PiModel.pi4, "rpi4"),
        ("Raspberry Pi 400 Rev 1.0\0", .pi4, "rpi4"),
        ("Raspberry Pi Compute Module 4 Rev 1.0", .pi4, "rpi4"),
        ("Raspberry Pi 5 Model B Rev 1.0", .pi5, "rpi5"),
        ("Raspberry Pi 500 Rev 1.0", .pi5, "rpi5"),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", .pi3, "rpi3"),
        ("Raspberry Pi Zero 2 W Rev 1.0", .zero2W, "rpi-zero2w"),
        ("Raspberry Pi Zero W Rev 1.1", .unsupported("Raspberry Pi Zero W Rev 1.1"), "usb-serial"),
        ("Raspberry Pi 2 Model B Rev 1.1", .unsupported("Raspberry Pi 2 Model B Rev 1.1"), "usb-serial"),
        ("Pine64 RockPro64", .notAPi(model: "Pine64 RockPro64"), "usb-serial"),
    ])
    func modelStrings(text: String, model: PiModel, preset: String) {
        let parsed = PiModel(deviceTreeModel: text)
        #expect(parsed == model)
        #expect(parsed.presetName == preset)
    }

    @Test func noDeviceTreeIsNotAPi() {
        #expect(PiModel(deviceTreeModel: nil) == .notAPi(model: nil))
    }

    @Test func configSectionsCommentsAndAliases() {
        let text = """
            enable_uart=0
            [pi4]
            dtoverlay=pi3-miniuart-bt   # old name
            [pi5]
            enable_uart=0
            [all]
            enable_uart=1 # later lines win
            dtparam=i2c_arm=on,uart0
            #dtoverlay=disable-bt
            """
        let pi4 = BootConfig(text: text, board: .pi4)
        #expect(pi4.enableUART == true)
        #expect(pi4.pl011Overlay == "miniuart-bt")
        #expect(pi4.parameterIsOn("uart0"))
        let pi3 = BootConfig(text: text, board: .pi3)
        #expect(pi3.pl011Overlay == nil, "the [pi4] overlay does not apply to a Pi 3")
        let pi5 = BootConfig(text: "dtoverlay=uart0-pi5,ctsrts\n", board: .pi5)
        #expect(pi5.enablesPi5UART0)
        #expect(!BootConfig(text: "dtparam=uart0=off\n", board: .pi5).enablesPi5UART0)
    }

    @Test func consolesOfACommandLine() {
        #expect(KernelCommandLine.consoles("console=serial0,115200 console=tty1 root=/dev/mmcblk0p2 quiet") == ["serial0", "tty1"])
        #expect(KernelCommandLine.consoles("root=/dev/sda1 ro") == [])
    }
}
