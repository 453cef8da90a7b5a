import Foundation
import Testing

@testable import RecentsCore

/// Core's values decode from the wire form (what a Swift client reads); RecentsAPI's
/// WireFormatTests check the server writes exactly these texts.
@Suite struct CodingTests {
    /// The contract's row text, from Tests/Fixtures/contract-row.json ("" when unreadable, which fails
    /// every test that reads it).
    static let rowJSON = fixtureMember("row", of: "contract-row.json")

    /// The value that text decodes to.
    static let row = Row(
        id: "c-1003", peer: Peer(id: "bob", name: "Bob Lee"), count: 2, callIds: ["c-1003", "c-1001"],
        timestamp: 1_764_464_400, missed: true, incoming: true, outgoing: false, video: false, duration: nil,
        status: .missed, revealed: false, editing: false)

    @Test func rowDecodesFromTheContractsForm() throws {
        #expect(try decodeJSON(Row.self, Self.rowJSON) == Self.row)
        var single = Self.row
        single.count = 1
        single.callIds = ["c-1003"]
        single.duration = 61
        let json = Self.rowJSON.replacingOccurrences(of: #""duration":null"#, with: #""duration":61"#)
            .replacingOccurrences(of: #""callIds":["c-1003","c-1001"]"#, with: #""callIds":["c-1003"]"#)
            .replacingOccurrences(of: #""count":2"#, with: #""count":1"#)
        #expect(try decodeJSON(Row.self, json) == single)
    }

    @Test func transitionDecodesFromTheContractsForm() throws {
        let json =
            #"{"list":"alice","from":3,"to":5,"reason":"interactiveChanges","options":["animateAlpha","animateInsertion"],"#
            + #""deletes":[{"index":1,"id":"c-9"}],"#
            + #""inserts":[{"index":0,"previousIndex":null,"id":"c-1003","row":\#(Self.rowJSON),"directionHint":"down"}],"#
            + #""updates":[{"index":3,"previousIndex":3,"id":"c-5","row":\#(Self.rowJSON)}],"#
            + #""count":5,"hasMore":true,"editing":false,"revealedRowId":null,"epoch":"e"}"#
        let expected = Transition(
            reason: .interactiveChanges, options: [.animateAlpha, .animateInsertion],
            deletes: [.init(index: 1, id: "c-9")],
            inserts: [.init(index: 0, previousIndex: nil, id: "c-1003", row: Self.row, directionHint: .down)],
            updates: [.init(index: 3, previousIndex: 3, id: "c-5", row: Self.row)], count: 5, hasMore: true,
            editing: false, revealedRowId: nil)
        #expect(try decodeJSON(Transition.self, json) == expected)
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

    @Test func viewDecodes() throws {
        #expect(
            try decodeJSON(View.self, #"{"rows":[\#(Self.rowJSON)],"hasMore":true}"#)
                == View(rows: [Self.row], hasMore: true))
    }
}
