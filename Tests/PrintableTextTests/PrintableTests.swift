import PrintableText
import Testing

/// What a stored name with a control character looks like on a terminal: visibly escaped,
/// never acted on.
@Suite struct PrintableTests {
    @Test func eachKindOfControlIsEscapedVisibly() {
        #expect(Printable.escaped("\u{1B}[31mred") == #"\e[31mred"#)
        #expect(Printable.escaped("bell\u{07}") == #"bell\u{07}"#)
        #expect(Printable.escaped("a\rb\nc\td") == #"a\rb\nc\td"#)
        #expect(Printable.escaped("nul\u{0}del\u{7F}") == #"nul\u{00}del\u{7F}"#)
        #expect(Printable.escaped("csi\u{9B}2J") == #"csi\u{9B}2J"#)
        #expect(Printable.escaped("evil\u{202E}gnp.exe") == #"evil\u{202E}gnp.exe"#)
        #expect(Printable.escaped("\u{2066}isolate\u{2069} \u{200F}\u{061C}") == #"\u{2066}isolate\u{2069} \u{200F}\u{61C}"#)
        #expect(Printable.escaped("line\u{2028}sep") == #"line\u{2028}sep"#)
    }

    @Test func everythingElseIsLeftAsTyped() {
        for text in ["alice", "Zoë Müller", "山田 太郎", "👍🏽 thumbs", "C:\\Users\\bob", "a\\eb", "", "«quote» – dash"] {
            #expect(Printable.escaped(text) == text)
        }
    }

    @Test func noControlSurvivesAndEscapingTwiceChangesNothingMore() {
        let nasty = "\u{1B}]0;title\u{07}\u{9B}31m\u{202E}x\r\n\u{0}\u{85}"
        let once = Printable.escaped(nasty)
        #expect(!once.unicodeScalars.contains { Printable.needsEscape($0) })
        #expect(Printable.escaped(once) == once)
    }

    @Test func aWholeMessageKeepsItsLineBreaksButNothingElse() {
        let message = "Error: no user named \u{1B}[2Jx\nSee 'fpmod list'.\tdone\r"
        #expect(Printable.escaped(message, keepingLineBreaks: true) == "Error: no user named \\e[2Jx\nSee 'fpmod list'.\tdone\\r")
        #expect(Printable.escaped(message) == #"Error: no user named \e[2Jx\nSee 'fpmod list'.\tdone\r"#)
    }

    @Test func substringsToo() {
        let line = "name=\u{1B}x rest"
        #expect(Printable.escaped(line.split(separator: " ")[0]) == #"name=\ex"#)
    }
}
