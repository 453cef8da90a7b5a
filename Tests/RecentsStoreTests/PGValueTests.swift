import Testing

@testable import RecentsStore

/// `PGArray`'s literals: the escaping that keeps every element one element, checked on
/// its own and by the server's own parser (the latter when `RECENTS_TEST_POSTGRES_URL` is set).
@Suite struct PGValueTests {
    /// Texts whose bytes matter to an array literal: its quote, escape, separator, braces, the
    /// word NULL, whitespace, the empty text and multi-byte UTF-8.
    static let awkward = [
        "plain", "", "NULL", "a,b", "{x}", "say \"hi\"", "back\\slash", "\\\"", " spaced ", "é日本🙂", "end\\",
    ]

    @Test func anArrayLiteralQuotesEveryElementAndEscapesQuotesAndBackslashes() {
        #expect(PGArray(["a", "b\"c", "d\\e"]).pgText == #"{"a","b\"c","d\\e"}"#)
        #expect(PGArray([Int64]()).pgText == "{}")
        #expect(PGArray([Int64(1), -2]).pgText == #"{"1","-2"}"#)
        #expect(PGArray([true, false]).pgText == #"{"t","f"}"#)
        #expect(PGArray(["x", nil]).pgText == #"{"x",NULL}"#)
        #expect(PGArray(["a", "b"].lazy.map { $0 + "!" }).pgText == #"{"a!","b!"}"#)
    }

    @Test(.enabled(if: Backend.available.contains(.postgresql)))
    func theServerReadsBackEveryElementAsSent() async throws {
        try await withPostgresSchema { uri in
            let connection = try PGConnection(uri: uri)
            let values: [String?] = Self.awkward + [nil]
            let result = try connection.query(
                "SELECT u, u IS NULL FROM unnest($1::text[]) WITH ORDINALITY AS t(u, n) ORDER BY n", PGArray(values))
            #expect(result.count == values.count)
            for (row, value) in values.enumerated() {
                #expect(result.optionalString(row, 0) == value)
                #expect(result.bool(row, 1) == (value == nil))
            }
        }
    }
}
