/// Which library slots hold a template, from ReadIndexTable (0x1F) pages (protocol.md §2.1):
/// 32 bytes = 256 slots per page, byte k covers slots 8k…8k+7 and bit b (1 << b) is slot 8k+b,
/// so bit 0 is the lowest slot.
public struct IndexTable: Equatable, Sendable {
    public static let slotsPerPage = 256
    public static let bytesPerPage = 32

    public private(set) var occupied: Set<Int>
    public let capacity: Int

    public init(capacity: Int, occupied: Set<Int> = []) {
        self.capacity = capacity
        self.occupied = occupied.filter { $0 >= 0 && $0 < capacity }
    }

    /// Number of ReadIndexTable pages needed to cover `capacity` slots.
    public static func pageCount(capacity: Int) -> Int {
        max(1, (capacity + slotsPerPage - 1) / slotsPerPage)
    }

    /// Adds the slots of one 32-byte page. Bits beyond capacity are ignored.
    public mutating func merge(page: Int, bitmap: [UInt8]) {
        for (byteIndex, byte) in bitmap.prefix(IndexTable.bytesPerPage).enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let slot = page * IndexTable.slotsPerPage + byteIndex * 8 + bit
                if slot < capacity { occupied.insert(slot) }
            }
        }
    }

    /// The 32-byte bitmap of `page` (what a module sends).
    public func bitmap(page: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: IndexTable.bytesPerPage)
        let base = page * IndexTable.slotsPerPage
        for slot in occupied where slot >= base && slot < base + IndexTable.slotsPerPage {
            let offset = slot - base
            bytes[offset / 8] |= 1 << UInt8(offset % 8)
        }
        return bytes
    }

    public mutating func insert(_ slot: Int) { if slot >= 0 && slot < capacity { occupied.insert(slot) } }
    public mutating func remove(_ slot: Int) { occupied.remove(slot) }
    public func contains(_ slot: Int) -> Bool { occupied.contains(slot) }

    /// The lowest free slot, or nil when the library is full.
    public var firstFree: Int? { (0..<capacity).first { !occupied.contains($0) } }

    /// The smallest range covering every occupied slot, so a search never walks empty pages
    /// at the end of a large library.
    public var occupiedRange: Range<Int>? {
        guard let low = occupied.min(), let high = occupied.max() else { return nil }
        return low..<(high + 1)
    }
}

/// Product information of Grow R50x modules (ReadProdInfo 0x3C, protocol.md §2.5): 46 bytes.
public struct ProductInfo: Equatable, Sendable, Codable {
    public static let byteCount = 46
    public var model: String
    public var batch: String
    public var serial: String
    public var hardwareVersion: (major: UInt8, minor: UInt8) {
        get { (hardwareMajor, hardwareMinor) }
        set { (hardwareMajor, hardwareMinor) = newValue }
    }
    public var hardwareMajor: UInt8
    public var hardwareMinor: UInt8
    public var sensorModel: String
    public var imageWidth: Int
    public var imageHeight: Int
    public var templateSize: Int
    public var capacity: Int

    public init(model: String, batch: String, serial: String, hardwareMajor: UInt8, hardwareMinor: UInt8,
                sensorModel: String, imageWidth: Int, imageHeight: Int, templateSize: Int, capacity: Int) {
        self.model = model
        self.batch = batch
        self.serial = serial
        self.hardwareMajor = hardwareMajor
        self.hardwareMinor = hardwareMinor
        self.sensorModel = sensorModel
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.templateSize = templateSize
        self.capacity = capacity
    }

    public init(bytes: [UInt8]) throws(ProtocolError) {
        var reader = ByteReader(bytes)
        model = ProductInfo.string(try reader.take(16))
        batch = ProductInfo.string(try reader.take(4))
        serial = ProductInfo.string(try reader.take(8))
        hardwareMajor = try reader.u8()
        hardwareMinor = try reader.u8()
        sensorModel = ProductInfo.string(try reader.take(8))
        imageWidth = Int(try reader.u16())
        imageHeight = Int(try reader.u16())
        templateSize = Int(try reader.u16())
        capacity = Int(try reader.u16())
    }

    public func encoded() -> [UInt8] {
        var bytes = ProductInfo.field(model, 16) + ProductInfo.field(batch, 4) + ProductInfo.field(serial, 8)
        bytes += [hardwareMajor, hardwareMinor]
        bytes += ProductInfo.field(sensorModel, 8)
        for value in [imageWidth, imageHeight, templateSize, capacity] {
            bytes += UInt16(truncatingIfNeeded: value).bigEndianBytes
        }
        return bytes
    }

    public static func == (lhs: ProductInfo, rhs: ProductInfo) -> Bool { lhs.encoded() == rhs.encoded() }

    /// ASCII, zero-padded; anything unprintable is dropped.
    static func string(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix { $0 != 0 }.filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
    }

    static func field(_ text: String, _ size: Int) -> [UInt8] {
        let ascii = Array(text.utf8.prefix(size))
        return ascii + [UInt8](repeating: 0, count: size - ascii.count)
    }
}
