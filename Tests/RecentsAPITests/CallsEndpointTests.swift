import Foundation
import RecentsTestSupport
import Testing

@testable import RecentsAPI

@Suite struct CallsEndpointTests {
    @Test(arguments: Backend.available)
    func postingACallCreatesVersionOneAndEchoesTheStoredCall(backend: Backend) throws {
        let server = try TestServer(backend)
        let response = try server.request(
            "POST", "/v1/lists/alice/calls",
            body: #"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": 1764460800}"#)
        #expect(response.status == 201)
        #expect(response.headers["content-type"] == "application/json; charset=utf-8")
        let json = response.json
        #expect(int(json["version"]) == 1)
        #expect(json["epoch"] as? String != nil)
        let calls = json["calls"] as? [[String: Any]] ?? []
        #expect(calls.count == 1)
        let call = calls.first ?? [:]
        #expect((call["id"] as? String)?.isEmpty == false)
        #expect((call["peer"] as? [String: Any])?["name"] as? String == "bob")
        #expect(call["endReason"] as? String == "hangup")
        #expect(call["video"] as? Bool == false)
        #expect(int(call["duration"]) == 0)
    }

    @Test(arguments: Backend.available)
    func aBatchLandsInOneVersionInRequestOrder(backend: Backend) throws {
        let server = try TestServer(backend)
        let body = #"{"calls": [\#(callJSON("c-2", timestamp: 200)), \#(callJSON("c-1", timestamp: 100))]}"#
        let response = try server.request("POST", "/v1/lists/alice/calls", body: body)
        #expect(response.status == 201)
        #expect(int(response.json["version"]) == 1)
        let ids = (response.json["calls"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids == ["c-2", "c-1"])
        let list = try server.request("GET", "/v1/lists/alice")
        #expect(int(list.json["callCount"]) == 2)
        #expect(int(list.json["version"]) == 1)
    }

    @Test(arguments: Backend.available)
    func identicalRepostIsANoOpAndDifferentContentConflicts(backend: Backend) throws {
        let server = try TestServer(backend)
        let body = callJSON("c-1", timestamp: 100)
        #expect(try server.request("POST", "/v1/lists/alice/calls", body: body).status == 201)
        let again = try server.request("POST", "/v1/lists/alice/calls", body: body)
        #expect(again.status == 200)
        #expect(int(again.json["version"]) == 1)
        let conflict = try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: 101))
        #expect(conflict.status == 409)
        #expect(conflict.json["type"] as? String == "conflict")
        #expect(conflict.headers["content-type"] == "application/problem+json")
        #expect(int(try server.request("GET", "/v1/lists/alice").json["version"]) == 1)
    }

    @Test(arguments: Backend.available)
    func oneInvalidCallRejectsTheWholeBatchNamingItsIndex(backend: Backend) throws {
        let server = try TestServer(backend)
        let bad = #"{"peer": {"id": "bob"}, "direction": "sideways", "timestamp": 1}"#
        let body = #"{"calls": [\#(callJSON("c-1", timestamp: 100)), \#(bad)]}"#
        let response = try server.request("POST", "/v1/lists/alice/calls", body: body)
        #expect(response.status == 422)
        #expect(response.json["type"] as? String == "validation-failed")
        let fields = (response.json["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
        #expect(fields == ["calls[1].direction"])
        let list = try server.request("GET", "/v1/lists/alice")
        #expect(int(list.json["callCount"]) == 0)
        #expect(int(list.json["version"]) == 0)
    }

    @Test(
        arguments: Backend.available,
        [
            (#"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": 1, "endreason": "missed"}"#, "endreason"),
            (#"{"peer": {"id": "bob"}, "direction": "incoming"}"#, "timestamp"),
            (#"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": "1"}"#, "timestamp"),
            (#"{"peer": {"id": "b b"}, "direction": "incoming", "timestamp": 1}"#, "peer.id"),
            (#"{"peer": {"id": "bob", "nick": "x"}, "direction": "incoming", "timestamp": 1}"#, "peer.nick"),
            (#"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": 1, "duration": 86401}"#, "duration"),
            (#"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": 1, "duration": 1.5}"#, "duration"),
            (#"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": 4102444801}"#, "timestamp"),
            (#"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": 1, "video": 1}"#, "video"),
            (#"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": 1, "id": "a/b"}"#, "id"),
            (#"{"peer": "bob", "direction": "incoming", "timestamp": 1}"#, "peer"),
            (#"null"#, "body"),
            (#"[1]"#, "body"),
            (#"{"calls": []}"#, "calls"),
        ])
    func wrongShapesAre422NamingTheMember(backend: Backend, example: (String, String)) throws {
        let (body, field) = example
        let server = try TestServer(backend)
        let response = try server.request("POST", "/v1/lists/alice/calls", body: body)
        #expect(response.status == 422)
        let fields = (response.json["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } ?? []
        #expect(fields.contains(field), "\(fields)")
    }

    @Test(arguments: Backend.available, ["", "{", #"{"a": NaN}"#, #"{"a": 1} x"#, "\u{FF}"])
    func bodiesThatDoNotParseAre400InvalidJSON(backend: Backend, body: String) throws {
        let server = try TestServer(backend)
        let response = try server.request("POST", "/v1/lists/alice/calls", body: body)
        #expect(response.status == 400)
        #expect(response.json["type"] as? String == "invalid-json")
    }

    @Test(arguments: Backend.available)
    func aBodyThatIsNotJSONTypedIs415(backend: Backend) throws {
        let server = try TestServer(backend)
        let response = try server.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: 1),
            headers: [("Content-Type", "text/plain")])
        #expect(response.status == 415)
        #expect(response.json["type"] as? String == "unsupported-media-type")
        let charset = try server.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: 1),
            headers: [("Content-Type", "Application/JSON; charset=utf-8")])
        #expect(charset.status == 201)
    }

    @Test(arguments: [
        ("application/json", true), ("Application/JSON; charset=utf-8", true), (" \tapplication/json \t;x", true),
        ("APPLICATION/JSON", true), ("application/json;", true), ("", false), ("application/jso", false),
        ("application/jsonx", false), ("application/json-patch+json", false), ("text/json", false),
        ("application\u{0F}json", false), ("application/jsOn\u{212A}", false), ("a pplication/json", false),
    ])
    func jsonIsTheOnlyMediaTypeTakenInAnyCase(contentType: String, isJSON: Bool) {
        #expect(Exchange.isJSON(contentType) == isJSON)
    }

    @Test(arguments: Backend.available)
    func getAndDeleteACall(backend: Backend) throws {
        let server = try TestServer(backend)
        try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-1", name: "Bob Lee", timestamp: 100))
        let call = try server.request("GET", "/v1/lists/alice/calls/c-1")
        #expect(call.status == 200)
        #expect((call.json["peer"] as? [String: Any])?["name"] as? String == "Bob Lee")
        let deleted = try server.request("DELETE", "/v1/lists/alice/calls/c-1")
        #expect(deleted.status == 200)
        #expect(int(deleted.json["version"]) == 2)
        #expect(try server.request("GET", "/v1/lists/alice/calls/c-1").status == 404)
        #expect(try server.request("DELETE", "/v1/lists/alice/calls/c-1").status == 404)
        #expect(int(try server.request("GET", "/v1/lists/alice").json["version"]) == 2)
    }

    @Test(arguments: Backend.available)
    func aNeverWrittenListReadsAsEmptyAtVersionZero(backend: Backend) throws {
        let server = try TestServer(backend)
        let list = try server.request("GET", "/v1/lists/nobody")
        #expect(list.status == 200)
        #expect(int(list.json["version"]) == 0)
        #expect(list.json["editing"] as? Bool == false)
        #expect(list.json["revealedRowId"] is NSNull)
        #expect(int(list.json["callCount"]) == 0)
    }

    @Test(
        arguments: Backend.available,
        ["/v1/lists/a:b", "/v1/lists/" + String(repeating: "x", count: 65), "/v1/lists/a%20b/rows"])
    func invalidListNamesAre404(backend: Backend, path: String) throws {
        let server = try TestServer(backend)
        let response = try server.request("GET", path)
        #expect(response.status == 404)
        #expect(response.json["type"] as? String == "not-found")
    }

    @Test(arguments: Backend.available)
    func deletingAListForgetsItButVersionsKeepIncreasing(backend: Backend) throws {
        let server = try TestServer(backend)
        try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: 100))
        try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-2", timestamp: 200))
        let forgotten = try server.request("DELETE", "/v1/lists/alice")
        #expect(forgotten.status == 200)
        #expect(int(forgotten.json["version"]) == 3)
        let list = try server.request("GET", "/v1/lists/alice")
        #expect(int(list.json["callCount"]) == 0)
        #expect(int(list.json["version"]) == 3)
        let old = try server.request("GET", "/v1/lists/alice/transitions?since=2")
        #expect(old.status == 410)
        #expect(int(old.json["currentVersion"]) == 3)
        let again = try server.request("DELETE", "/v1/lists/alice")
        #expect(int(again.json["version"]) == 3)
        let next = try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-3", timestamp: 300))
        #expect(int(next.json["version"]) == 4)
    }
}
