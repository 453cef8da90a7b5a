import Foundation
import Testing

@testable import RecentsCore

@Suite struct CodingTests {
    static let row = Row(
        id: "c-1003", peer: Peer(id: "bob", name: "Bob Lee"), count: 2, callIds: ["c-1003", "c-1001"],
        timestamp: 1_764_464_400, missed: true, incoming: true, outgoing: false, video: false, duration: nil,
        status: .missed, revealed: false, editing: false)

    static let rowJSON =
        #"{"id":"c-1003","peer":{"id":"bob","name":"Bob Lee"},"count":2,"callIds":["c-1003","c-1001"],"#
        + #""timestamp":1764464400,"missed":true,"incoming":true,"outgoing":false,"video":false,"#
        + #""duration":null,"status":"missed","revealed":false,"editing":false,"#
        + #""options":[{"key":"delete","title":"Delete","destructive":true}]}"#

    @Test func rowEncodesTheContractsMembersInOrderWithExplicitNull() throws {
        #expect(try encodeJSON(Self.row) == Self.rowJSON)
    }

    @Test func rowRoundTrips() throws {
        #expect(try decodeJSON(Row.self, Self.rowJSON) == Self.row)
        var single = Self.row
        single.count = 1
        single.callIds = ["c-1003"]
        single.duration = 61
        let json = try encodeJSON(single)
        #expect(json.contains(#""duration":61,"#))
        #expect(try decodeJSON(Row.self, json) == single)
        // Foundation's encoder (member order aside) must also keep the explicit null.
        let foundation = String(decoding: try JSONEncoder().encode(Self.row), as: UTF8.self)
        #expect(foundation.contains(#""duration":null"#))
    }

    @Test func rowBuiltFromCallsMatchesTheContractExample() throws {
        let calls = [
            makeCall("c-1003", peer: "bob", name: "Bob Lee", at: 1_764_464_400, .incoming, .missed),
            makeCall("c-1001", peer: "bob", name: "Bob", at: 1_764_461_000, .incoming, .missed, duration: 5),
        ]
        let view = RowBuilder.view(calls: calls, state: ListState(), parameters: .default)
        #expect(try encodeJSON(view.rows) == "[\(Self.rowJSON)]")
    }

    static func sampleTransition(revealed: String?) -> Transition {
        Transition(
            reason: .interactiveChanges, options: [.animateAlpha, .animateInsertion],
            deletes: [.init(index: 1, id: "c-9")],
            inserts: [
                .init(index: 0, previousIndex: nil, id: "c-1003", row: row, directionHint: .down),
                .init(index: 2, previousIndex: 4, id: "c-7", row: row, directionHint: nil),
            ],
            updates: [.init(index: 3, previousIndex: 3, id: "c-5", row: row)], count: 5, hasMore: true,
            editing: false, revealedRowId: revealed)
    }

    @Test func transitionEncodesMembersInOrderWithExplicitNulls() throws {
        let json = try encodeJSON(Self.sampleTransition(revealed: nil))
        let expected =
            #"{"reason":"interactiveChanges","options":["animateAlpha","animateInsertion"],"#
            + #""deletes":[{"index":1,"id":"c-9"}],"#
            + #""inserts":[{"index":0,"previousIndex":null,"id":"c-1003","row":\#(Self.rowJSON),"directionHint":"down"},"#
            + #"{"index":2,"previousIndex":4,"id":"c-7","row":\#(Self.rowJSON),"directionHint":null}],"#
            + #""updates":[{"index":3,"previousIndex":3,"id":"c-5","row":\#(Self.rowJSON)}],"#
            + #""count":5,"hasMore":true,"editing":false,"revealedRowId":null}"#
        #expect(json == expected)
    }

    @Test(arguments: [String?.none, "c-1003"])
    func transitionRoundTrips(revealed: String?) throws {
        let transition = Self.sampleTransition(revealed: revealed)
        #expect(try decodeJSON(Transition.self, try encodeJSON(transition)) == transition)
        let foundation = try JSONDecoder().decode(Transition.self, from: try JSONEncoder().encode(transition))
        #expect(foundation == transition)
    }

    @Test func enumRawValuesAreTheContracts() {
        #expect(
            TransitionOption.allCases.map(\.rawValue) == [
                "lowLatency", "synchronous", "animateAlpha", "animateInsertion", "animateCrossfade",
                "preferSynchronousResourceLoading",
            ])
        #expect(
            TransitionReason.allCases.map(\.rawValue) == ["initial", "reloadAnimated", "reload", "interactiveChanges"])
        #expect(RowStatus.allCases.map(\.rawValue) == ["missed", "mixed", "incoming", "outgoing"])
        #expect(GestureOutcome.allCases.map(\.rawValue) == ["open", "closed", "selected"])
        #expect(DirectionHint.allCases.map(\.rawValue) == ["up", "down"])
    }

    @Test func viewRoundTrips() throws {
        let view = View(rows: [Self.row], hasMore: true)
        #expect(try encodeJSON(view) == #"{"rows":[\#(Self.rowJSON)],"hasMore":true}"#)
        #expect(try decodeJSON(View.self, try encodeJSON(view)) == view)
    }
}

/// Odd shapes for the ordered encoder.
struct Sample: Encodable {
    var text = "q\"b\\s/\n\t\u{01}é😀"
    var small: Int8 = -3
    var big: UInt64 = .max
    var ratio = 1.5
    var whole = -74.0
    var huge = 1e300
    var single: Float = 0.5
    var absent: Int? = nil
    var nested = [[1, 2], []]
    var map = ["k": true]

    enum CodingKeys: String, CodingKey {
        case text, small, big, ratio, whole, huge, single, absent, nested, map
    }
}

@Suite struct OrderedJSONEncoderTests {
    @Test func writesStandardJSONInEncodeOrder() throws {
        let json = try OrderedJSONEncoder().encode(Sample())
        #expect(
            json
                == #"{"text":"q\"b\\s/\n\t\u0001é😀","small":-3,"big":18446744073709551615,"ratio":1.5,"#
                + #""whole":-74,"huge":1e+300,"single":0.5,"nested":[[1,2],[]],"map":{"k":true}}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(parsed?["text"] as? String == Sample().text)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNumbersThrow(value: Double) {
        #expect(throws: EncodingError.self) { try OrderedJSONEncoder().encode([value]) }
    }

    @Test func topLevelScalarsAndNull() throws {
        #expect(try OrderedJSONEncoder().encode("x") == #""x""#)
        #expect(try OrderedJSONEncoder().encode(Int?.none) == "null")
        #expect(try OrderedJSONEncoder().encode([Int?.none, 1]) == "[null,1]")
    }
}

@Suite struct DirectRowJSONTests {
    /// The direct row writer must say exactly what `encode(to:)` says, escapes included.
    @Test func directAndCodablePathsAgree() throws {
        let seed = propertySeed("directAndCodablePathsAgree")
        var random = SplitMix64(seed: seed)
        let names = ["Bob", "Zoë \"Z\" O'Neil", "back\\slash", "tab\there", "line\nbreak", "\u{01}ctl", "😀"]
        for round in 0..<300 {
            let count = Int.random(in: 1...3, using: &random)
            let missed = Bool.random(using: &random)
            let row = Row(
                id: "c-\(round)", peer: Peer(id: "p", name: names[Int.random(in: 0..<names.count, using: &random)]),
                count: count, callIds: (0..<count).map { "c-\(round)-\($0)" },
                timestamp: Int64.random(in: 0...4_102_444_800, using: &random), missed: missed, incoming: true,
                outgoing: Bool.random(using: &random), video: Bool.random(using: &random),
                duration: count == 1 ? Int.random(in: 0...86_400, using: &random) : nil,
                status: missed ? .missed : .incoming, revealed: Bool.random(using: &random),
                editing: Bool.random(using: &random),
                options: Bool.random(using: &random)
                    ? [.delete] : [.delete, RowOption(key: "k", title: "T", destructive: false)])
            let transition = Transition(
                reason: .initial, options: [.synchronous], deletes: [],
                inserts: [.init(index: 0, previousIndex: nil, id: row.id, row: row, directionHint: nil)], updates: [],
                count: 1, hasMore: false, editing: false, revealedRowId: row.id)
            let direct = try OrderedJSONEncoder().encode(transition)
            let viaCodable = try OrderedJSONEncoder(direct: false).encode(transition)
            #expect(direct == viaCodable, "seed \(seed) round \(round)")
            #expect(try decodeJSON(Transition.self, direct) == transition, "seed \(seed) round \(round)")
        }
    }
}
