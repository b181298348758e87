import Testing

/// `fpmod wiegand send` checks its input before any line is taken, and its defaults are values
/// it accepts (a default once was a duration the parser refused, so every send without
/// --pulse failed before reaching the chip).
struct WiegandSendCLITests {
    @Test func defaultsParseAndBadCardsAreRefusedFirst() throws {
        let cli = CLI()
        let chipless = try cli.run(["wiegand", "send", "26:123:4567", "--d0", "1", "--d1", "2", "--chip", "no-such-chip"])
        #expect(chipless.stderr.contains("GPIO chip 'no-such-chip' not found"), "\(chipless.stderr)")
        let badFacility = try cli.run(["wiegand", "send", "26:300:1", "--d0", "1", "--d1", "2", "--chip", "no-such-chip"])
        #expect(badFacility.status == 64 && badFacility.stderr.contains("facility 300 does not fit a 26-bit card"), "\(badFacility.stderr)")
        let uid = try cli.run(["wiegand", "send", "uid:04a1b2c3", "--d0", "1", "--d1", "2", "--chip", "no-such-chip"])
        #expect(uid.status == 64 && uid.stderr.contains("a panel is sent a Wiegand card"), "\(uid.stderr)")
        let noLines = try cli.run(["wiegand", "send", "26:123:4567"])
        #expect(noLines.status == 64 && noLines.stderr.contains("--d0 LINE --d1 LINE"), "\(noLines.stderr)")
    }
}
