import HostMatching
import ImageSensor
import Imaging
import Posix

/// What each stage of an identify on an image sensor is set against, in place of the module
/// bench's "wire time + module time" (a bare sensor has no module time; the host matches):
/// - capture: the SPI wire time of one FPC1020A capture at the configured clock. The sensor's
///   own capture and conversion time is not published, so this is a lower bound for real
///   hardware; the simulated sensor moves no bytes, so its capture comes in under it.
/// - extract: fpmod's minutiae extraction (`MinutiaeMatcher.probe`) of the same image,
///   called directly, outside the reader.
/// - search: `MinutiaeMatcher` comparing that probe with the same templates, called directly.
/// Over the last two, what the reader adds (image checks, the gallery's bookkeeping, slots).
public struct SensorFloor {
    /// The SPI clock the capture's wire time is computed at (`--speed`, default 4 MHz).
    public let spiClockHz: Int
    public let width: Int
    public let height: Int
    public let matcher: MinutiaeMatcher
    /// The same templates the reader searches, prepared once like the reader's gallery.
    public let gallery: MinutiaeGallery

    /// Bytes clocked for one capture in `FPC1020Sensor.capture`: the capture command (1), the
    /// interrupt read-with-clear (register + 1), the image read command and its dummy byte (2),
    /// then every pixel. (With the IRQ line wired, waiting costs no SPI bytes.)
    public var captureBytes: Int { 1 + 2 + 2 + width * height }

    /// 8 bits a byte at the clock, with no gaps between messages: what no sensor can beat.
    public var captureNanoseconds: Int64 { Int64(captureBytes) * 8 * 1_000_000_000 / Int64(max(spiClockHz, 1)) }

    /// The matcher's own extract and search on `image`, and the probe's minutiae (a search's
    /// cost grows with them): nil when it finds the image unusable (the reader did not search).
    public func measure(_ image: SensorImage) -> (extract: Int64, search: Int64, minutiae: Int)? {
        let start = Monotonic.nanoseconds()
        guard let probe = try? matcher.probe(image) else { return nil }
        let extracted = Monotonic.nanoseconds()
        _ = matcher.identify(probe: probe, gallery: gallery)
        let searched = Monotonic.nanoseconds()
        return (Int64(extracted - start), Int64(searched - extracted), probe.minutiaCount)
    }

    /// The floors in words, for the text report and the JSON.
    public var descriptions: [(stage: Stage, text: String)] {
        let clock = DurationText.fixed(Double(spiClockHz) / 1e6, digits: 1)
        return [
            (.capture, "SPI wire time of one \(width)×\(height) capture at \(clock) MHz: \(captureBytes) bytes × 8 / clock = "
                + "\(BenchReport.ms(captureNanoseconds)) ms (the sensor's own conversion time is unpublished; the simulated sensor moves no bytes)"),
            (.extract, "the minutiae extraction of the same image, called directly"),
            (.search, "the minutiae matcher comparing that image's minutiae with the same \(gallery.count) templates, called directly"),
        ]
    }
}
