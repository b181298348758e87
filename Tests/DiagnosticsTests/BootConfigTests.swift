@testable import Diagnostics
import Testing

/// config.txt is read the way the firmware reads it, without a Pi or the fpmod binary.
@Suite struct BootConfigTests {
    @Test func otherBoardsSectionsAreIgnoredAndLaterLinesWin() {
        let text = """
            enable_uart=0
            [pi5]
            dtparam=uart0=on
            [pi4]
            dtoverlay=pi3-disable-bt,foo=1
            [all]
            enable_uart=1 # the module's UART
            """
        let pi4 = BootConfig(text: text, board: .pi4)
        #expect(pi4.enableUART == true)
        #expect(pi4.overlays == ["disable-bt"])
        #expect(pi4.pl011Overlay == "disable-bt")
        #expect(!pi4.parameterIsOn("uart0"))

        let pi5 = BootConfig(text: text, board: .pi5)
        #expect(pi5.overlays.isEmpty)
        #expect(pi5.enablesPi5UART0)
    }

    @Test func kernelConsolesAreNamedWithoutTheirSpeed() {
        #expect(KernelCommandLine.consoles("console=serial0,115200 console=tty1 root=PARTUUID=1 rootwait") == ["serial0", "tty1"])
    }

    @Test func boardFromDeviceTreeModel() {
        #expect(PiModel(deviceTreeModel: "Raspberry Pi 4 Model B Rev 1.4\0") == .pi4)
        #expect(PiModel(deviceTreeModel: nil) == .notAPi(model: nil))
    }
}
