import Foundation
import RecentsTestSupport
import Testing

/// `Idempotency-Key` on `POST /v1/lists/{list}/calls`.
@Suite struct IdempotencyTests {
    static let body = #"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": 1764460800}"#

    @Test(arguments: Backend.available)
    func aRetryWithTheSameKeyAndBodyGetsTheFirstAnswerAndWritesNothing(
        backend: Backend
    ) throws {
        let server = try TestServer(backend)
        let first = try server.request(
            "POST", "/v1/lists/alice/calls", body: Self.body, headers: [("Idempotency-Key", "k-1")])
        #expect(first.status == 201)
        #expect(first.header("Idempotent-Replayed") == nil)
        let retry = try server.request(
            "POST", "/v1/lists/alice/calls", body: Self.body, headers: [("Idempotency-Key", "k-1")])
        #expect(retry.status == 201)
        #expect(retry.body == first.body, "same version, same server-made id, same bytes")
        #expect(retry.header("Idempotent-Replayed") == "true")
        let list = try server.request("GET", "/v1/lists/alice")
        #expect(int(list.json["version"]) == 1)
        #expect(int(list.json["callCount"]) == 1)

        // Without a key (or with another key) the same body is a new call.
        let other = try server.request(
            "POST", "/v1/lists/alice/calls", body: Self.body, headers: [("Idempotency-Key", "k-2")])
        #expect(int(other.json["version"]) == 2)
        #expect(other.body != first.body)
    }

    @Test(arguments: Backend.available)
    func keysArePerList(backend: Backend) throws {
        let server = try TestServer(backend)
        let alice = try server.request(
            "POST", "/v1/lists/alice/calls", body: Self.body, headers: [("Idempotency-Key", "k")])
        let carol = try server.request(
            "POST", "/v1/lists/carol/calls", body: Self.body, headers: [("Idempotency-Key", "k")])
        #expect(alice.status == 201)
        #expect(carol.status == 201)
        #expect(int(try server.request("GET", "/v1/lists/carol").json["callCount"]) == 1)
    }

    @Test(arguments: Backend.available)
    func theSameKeyWithAnotherBodyIs422AndWritesNothing(backend: Backend) throws {
        let server = try TestServer(backend)
        _ = try server.request("POST", "/v1/lists/alice/calls", body: Self.body, headers: [("Idempotency-Key", "k")])
        let other = Self.body.replacingOccurrences(of: "bob", with: "dave")
        let reused = try server.request(
            "POST", "/v1/lists/alice/calls", body: other, headers: [("Idempotency-Key", "k")])
        #expect(reused.status == 422)
        #expect(reused.headers["content-type"] == "application/problem+json")
        #expect(reused.json["type"] as? String == "idempotency-key-reused")
        #expect(int(try server.request("GET", "/v1/lists/alice").json["callCount"]) == 1)
    }

    @Test(arguments: Backend.available, ["", String(repeating: "a", count: 256), "has space", "tab\there", "é"])
    func aKeyOutsideVisibleASCIIOr1To255Is400(backend: Backend, _ key: String) throws {
        let server = try TestServer(backend)
        let response = try server.request(
            "POST", "/v1/lists/alice/calls", body: Self.body, headers: [("Idempotency-Key", key)])
        #expect(response.status == 400, "key \(key.debugDescription)")
        #expect(response.json["type"] as? String == "bad-request")
        #expect(int(try server.request("GET", "/v1/lists/alice").json["version"]) == 0)
    }

    @Test(arguments: Backend.available)
    func twoKeyFieldsAre400AndTheLongestKeyIsAccepted(backend: Backend) throws {
        let server = try TestServer(backend)
        let twice = try server.request(
            "POST", "/v1/lists/alice/calls", body: Self.body,
            headers: [("Idempotency-Key", "a"), ("Idempotency-Key", "b")])
        #expect(twice.status == 400)
        let longest = String(repeating: "~", count: 255)
        let accepted = try server.request(
            "POST", "/v1/lists/alice/calls", body: Self.body, headers: [("Idempotency-Key", longest)])
        #expect(accepted.status == 201)
    }

    @Test(arguments: Backend.available)
    func aRetryAfterRestartStillGetsTheFirstAnswer(backend: Backend) throws {
        let database = try TestDatabase(backend)
        var first: TestResponse?
        do {
            let server = try TestServer(on: database)
            first = try server.request(
                "POST", "/v1/lists/alice/calls", body: Self.body, headers: [("Idempotency-Key", "k")])
        }
        let server = try TestServer(on: database)
        let retry = try server.request(
            "POST", "/v1/lists/alice/calls", body: Self.body, headers: [("Idempotency-Key", "k")])
        #expect(retry.status == 201)
        #expect(retry.body == first?.body)
    }
}
