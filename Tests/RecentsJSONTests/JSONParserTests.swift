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

    /// A duplicate name is found by comparing names while an object is small and by hashing past
    /// `linearNameLimit` members: refused either way, wherever the two copies sit.
    @Test(arguments: [(0, 5), (3, 15), (3, 16), (15, 16), (16, 17), (2, 30), (20, 39)])
    func aDuplicateNameIsRefusedAtAnySize(first: Int, second: Int) throws {
        let distinct = (0..<40).map { "\"m\($0)\": \($0)" }
        #expect(try JSONParser.parse(Array(("{" + distinct.joined(separator: ",") + "}").utf8)).objectCount == 40)
        var members = distinct
        members[second] = "\"m\(first)\": 0"
        let text = "{" + members.joined(separator: ",") + "}"
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func unescapedTextIsDecodedWhetherOrNotItIsASCII() throws {
        let parsed = try JSONParser.parse(Array(#"["plain", "café 😀"]"#.utf8))
        #expect(parsed == .array([.string("plain"), .string("café 😀")]))
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0x61, 0xED, 0xA0, 0x80, 0x22]) }
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

extension JSONValue {
    fileprivate var objectCount: Int? { if case .object(let members) = self { members.count } else { nil } }
}
