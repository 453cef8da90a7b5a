import RecentsCore
import Testing

@testable import RecentsStore

/// What PostgreSQL locks and fetches for a batch is learned by running each body once against a
/// recording transaction (`WritePlanner`); the API never predicts it.
@Suite struct WritePlannerTests {
    @Test func aPostNamesItsListAndEveryCallIdItLooksUp() {
        let hint = WritePlanner.plan { tx in
            _ = try tx.listInfo("alice")
            for id in ["a", "b", "a"] where try tx.call(id, in: "alice") == nil {
                try tx.insertCalls([makeCall(id)], into: "alice")
            }
        }
        #expect(hint == WriteHint(lists: ["alice"], calls: ["alice": ["a", "b"]]))
    }

    @Test func everyListTouchedIsNamedInOrderOnce() {
        let hint = WritePlanner.plan { tx in
            _ = try tx.listInfo("bob")
            try tx.setState(ListState(editing: true), of: "alice")
            _ = try tx.deleteCalls(ids: ["x"], from: "carol")
            try tx.forgetList("bob")
            _ = try tx.idempotentReply(key: "k", in: "dave")
        }
        #expect(hint == WriteHint(lists: ["bob", "alice", "carol", "dave"]))
    }

    @Test func whatABodyThrowsEndsThePlanWithWhatItSawSoFar() {
        struct Refused: Error {}
        let hint = WritePlanner.plan { tx in
            guard try tx.call("row", in: "alice") != nil else { throw Refused() }
            try tx.setState(ListState(editing: true), of: "never")
        }
        #expect(hint == WriteHint(lists: ["alice"], calls: ["alice": ["row"]]))
    }

    @Test func readsSeeAnEmptyListSoBodiesFollowTheirCommonPath() throws {
        let hint = WritePlanner.plan { tx in
            let info = try tx.listInfo("alice")
            #expect(info.version == 0 && !info.exists)
            #expect(Array(try tx.calls(in: "alice", at: 0)).isEmpty)
            #expect(try tx.isRetained(0, in: "alice"))
            #expect(try tx.idempotentReply(key: "k", in: "alice") == nil)
        }
        #expect(hint.lists == ["alice"])
    }

    @Test func aBodyThatNeverStopsReadingIsCutOff() {
        let hint = WritePlanner.plan { tx in
            var n = 0
            while true {
                _ = try tx.call("c\(n % 3)", in: "alice")
                n += 1
            }
        }
        #expect(hint.calls["alice"]?.count == 3)
    }
}
