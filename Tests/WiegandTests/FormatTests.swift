import Testing
@testable import Wiegand

@Suite("Card and keypad formats")
struct FormatTests {
    /// 26-bit, worked by hand: facility 123 = 0111 1011, number 4567 = 0001 0001 1101 0111.
    /// First 12 data bits 0111 1011 0001 hold seven 1s, so the even parity bit is 1; the last 12,
    /// 0001 1101 0111, hold seven 1s too, already odd, so the odd parity bit is 0.
    @Test("26-bit H10301 worked by hand: facility 123, number 4567")
    func w26ByHand() throws {
        let credential = try WiegandCredential(format: .w26, facility: 123, number: 4567)
        #expect(credential.bits.description == "1" + "01111011" + "0001000111010111" + "0")
        #expect(credential.bits[0] == true)
        #expect(credential.bits[25] == false)
        #expect(WiegandEvent(frame: credential.bits) == .card(format: .w26, facility: 123, number: 4567, bits: credential.bits))
    }

    /// 34-bit, worked by hand: facility 1000 = 0000 0011 1110 1000 (six 1s: even parity bit 0),
    /// number 65535 = sixteen 1s (even: odd parity bit 1).
    @Test("34-bit worked by hand: facility 1000, number 65535")
    func w34ByHand() throws {
        let credential = try WiegandCredential(format: .w34, facility: 1000, number: 65535)
        #expect(credential.bits.description == "0" + "0000001111101000" + "1111111111111111" + "1")
        #expect(WiegandEvent(frame: credential.bits) == .card(format: .w34, facility: 1000, number: 65535, bits: credential.bits))
    }

    /// The worked examples of Civintec's CN56 reader manual (data D4 1B 81 and 89 D4 1B 81).
    @Test("a reader manual's examples: D4 1B 81 as 26 bits, 89 D4 1B 81 as 34 bits")
    func publishedExamples() throws {
        let w26 = try WiegandCredential(format: .w26, facility: 0xD4, number: 0x1B81)
        #expect(w26.bits == bits("1 11010100 00011011 10000001 0"))
        let w34 = try WiegandCredential(format: .w34, facility: 0x89D4, number: 0x1B81)
        #expect(w34.bits == bits("1 10001001 11010100 00011011 10000001 1"))
    }

    @Test("the extremes: all-zero data needs odd parity 1, all-one data even parity 0 (26-bit)")
    func extremes() throws {
        #expect(try WiegandCredential(format: .w26, facility: 0, number: 0).bits.description == "00000000000000000000000001")
        #expect(try WiegandCredential(format: .w26, facility: 255, number: 65535).bits.description == "01111111111111111111111111")
        #expect(try WiegandCredential(format: .w34, facility: 0, number: 0).bits.description == String(repeating: "0", count: 33) + "1")
    }

    @Test("one flipped bit in either half fails that half's parity, and never reads as a card", arguments: WiegandFormat.allCases)
    func flippedBit(format: WiegandFormat) throws {
        let good = try WiegandCredential(format: format, facility: format.facilityRange.upperBound / 3, number: 12345).bits
        let half = (format.bitCount - 2) / 2
        for index in 0..<format.bitCount {
            let flipped = WiegandBits(count: good.count, value: good.value ^ (1 << UInt64(format.bitCount - 1 - index)))
            let expected: WiegandParityFailure = index <= half ? .leadingEven : .trailingOdd
            #expect(WiegandEvent(frame: flipped) == .rejected(.badParity(format: format, failed: expected, bits: flipped)), "bit \(index)")
        }
        let both = WiegandBits(count: good.count, value: good.value ^ (1 << UInt64(format.bitCount - 1)) ^ 1)
        #expect(WiegandEvent(frame: both) == .rejected(.badParity(format: format, failed: .both, bits: both)))
    }

    /// Rosslare's and HID's keypad tables: 4 bits = the value, 8 bits = its complement then the value.
    @Test("keypad bursts: 4-bit values and 8-bit complemented nibbles, as the keypads' tables list them")
    func keypadTables() throws {
        let eightBit = ["11110000", "11100001", "11010010", "11000011", "10110100",
                        "10100101", "10010110", "10000111", "01111000", "01101001"]
        for digit in UInt8(0)...9 {
            let four = try WiegandEncoder.bits(for: .digit(digit), burst: .fourBit)
            #expect(four.count == 4 && four.value == UInt64(digit))
            #expect(WiegandEvent(frame: four) == .key(.digit(digit), bits: four))
            let eight = try WiegandEncoder.bits(for: .digit(digit), burst: .eightBit)
            #expect(eight == bits(eightBit[Int(digit)]))
            #expect(WiegandEvent(frame: eight) == .key(.digit(digit), bits: eight))
        }
        #expect(try WiegandEncoder.bits(for: .star, burst: .fourBit) == bits("1010"))
        #expect(try WiegandEncoder.bits(for: .hash, burst: .fourBit) == bits("1011"))
        #expect(try WiegandEncoder.bits(for: .star, burst: .eightBit) == bits("01011010"))
        #expect(try WiegandEncoder.bits(for: .hash, burst: .eightBit) == bits("01001011"))
        #expect(WiegandEvent(frame: bits("1010")) == .key(.star, bits: bits("1010")))
        #expect(WiegandEvent(frame: bits("01001011")) == .key(.hash, bits: bits("01001011")))
    }

    @Test("keypad bursts that are no key: a bad complement, values 12-15")
    func badKeys() {
        // 5 with the complement of 4 in front; an 8-bit burst with one bit lost in the high half.
        #expect(WiegandEvent(frame: bits("10110101")) == .rejected(.badKeyComplement(bits: bits("10110101"))))
        #expect(WiegandEvent(frame: bits("11110001")) == .rejected(.badKeyComplement(bits: bits("11110001"))))
        #expect(WiegandEvent(frame: bits("1100")) == .rejected(.unknownKey(code: 12, bits: bits("1100"))))
        #expect(WiegandEvent(frame: bits("00001111")) == .rejected(.unknownKey(code: 15, bits: bits("00001111"))))
    }

    @Test("lengths that are no format: noise below 4 bits, unsupported otherwise")
    func lengths() {
        #expect(WiegandEvent(frame: bits("1")) == .rejected(.noise(bits: 1)))
        #expect(WiegandEvent(frame: bits("010")) == .rejected(.noise(bits: 3)))
        let short = WiegandBits(count: 25, value: 0x0ABCDEF)
        #expect(WiegandEvent(frame: short) == .rejected(.unsupportedLength(25)))
        #expect(WiegandEvent(frame: WiegandBits(count: 37, value: 1)) == .rejected(.unsupportedLength(37)))
        #expect(WiegandEvent(frame: WiegandBits(count: 27, value: 1)) == .rejected(.unsupportedLength(27)))
    }

    @Test("bit strings: order, fields and the text form")
    func bitStrings() {
        let frame = bits("1100 0000 0001")
        #expect(frame.count == 12)
        #expect(frame.value == 0xC01)
        #expect(frame[0] && frame[1] && !frame[2] && frame[11])
        #expect(frame.field(from: 0, length: 4) == 0xC)
        #expect(frame.field(from: 8, length: 4) == 0x1)
        #expect(frame.description == "110000000001")
        #expect(WiegandBits("10x1") == nil)
        #expect(WiegandBits(String(repeating: "1", count: 65)) == nil)
        #expect(WiegandBits(String(repeating: "1", count: 64))?.value == .max)
    }

    @Test("rejections read as an installer's sentence")
    func rejectionWording() {
        let parity = WiegandRejection.badParity(format: .w26, failed: .trailingOdd, bits: bits("10111101100010001110101111"))
        #expect(parity.description.contains("26-bit frame with bad parity"))
        #expect(parity.description.contains("the second half's odd parity fails"))
        #expect(WiegandRejection.unsupportedLength(25).description.hasPrefix("25-bit frame"))
        #expect(WiegandRejection.tooFast(line: .d1, interval: 40_000).description.contains("D1 40 µs apart"))
        #expect(WiegandRejection.bothLines(interval: 2_500).description.contains("2.5 µs apart"))
        #expect(WiegandRejection.stalled(pause: 22_000_000, afterBits: 13).description.contains("22 ms"))
        #expect(WiegandRejection.overlong(limit: 64).description.contains("more than 64 pulses"))
    }
}
