import SystemSupport
import Testing

@Suite struct QuotedTextTests {
    private func quoted(_ text: String) -> String {
        var out = "x="
        appendQuoted(text, to: &out) { "<\($0)>" }
        return out
    }

    @Test func plainTextIsOnlyWrappedInQuotes() {
        #expect(quoted("Chloé 📞") == "x=\"Chloé 📞\"")
        #expect(quoted("") == "x=\"\"")
    }

    @Test func quotesBackslashesAndWhitespaceControlsGetBackslashEscapes() {
        #expect(quoted("a\"b\\c\nd\re\tf") == #"x="a\"b\\c\nd\re\tf""#)
    }

    @Test func otherControlCharactersAreSpelledByTheCaller() {
        #expect(quoted("\u{0}\u{1b}\u{7f}\u{80}") == "x=\"<0><27><127>\u{80}\"")
    }
}
