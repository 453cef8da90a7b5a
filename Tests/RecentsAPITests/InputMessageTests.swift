import Foundation
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// Refusals name the real problem (issue 39): no member that was not sent, "out of range" with
/// the range for an integer that does not fit (also one beyond 64 bits), the documented `wait` range.
@Suite struct InputMessageTests {
    /// The `errors` of a refused post, as "field: message".
    func errors(_ body: String) throws -> [String] {
        let response = try TestServer(.sqlite).request("POST", "/v1/lists/alice/calls", body: body)
        #expect(response.status == 422)
        return (response.json["errors"] as? [[String: Any]] ?? []).map {
            "\($0["field"] as? String ?? "?"): \($0["message"] as? String ?? "?")"
        }
    }

    /// The `detail` of a refused read of `target`, which must be 400 `bad-request`.
    func detail(_ target: String) throws -> String? {
        let response = try TestServer(.sqlite).request("GET", target)
        #expect(response.status == 400 && response.json["type"] as? String == "bad-request")
        return response.json["detail"] as? String
    }

    @Test func anEmptyPeerIdIsTheOneProblemWhenNoNameWasSent() throws {
        let rule = "must be 1 to 64 characters of A-Z a-z 0-9 . _ -"
        #expect(
            try errors(#"{"peer": {"id": ""}, "direction": "incoming", "timestamp": 1}"#) == ["peer.id: \(rule)"])
        // A name sent empty is its own problem.
        #expect(
            try errors(#"{"peer": {"id": "", "name": ""}, "direction": "incoming", "timestamp": 1}"#) == [
                "peer.id: \(rule)", "peer.name: must be 1 to 256 characters and at most 1024 bytes",
            ])
    }

    @Test(arguments: [
        ("timestamp", "99999999999999999999999", "0 to 4102444800"),
        ("timestamp", "-99999999999999999999999", "0 to 4102444800"),
        ("timestamp", "4102444801", "0 to 4102444800"),
        ("timestamp", "1e30", "0 to 4102444800"),
        ("duration", "1e30", "0 to 86400"),
        ("duration", "86401", "0 to 86400"),
        ("duration", "-1", "0 to 86400"),
    ])
    func anIntegerThatDoesNotFitIsOutOfRangeWithTheRange(field: String, value: String, range: String) throws {
        let members = field == "timestamp" ? #""timestamp": \#(value)"# : #""timestamp": 1, "duration": \#(value)"#
        let found = try errors(#"{"peer": {"id": "bob"}, "direction": "incoming", \#(members)}"#)
        #expect(found == ["\(field): is out of range: must be an integer from \(range)"])
    }

    @Test func aFractionIsNoIntegerAndEveryProblemIsNamedAtOnce() throws {
        #expect(
            try errors(#"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": 1.5}"#) == [
                "timestamp: must be an integer"
            ])
        // A number refused by the reader does not hide the rules checked after it.
        #expect(
            try errors(#"{"peer": {"id": "a b"}, "direction": "incoming", "timestamp": 99999999999999999999}"#) == [
                "timestamp: is out of range: must be an integer from 0 to 4102444800",
                "peer.id: must be 1 to 64 characters of A-Z a-z 0-9 . _ -",
            ])
    }

    @Test(arguments: [
        (
            "since=9223372036854775808",
            "query parameter 'since' is out of range: must be from 0 to 9223372036854775807, got 9223372036854775808"
        ),
        ("since=-1", "query parameter 'since' is out of range: must be from 0 to 9223372036854775807, got -1"),
        ("since=1x", "query parameter 'since' must be an integer, got '1x'"),
        ("since=--1", "query parameter 'since' must be an integer, got '--1'"),
        (
            "since=1&wait=-1",
            "query parameter 'wait' is out of range: must be from 0 to 30 (a larger wait is held 30 s), got -1"
        ),
        ("limit=0", "query parameter 'limit' is out of range: must be from 1 to 1000, got 0"),
        (
            "tz=-99999999999999999999",
            "query parameter 'tz' is out of range: must be from -840 to 840, got -99999999999999999999"
        ),
    ])
    func aQueryIntegerThatDoesNotFitIsOutOfRangeWithTheDocumentedRange(query: String, message: String) throws {
        #expect(try detail("/v1/lists/alice/transitions?\(query)") == message)
    }
}
