import Testing

@testable import RecentsJSON

@Suite struct JSONParserTests {
    @Test(arguments: [
        ("{}", JSONValue.object([])),
        ("[]", .array([])),
        (" 12 ", .number(12, integer: 12)),
        ("-0", .number(0, integer: 0)),
        ("1e3", .number(1000, integer: 1000)),
        ("10.0", .number(10, integer: 10)),
        ("1.5", .number(1.5, integer: nil)),
        (#""a\u00e9\ud83d\ude00\n""#, .string("aé😀\n")),
        (#"{"a": [true, false, null]}"#, .object([("a", .array([.bool(true), .bool(false), .null]))])),
    ])
    func valid(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", #"{"a":1,}"#, "NaN", "Infinity", "01", "1.", ".5", "+1", #"{"a" 1}"#, "tru",
        #""\ud800""#, #""\x""#, "\"a\u{01}\"", #"{"a":1}{"#, #"{"a":1,"a":2}"#, "1e999",
        String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
    ])
    func invalid(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x22]) }
    }

    @Test func writerEscapesAndRoundTrips() throws {
        var writer = JSONWriter()
        writer.string("q\"b\\s\n\t\u{01}é")
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #""q\"b\\s\n\t\u0001é""#)
        #expect(try JSONParser.parse(writer.bytes) == .string("q\"b\\s\n\t\u{01}é"))
        var numbers = JSONWriter()
        numbers.int(Int64.min)
        numbers.comma()
        numbers.int(0)
        numbers.comma()
        numbers.double(-74)
        numbers.comma()
        numbers.double(1.5)
        #expect(String(decoding: numbers.bytes, as: UTF8.self) == "-9223372036854775808,0,-74,1.5")
    }
}
