import Testing
@testable import FingerprintProtocol

struct IndexTableTests {
    @Test func bitZeroIsTheLowestSlot() {
        var table = IndexTable(capacity: 1000)
        table.merge(page: 0, bitmap: [0b0000_0101] + [UInt8](repeating: 0, count: 31))
        #expect(table.occupied == [0, 2])
        table.merge(page: 1, bitmap: [0, 0x80] + [UInt8](repeating: 0, count: 30))
        #expect(table.contains(256 + 15))
    }

    @Test func bitsBeyondCapacityAreIgnored() {
        var table = IndexTable(capacity: 200)
        table.merge(page: 0, bitmap: [UInt8](repeating: 0xFF, count: 32))
        #expect(table.occupied.count == 200)
        #expect(table.firstFree == nil)
    }

    @Test func bitmapRoundTrip() {
        let table = IndexTable(capacity: 1000, occupied: [0, 7, 8, 255, 256, 511, 999])
        var copy = IndexTable(capacity: 1000)
        for page in 0..<IndexTable.pageCount(capacity: 1000) { copy.merge(page: page, bitmap: table.bitmap(page: page)) }
        #expect(copy == table)
        #expect(IndexTable.pageCount(capacity: 1000) == 4)
        #expect(IndexTable.pageCount(capacity: 200) == 1)
    }

    @Test func occupiedRangeAndFirstFree() {
        let table = IndexTable(capacity: 300, occupied: [0, 1, 5, 40])
        #expect(table.occupiedRange == 0..<41)
        #expect(table.firstFree == 2)
        #expect(IndexTable(capacity: 10).occupiedRange == nil)
    }
}

struct ParameterTests {
    @Test func productInfoRoundTrip() throws {
        let info = ProductInfo(model: "R503", batch: "B123", serial: "SN000042", hardwareMajor: 1, hardwareMinor: 2,
                               sensorModel: "FPC1021", imageWidth: 192, imageHeight: 192, templateSize: 1536, capacity: 200)
        let bytes = info.encoded()
        #expect(bytes.count == ProductInfo.byteCount)
        #expect(try ProductInfo(bytes: bytes) == info)
        #expect(throws: ProtocolError.self) { try ProductInfo(bytes: Array(bytes.prefix(40))) }
    }

    @Test func truncatedParameterBlockIsATransportProblem() {
        #expect(throws: ProtocolError.truncated(expected: 16, got: 15)) {
            try SystemParameters(bytes: [UInt8](repeating: 0, count: 15))
        }
    }

    @Test func packetSizes() {
        #expect(PacketSize.allCases.map(\.bytes) == [32, 64, 128, 256])
        #expect(PacketSize(bytes: 100) == nil)
        #expect(SystemParameters(capacity: 1, packetSizeCode: 7).packetSize == nil)
    }

    @Test func baudMultipliers() {
        #expect(BaudRate.multiplier(for: 115_200) == 12)
        #expect(BaudRate.multiplier(for: 9600) == 1)
        #expect(BaudRate.multiplier(for: 960_000) == nil)
        #expect(Set(BaudRate.probeOrder) == Set(BaudRate.all))
        #expect(BaudRate.probeOrder.prefix(3) == [57600, 115_200, 9600])
    }

    @Test func transferSplitsIntoPacketsWithEndLast() {
        let payload = (0..<1536).map { UInt8($0 & 0xFF) }
        for size in [32, 64, 128, 256] {
            let frames = DataTransfer.frames(for: payload, packetSize: size)
            #expect(frames.count == 1536 / size)
            #expect(frames.dropLast().allSatisfy { $0.packetID == .data && $0.content.count == size })
            #expect(frames.last?.packetID == .end)
            #expect(frames.flatMap(\.content) == payload)
        }
        let odd = DataTransfer.frames(for: [UInt8](repeating: 1, count: 300), packetSize: 128)
        #expect(odd.map(\.content.count) == [128, 128, 44])
        #expect(DataTransfer.wireBytes(payloadSize: 36864, packetSize: 128) + 0 == 40032 - 0)
    }

    @Test func wireTimeOfAnImage() {
        // protocol.md §5.2: 40 032 bytes → 6.95 s at 57600.
        #expect(abs(WireTime.seconds(bytes: 40032, baudRate: 57600) - 6.95) < 0.01)
    }
}

struct FamilyTests {
    @Test func collidingCodesAreNamedPerFamily() {
        #expect(Instruction(rawValue: 0x35).name(in: .r50x) == "AuraLedConfig")
        #expect(Instruction(rawValue: 0x35).name(in: .synochip) == "HandShake(PS)")
        #expect(Instruction(rawValue: 0x3C).name(in: .r50x) == "ReadProdInfo")
        #expect(Instruction(rawValue: 0x3C).name(in: .synochip) == "ControlBLN")
    }

    @Test func confirmationCodesAboveTheCommonRangeDiffer() {
        let code = ConfirmationCode(rawValue: 0x22)
        #expect(code.meaning(in: .r50x) == "template is empty")
        #expect(code.meaning(in: .synochip) == "template not empty")
        #expect(code.meaning(in: .as608)?.contains("residual") == true)
        #expect(ConfirmationCode(rawValue: 0x80).meaning(in: .r50x) == nil)
        #expect(ConfirmationCode(rawValue: 0x80).describe(in: .r50x) == "0x80 (undocumented)")
    }

    @Test func profilesDescribeTheFamilies() {
        #expect(!ModuleFamily.r50x.profile.supports(.highSpeedSearch))
        #expect(ModuleFamily.r50x.profile.genImgWipesFeatures)
        #expect(ModuleFamily.as608.profile.supports(.getEcho))
        #expect(!ModuleFamily.r30x.profile.supports(.auraLedConfig))
        #expect(ModuleFamily.r50x.profile.baudMultipliers == [1, 2, 4, 6, 12])
        #expect(ModuleFamily.r50x.profile.imageByteCount == 18432)
        #expect(ModuleFamily.r30x.profile.imageByteCount == 36864)
        #expect(ModuleFamily.as608.profile.touchActiveLow == false)
    }

    @Test func instructionLookupByName() {
        #expect(Instruction(named: "genimg") == .genImg)
        #expect(Instruction(named: "ReadSysPara") == .readSysPara)
        #expect(Instruction(named: "0x1d") == .templateCount)
        #expect(Instruction(named: "templatecount") == .templateCount)
        #expect(Instruction(named: "nonsense") == nil)
    }

    @Test func commandContentRoundTrip() {
        let command = Command.store(buffer: 1, slot: 513)
        #expect(command.content == [0x06, 0x01, 0x02, 0x01])
        #expect(Command(content: command.content) == command)
        #expect(Command.writeNotepad(page: 3, data: [1, 2]).parameters.count == 33)
        #expect(Command.deleteChar(start: 5, count: 1).frame().lengthField == 7)
    }

    @Test func expectedAckSizes() {
        #expect(Acknowledgement.expectedPayloadSize(for: .search, family: .r30x) == 4)
        #expect(Acknowledgement.expectedPayloadSize(for: .readSysPara, family: .r30x) == 16)
        #expect(Acknowledgement.expectedPayloadSize(for: .readProductInfo, family: .r50x) == 46)
        #expect(Acknowledgement.expectedPayloadSize(for: .genImg, family: .r50x) == 0)
    }
}
