/// A time zone's rules as the system's tzdata gives them (a TZif file, RFC 8536, as in
/// /usr/share/zoneinfo): the recorded transitions, then the POSIX TZ rule of the file's footer
/// for the years after them. Pure: built from the file's bytes (the caller reads the file), it
/// answers which UTC offset is in force at a moment, so a schedule's "07:00" follows the door's
/// wall clock through daylight-saving changes.
public struct TimeZoneRules: Sendable, Equatable {
    /// The zone's name as configured (`Europe/Berlin`), for messages.
    public let name: String
    /// UTC seconds of each transition, ascending, and the offset (seconds east) from there on.
    let transitions: [Int64]
    let offsetsAfter: [Int]
    /// The offset before the first transition (local time type 0).
    let initialOffset: Int
    /// The footer's rule, for moments after the last transition; nil when the file has none.
    let footer: PosixTimeZone?

    /// UTC, for a door that names no time zone.
    public static let utc = TimeZoneRules(name: "UTC", transitions: [], offsetsAfter: [], initialOffset: 0, footer: nil)

    init(name: String, transitions: [Int64], offsetsAfter: [Int], initialOffset: Int, footer: PosixTimeZone?) {
        self.name = name
        self.transitions = transitions
        self.offsetsAfter = offsetsAfter
        self.initialOffset = initialOffset
        self.footer = footer
    }

    /// Seconds east of UTC in force at `utcSeconds`.
    public func offset(atUTC utcSeconds: Int64) -> Int {
        guard let first = transitions.first, utcSeconds >= first else {
            return transitions.isEmpty ? (footer?.offset(atUTC: utcSeconds) ?? initialOffset) : initialOffset
        }
        if utcSeconds >= transitions[transitions.count - 1], let footer { return footer.offset(atUTC: utcSeconds) }
        // The last transition at or before the moment.
        var low = 0, high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= utcSeconds { low = middle } else { high = middle - 1 }
        }
        return offsetsAfter[low]
    }

    /// The door's wall clock at `utcSeconds`.
    public func localTime(atUTC utcSeconds: Int64) -> LocalTime {
        LocalTime(utcSeconds: utcSeconds, offset: offset(atUTC: utcSeconds))
    }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case notTZif
        case truncated
        case badFooter(String)

        public var description: String {
            switch self {
            case .notTZif: "not a TZif time zone file (it should start with \"TZif\")"
            case .truncated: "the TZif file ends early"
            case .badFooter(let text): "its POSIX TZ rule \"\(text)\" cannot be read"
            }
        }
    }

    /// Reads a TZif file (version 1, or the 64-bit block and footer of versions 2 to 4).
    public init(name: String, tzif bytes: [UInt8]) throws(ParseError) {
        var reader = ByteReader(bytes)
        let header = try Self.header(&reader)
        if header.version == 0 {
            self = try Self.block(&reader, header, timeSize: 4, name: name, footer: nil)
            return
        }
        // Skip the 32-bit block: the 64-bit one after it says the same for every moment.
        try reader.skip(header.blockSize(timeSize: 4))
        let second = try Self.header(&reader)
        let dataStart = reader.position
        try reader.skip(second.blockSize(timeSize: 8))
        var footer: PosixTimeZone?
        if reader.remaining > 0 {
            guard try reader.byte() == 0x0A else { throw .truncated }
            var text: [UInt8] = []
            while let next = try? reader.byte(), next != 0x0A { text.append(next) }
            let rule = String(decoding: text, as: UTF8.self)
            if !rule.isEmpty {
                guard let parsed = PosixTimeZone(parsing: rule) else { throw .badFooter(rule) }
                footer = parsed
            }
        }
        reader.position = dataStart
        self = try Self.block(&reader, second, timeSize: 8, name: name, footer: footer)
    }

    struct Header {
        var version: Int
        var isUTCCount, isStandardCount, leapCount, timeCount, typeCount, charCount: Int

        func blockSize(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
        }
    }

    static func header(_ reader: inout ByteReader) throws(ParseError) -> Header {
        guard try reader.bytes(4) == Array("TZif".utf8) else { throw .notTZif }
        let versionByte = try reader.byte()
        try reader.skip(15)
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(try reader.uint32())) }
        return Header(version: versionByte == 0 ? 0 : Int(versionByte) - 0x30, isUTCCount: counts[0], isStandardCount: counts[1],
                      leapCount: counts[2], timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
    }

    static func block(_ reader: inout ByteReader, _ header: Header, timeSize: Int, name: String, footer: PosixTimeZone?) throws(ParseError) -> TimeZoneRules {
        var times: [Int64] = []
        for _ in 0..<header.timeCount { times.append(timeSize == 8 ? Int64(bitPattern: try reader.uint64()) : Int64(Int32(bitPattern: try reader.uint32()))) }
        var typeIndices: [Int] = []
        for _ in 0..<header.timeCount { typeIndices.append(Int(try reader.byte())) }
        var offsets: [Int] = []
        for _ in 0..<header.typeCount {
            offsets.append(Int(Int32(bitPattern: try reader.uint32())))
            try reader.skip(2)  // isdst, abbreviation index: the offset is all a schedule needs
        }
        guard !offsets.isEmpty, typeIndices.allSatisfy({ $0 < offsets.count }) else { throw .truncated }
        return TimeZoneRules(name: name, transitions: times, offsetsAfter: typeIndices.map { offsets[$0] },
                             initialOffset: offsets[0], footer: footer)
    }
}

/// Big-endian reads over a byte array, each checked against its end.
struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    mutating func skip(_ count: Int) throws(TimeZoneRules.ParseError) {
        guard count >= 0, count <= remaining else { throw .truncated }
        position += count
    }

    mutating func byte() throws(TimeZoneRules.ParseError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bytes(_ count: Int) throws(TimeZoneRules.ParseError) -> [UInt8] {
        guard count <= remaining else { throw .truncated }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    mutating func uint32() throws(TimeZoneRules.ParseError) -> UInt32 {
        try bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func uint64() throws(TimeZoneRules.ParseError) -> UInt64 {
        try bytes(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
