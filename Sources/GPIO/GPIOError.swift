import Glibc

// Errors name the problem and the fix: a door lock is set up by people reading these on a Pi.

/// What went wrong with a GPIO chip or line, and what to do about it.
public enum GPIOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No chip by that name, path, number or label. `available` lists what exists.
    case chipNotFound(requested: String, available: [GPIOChipInfo])
    /// The chip exists but this user may not open it.
    case permissionDenied(path: String)
    /// The line is held by someone else (`consumer` is their name when the kernel knows it).
    case lineBusy(chip: String, offset: Int, consumer: String?)
    /// The offset does not exist on the chip.
    case offsetOutOfRange(chip: String, offset: Int, lineCount: Int)
    /// The kernel or the chip's driver cannot set a pull resistor.
    case biasUnsupported(chip: String, offset: Int, bias: Bias)
    /// A debounce period was asked for, but libgpiod 1 (Debian 12 / Pi OS bookworm) cannot set
    /// the kernel's debouncer.
    case debounceUnsupported(chip: String, offset: Int, libgpiodVersion: String)
    /// The line was used after `release()`.
    case lineReleased(chip: String, offset: Int)
    /// Any other failing call, with its errno.
    case system(operation: String, chip: String, offset: Int?, errno: Int32)

    public var description: String {
        switch self {
        case let .chipNotFound(requested, available):
            let listing = available.isEmpty
                ? "This machine has no GPIO chip at all (no /dev/gpiochip*): use a board with GPIO, "
                    + "the gpio-vm test VM, or --sim."
                : "Chips present: " + available.map(\.description).joined(separator: "; ") + "."
            return "GPIO chip '\(requested)' not found. \(listing) "
                + "Pick one with --chip (a name like gpiochip0, a path, or a label such as pinctrl-rp1). "
                + "On a Raspberry Pi 5 with a kernel older than 6.6.45 the header GPIOs are gpiochip4, "
                + "on newer kernels gpiochip0 (the rpi5 preset finds it by its label pinctrl-rp1)."
        case let .permissionDenied(path):
            return "Permission denied opening \(path). Add the service user to the 'gpio' group "
                + "(sudo usermod -aG gpio USER, then log in again) or install a udev rule such as "
                + "SUBSYSTEM==\"gpio\", KERNEL==\"gpiochip*\", GROUP=\"gpio\", MODE=\"0660\"."
        case let .lineBusy(chip, offset, consumer):
            let who = consumer.map { "by '\($0)'" } ?? "by another program or kernel driver"
            return "GPIO line \(offset) on \(chip) is already in use \(who). Stop that program "
                + "(see `gpioinfo \(chip)`), remove a dtoverlay that claims the pin, or choose another line."
        case let .offsetOutOfRange(chip, offset, lineCount):
            return "GPIO line \(offset) does not exist on \(chip), which has lines 0–\(lineCount - 1). "
                + "Board presets use BCM numbers (GPIO17), not physical pin numbers (pin 11)."
        case let .biasUnsupported(chip, offset, bias):
            return "Cannot set bias \(bias.rawValue) on line \(offset) of \(chip): the kernel (older than 5.5) "
                + "or the chip's driver does not support pull resistors. Use bias \"as-is\" and fit an "
                + "external resistor, or set the pull in config.txt (gpio=N=ip,pu)."
        case let .debounceUnsupported(chip, offset, version):
            return "Cannot debounce line \(offset) of \(chip): libgpiod \(version) speaks the kernel's "
                + "GPIO uAPI v1, which has no debouncer (Debian 13 / Raspberry Pi OS trixie's libgpiod 2 has). "
                + "Leave the debounce out of the config, or fit an RC filter on the input."
        case let .lineReleased(chip, offset):
            return "GPIO line \(offset) on \(chip) was used after it was released. This is a bug in the "
                + "caller: request the line again."
        case let .system(operation, chip, offset, errno):
            let line = offset.map { " line \($0)" } ?? ""
            return "\(operation) failed on \(chip)\(line): \(errnoText(errno)) (errno \(errno)). "
                + "Check that the chip still exists (gpiodetect) and the kernel log (dmesg)."
        }
    }
}

/// The C library's text for an errno value.
func errnoText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error" }
    return String(cString: text)
}
