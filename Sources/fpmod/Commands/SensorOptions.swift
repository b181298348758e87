import ArgumentParsing

/// The options of every `fpmod sensor` subcommand: how the sensor is wired. Which spidev node
/// is the global --spi (FPMOD_SPI), which also makes every reader command use the sensor.
enum SensorOptions {
    static let common: [OptionSpec] = [
        .option("speed", valueName: "HZ", help: "SPI clock in Hz (the FPC1020A takes up to 8 MHz).", default: "4000000"),
        .option("board", valueName: "NAME", help: "Board preset whose spi section gives the lines (default: this Pi's)."),
        .option("chip", valueName: "NAME", help: "GPIO chip of the IRQ and reset lines (default: the preset's)."),
        .option("irq-line", valueName: "N", help: "GPIO of the sensor's IRQ output (BCM number)."),
        .option("reset-line", valueName: "N", help: "GPIO of the sensor's reset input (BCM number)."),
        .flag("no-gpio", help: "No IRQ or reset line: soft-reset the sensor and poll its interrupt register."),
    ]
}
