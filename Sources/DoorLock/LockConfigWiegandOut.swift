import Wiegand

extension LockConfig {
    /// `wiegandOut`: fpmod in front of an existing access panel: after a grant it sends the
    /// user's panel card (`fpmod card panel NAME 26:F:N`) on two GPIO outputs,
    /// `"wiegandOut": {"d0": 19, "d1": 26}`, each a line offset or name. `pulseUs` (50, 20 to
    /// 2000) and `intervalUs` (1000, 200 to 25000) stay within what readers send.
    public struct WiegandOut: Sendable, Equatable {
        public var d0: String
        public var d1: String
        public var pulseMicroseconds = 50
        public var intervalMicroseconds = 1000

        public init(d0: String, d1: String) {
            self.d0 = d0
            self.d1 = d1
        }

        public var encoder: WiegandEncoder {
            get throws(WiegandEncoderError) {
                try WiegandEncoder(pulseWidth: UInt64(pulseMicroseconds) * 1000, interval: UInt64(intervalMicroseconds) * 1000)
            }
        }
    }

    static let wiegandOutKeys = ["d0", "d1", "pulseUs", "intervalUs"]

    mutating func readWiegandOut(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: Self.wiegandOutKeys, at: "wiegandOut")
        let (d0, d1) = r.wiegandDataLines(object, section: "wiegandOut", wire: "the panel's")
        var out = WiegandOut(d0: d0 ?? "", d1: d1 ?? "")
        let pulses = Int(WiegandEncoder.pulseWidthRange.lowerBound / 1000)...Int(WiegandEncoder.pulseWidthRange.upperBound / 1000)
        let intervals = Int(WiegandEncoder.intervalRange.lowerBound / 1000)...Int(WiegandEncoder.intervalRange.upperBound / 1000)
        if let v = object["pulseUs"] { out.pulseMicroseconds = r.integer(v, "wiegandOut.pulseUs", range: pulses, unit: " µs") ?? out.pulseMicroseconds }
        if let v = object["intervalUs"] { out.intervalMicroseconds = r.integer(v, "wiegandOut.intervalUs", range: intervals, unit: " µs") ?? out.intervalMicroseconds }
        do { _ = try out.encoder } catch {
            r.problem("wiegandOut.intervalUs", "\(error)")
            return
        }
        if d0 != nil, d1 != nil { wiegandOut = out }
    }
}
