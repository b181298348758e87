import GPIO

extension FPC1020Sensor {
    /// The sensor's IRQ and RST lines as it uses them, on `chip`: IRQ an input that reports
    /// rising edges (the sensor drives it high while an interrupt is pending), RST an output,
    /// active low, released at request so the sensor runs. One place for these polarities,
    /// whoever wires the sensor (the CLI's `--irq-line`/`--reset-line` or a board preset for
    /// the service). When RST cannot be had, IRQ is released again, so nothing stays held.
    public static func requestLines(on chip: any GPIOChip, irqOffset: Int, resetOffset: Int)
        throws(GPIOError) -> (irq: any InputLine, reset: any OutputLine) {
        let irq = try chip.requestInput(offset: irqOffset, consumer: "fpmod-sensor-irq", edges: .rising, bias: .asIs, activeLow: false)
        do {
            let reset = try chip.requestOutput(offset: resetOffset, consumer: "fpmod-sensor-reset", initialValue: false, activeLow: true)
            return (irq, reset)
        } catch {
            irq.release()
            throw error
        }
    }
}
