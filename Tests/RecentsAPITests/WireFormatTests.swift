import Foundation
import RecentsCore
import RecentsJSON
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// `JSONWriter` is the one encoder of the wire format. Its bytes are held three ways: to fixed
/// texts (the README and API.md examples must not drift), to docs/openapi.json's schemas (member
/// names, order, explicit nulls and types, read from the embedded document), and to Foundation's
/// decoder (an independent parser must read back exactly the values written).
@Suite struct WireFormatTests {
    static let row = Row(
        id: "c-1003", peer: Peer(id: "bob", name: "Bob Lee"), count: 2, callIds: ["c-1003", "c-1001"],
        timestamp: 1_764_464_400, missed: true, incoming: true, outgoing: false, video: false, duration: nil,
        status: .missed, revealed: false, editing: false)

    /// The text the writer must make of it: the contract's row, from Tests/Fixtures/contract-row.json
    /// (which RecentsCoreTests' CodingTests decode; "" when unreadable, which fails the tests).
    static let rowJSON: String = {
        let fixture = try? Data(contentsOf: sharedFixture("contract-row.json"))
        return fixture.flatMap { try? JSONDecoder().decode([String: String].self, from: $0)["row"] } ?? ""
    }()

    static func text(_ write: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        write(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func aRowIsTheContractsTextWithAnExplicitNull() {
        #expect(Self.text { $0.row(Self.row) } == Self.rowJSON)
    }

    @Test func rowsBuiltFromCallsAreTheContractsExample() throws {
        let calls = [
            Call(
                id: "c-1003", peer: Peer(id: "bob", name: "Bob Lee"), direction: .incoming, endReason: .missed,
                video: false, duration: 0, timestamp: 1_764_464_400),
            Call(
                id: "c-1001", peer: Peer(id: "bob", name: "Bob"), direction: .incoming, endReason: .missed,
                video: false, duration: 5, timestamp: 1_764_461_000),
        ]
        let view = RowBuilder.view(calls: calls, state: ListState(), parameters: .default)
        let row = try #require(view.rows.first)
        #expect(Self.text { $0.row(row) } == Self.rowJSON)
        #expect(view.rows.count == 1)
    }

    @Test func aTransitionReplyIsTheContractsText() {
        let transition = Transition(
            reason: .interactiveChanges, options: [.animateAlpha, .animateInsertion],
            deletes: [.init(index: 1, id: "c-9")],
            inserts: [
                .init(index: 0, previousIndex: nil, id: "c-1003", row: Self.row, directionHint: .down),
                .init(index: 2, previousIndex: 4, id: "c-7", row: Self.row, directionHint: nil),
            ],
            updates: [.init(index: 3, previousIndex: 3, id: "c-5", row: Self.row)], count: 5, hasMore: true,
            editing: false, revealedRowId: nil)
        let body = ResponseBodies.transition(
            list: "alice", from: nil, answer: .init(to: 7, transition: transition), epoch: "e1")
        let expected =
            #"{"list":"alice","from":null,"to":7,"#
            + #""reason":"interactiveChanges","options":["animateAlpha","animateInsertion"],"#
            + #""deletes":[{"index":1,"id":"c-9"}],"#
            + #""inserts":[{"index":0,"previousIndex":null,"id":"c-1003","row":\#(Self.rowJSON),"directionHint":"down"},"#
            + #"{"index":2,"previousIndex":4,"id":"c-7","row":\#(Self.rowJSON),"directionHint":null}],"#
            + #""updates":[{"index":3,"previousIndex":3,"id":"c-5","row":\#(Self.rowJSON)}],"#
            + #""count":5,"hasMore":true,"editing":false,"revealedRowId":null,"unseenMissed":0,"epoch":"e1"}"#
        #expect(String(decoding: body, as: UTF8.self) == expected)
    }

    /// Random rows and transitions with hostile strings: each reply conforms to its OpenAPI schema
    /// (member order included) and decodes, with Foundation, to exactly the values written.
    @Test func randomTransitionsMatchTheSchemaAndDecodeToTheirValues() throws {
        let seed = testSeed("WireFormatTests")
        var random = SplitMix64(seed: seed)
        let schema = try SchemaConformance()
        let names = [
            "Bob", "Zoë \"Z\" O'Neil", "back\\slash", "tab\there", "line\nbreak\r", "\u{0}\u{1}\u{8}\u{C}\u{1F}\u{7F}",
            "😀 emoji", "slash/</script>", "\u{2028}\u{2029}",
        ]
        for round in 0..<200 {
            let rows = (0..<Int.random(in: 0...4, using: &random)).map { index in
                Self.randomRow(id: "c-\(round)-\(index)", name: names.randomElement(using: &random)!, random: &random)
            }
            let transition = Transition(
                reason: TransitionReason.allCases.randomElement(using: &random)!,
                options: TransitionOption.allCases.filter { _ in Bool.random(using: &random) },
                deletes: (0..<Int.random(in: 0...2, using: &random)).map { .init(index: $0, id: "d-\($0)") },
                inserts: rows.enumerated().map { index, row in
                    .init(
                        index: index, previousIndex: Bool.random(using: &random) ? nil : index + 1, id: row.id,
                        row: row, directionHint: Bool.random(using: &random) ? .down : nil)
                },
                updates: rows.enumerated().map { .init(index: $0, previousIndex: $0, id: $1.id, row: $1) },
                count: rows.count, hasMore: Bool.random(using: &random), editing: Bool.random(using: &random),
                revealedRowId: rows.first?.id)
            let body = ResponseBodies.transition(
                list: "alice", from: Bool.random(using: &random) ? nil : Int64(round),
                answer: .init(to: Int64(round) + 1, transition: transition), epoch: "e")
            let context = "seed \(seed) round \(round): \(String(decoding: body, as: UTF8.self))"
            #expect(schema.problems(try JSONParser.parse(body), schema: "Transition") == [], "\(context)")
            #expect(try JSONDecoder().decode(Transition.self, from: Data(body)) == transition, "\(context)")
            for row in rows {
                var writer = JSONWriter()
                writer.row(row)
                #expect(schema.problems(try JSONParser.parse(writer.bytes), schema: "Row") == [], "\(context)")
                #expect(try JSONDecoder().decode(Row.self, from: Data(writer.bytes)) == row, "\(context)")
            }
        }
    }

    /// The schema check itself catches a reordered, a missing, an extra and a mistyped member.
    @Test func theSchemaCheckRejectsWhatTheContractForbids() throws {
        let schema = try SchemaConformance()
        #expect(schema.problems(try JSONParser.parse(Array(Self.rowJSON.utf8)), schema: "Row") == [])
        let broken = [
            Self.rowJSON.replacingOccurrences(
                of: #""missed":true,"incoming":true"#, with: #""incoming":true,"missed":true"#),
            Self.rowJSON.replacingOccurrences(of: #""duration":null,"#, with: ""),
            Self.rowJSON.replacingOccurrences(of: #""video":false,"#, with: #""video":false,"extra":1,"#),
            Self.rowJSON.replacingOccurrences(of: #""count":2"#, with: #""count":2.5"#),
            Self.rowJSON.replacingOccurrences(of: #""status":"missed""#, with: #""status":"lost""#),
        ]
        for text in broken {
            #expect(text != Self.rowJSON)
            #expect(!schema.problems(try JSONParser.parse(Array(text.utf8)), schema: "Row").isEmpty, "\(text)")
        }
    }

    static func randomRow(id: String, name: String, random: inout SplitMix64) -> Row {
        let count = Int.random(in: 1...3, using: &random)
        let missed = Bool.random(using: &random)
        return Row(
            id: id, peer: Peer(id: "p", name: name), count: count, callIds: (0..<count).map { "\(id)-\($0)" },
            timestamp: Int64.random(in: 0...4_102_444_800, using: &random), missed: missed, incoming: true,
            outgoing: Bool.random(using: &random), video: Bool.random(using: &random),
            duration: count == 1 ? Int.random(in: 0...86_400, using: &random) : nil,
            status: missed ? .missed : .incoming, revealed: Bool.random(using: &random),
            editing: Bool.random(using: &random), options: [.delete])
    }

    /// The one escaper: every control character escaped (the short forms only for LF, CR and tab,
    /// as the server always wrote them), quotes and backslashes too, everything else as UTF-8.
    @Test func stringsEscapeEveryControlCharacterAndReadBack() throws {
        #expect(Self.text { $0.string("\u{8}\u{C}\n\r\t\"\\/é") } == #""\u0008\u000c\n\r\t\"\\/é""#)
        let every = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init))) + "é😀\u{2028}"
        var writer = JSONWriter()
        writer.string(every)
        #expect(try JSONParser.parse(writer.bytes) == .string(every))
        let foundation = try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed)
        #expect(foundation as? String == every)
    }

    @Test(arguments: [0, 7, 10, -1, -10, 1_764_464_400, Int64.max, Int64.min])
    func integersAreTheirDecimalDigits(value: Int64) {
        #expect(Self.text { $0.int(value) } == String(value))
        #expect(Self.text { $0.int(Int(truncatingIfNeeded: value)) } == String(Int(truncatingIfNeeded: value)))
    }

    @Test func unsignedAndDoubleValues() {
        #expect(Self.text { $0.int(UInt64.max) } == "18446744073709551615")
        #expect(Self.text { $0.double(-74) } == "-74")
        #expect(Self.text { $0.double(1.5) } == "1.5")
        #expect(Self.text { $0.double(.nan) } == "null")
    }
}
