import Foundation
import RecentsClient
import RecentsCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("follow over the event stream (stubbed: the server has none yet)", .timeLimit(.minutes(1)))
struct EventStreamFollowTests {
    static let options = FollowOptions(initialBackoff: 0.01, maximumBackoff: 0.05, maximumFailures: 20)

    func query(_ request: URLRequest) -> [String: String] {
        let items = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    @Test func streamsTransitionsReconnectsFromTheLastOneAndResyncs() async throws {
        let (client, host) = StubProtocol.client(token: "t0k") { _, ordinal in
            switch ordinal {
            case 0:
                // Two events split mid-line across chunks, a heartbeat, then a clean end (max-age).
                let first = "id: e1.1\nevent: transition\ndata: \(wireTransition(from: nil, to: 1, inserts: ["a"]))\n\n"
                let second =
                    "id: e1.2\nevent: transition\ndata: \(wireTransition(from: 1, to: 2, inserts: ["b"], count: 2))\n\n"
                let both = first + ": keep-alive\n\n" + second
                let cut = both.index(both.startIndex, offsetBy: first.count + 5)
                return .events([String(both[..<cut]), String(both[cut...])])
            case 1:
                return .events(["event: resync\ndata: {\"currentVersion\":7}\n\n"])
            default:
                return .events(["event: transition\ndata: \(wireTransition(from: nil, to: 7, inserts: ["z"]))\n\n"])
            }
        }
        var model = ListModel()
        var iterator = client.follow(list: "alice", options: Self.options).makeAsyncIterator()
        for expected in [["a"], ["b", "a"], ["z"]] {
            let event = try #require(try await iterator.next())
            try applyValidated(event, to: &model, "event \(event.to)")
            #expect(model.rowIds == expected)
        }
        let requests = StubProtocol.requests(host)
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.url?.path == "/v1/lists/alice/events" })
        #expect(requests.allSatisfy { $0.value(forHTTPHeaderField: "Accept") == "text/event-stream" })
        #expect(requests.allSatisfy { $0.value(forHTTPHeaderField: "Authorization") == "Bearer t0k" })
        #expect(query(requests[0])["since"] == nil)
        #expect(query(requests[1])["since"] == "2" && query(requests[1])["epoch"] == "e1")
        #expect(query(requests[2])["since"] == nil)
    }

    @Test(arguments: [404, 405, 406])
    func fallsBackToLongPollingWhenThereIsNoStream(_ status: Int) async throws {
        let (client, host) = StubProtocol.client { request, _ in
            if request.url?.path.hasSuffix("/events") == true {
                return .json(
                    status, #"{"type":"x","title":"No","status":\#(status)}"#, type: "application/problem+json")
            }
            return .json(200, wireTransition(from: nil, to: 4, inserts: ["a"]))
        }
        var iterator = client.follow(list: "alice", options: Self.options).makeAsyncIterator()
        let event = try #require(try await iterator.next())
        #expect(event.to == 4 && event.isInitial)
        let paths = StubProtocol.requests(host).map { $0.url?.path ?? "" }
        #expect(paths == ["/v1/lists/alice/events", "/v1/lists/alice/transitions"])
    }

    @Test func aSlowConsumerOfTheStreamReconnectsInsteadOfBuffering() async throws {
        let (client, host) = StubProtocol.client { request, ordinal in
            guard ordinal == 0 else {
                // The reconnect resumes from what the consumer took: one transition covers the rest.
                let since = request.url?.query?.split(separator: "&").first { $0.hasPrefix("since=") }
                let from = since.flatMap { Int($0.dropFirst(6)) } ?? 0
                let event = wireTransition(from: from, to: 9, inserts: ["z"], count: from + 1)
                return .events(["event: transition\ndata: \(event)\n\n"])
            }
            // Five events at once into a buffer of two: the overflow is not kept, the connection closes.
            let events = (1...5).map { version in
                let from: Int? = version == 1 ? nil : version - 1
                let event = wireTransition(from: from, to: version, inserts: ["r\(version)"], count: version)
                return "event: transition\ndata: \(event)\n\n"
            }
            return .events([events.joined()])
        }
        var options = Self.options
        options.eventBufferCapacity = 2
        var model = ListModel()
        var delivered: [Int] = []
        var iterator = client.follow(list: "alice", options: options).makeAsyncIterator()
        while model.version != 9 {
            let event = try #require(try await iterator.next())
            try applyValidated(event, to: &model, "event \(event.to)")
            delivered.append(event.to)
        }
        // At most the buffer plus the one the consumer was already waiting for, then one catch-up.
        #expect((3...4).contains(delivered.count) && delivered.last == 9)
        #expect(delivered.dropLast() == Array(1...(delivered.count - 1)))
        let requests = StubProtocol.requests(host)
        #expect(requests.count == 2 && query(requests[1])["since"] == String(delivered.count - 1))
        #expect(model.rowIds.first == "z" && model.rows.count == delivered.count)
    }

    @Test func aServerThatIgnoresAcceptIsTreatedAsHavingNoStream() async throws {
        let (client, host) = StubProtocol.client { _, _ in .json(200, wireTransition(from: nil, to: 4, inserts: [])) }
        var iterator = client.follow(list: "alice", options: Self.options).makeAsyncIterator()
        #expect(try await iterator.next()?.to == 4)
        #expect(StubProtocol.requests(host).map { $0.url?.path ?? "" }.last == "/v1/lists/alice/transitions")
    }

    @Test func givesUpAfterTheConfiguredNumberOfFailures() async throws {
        let (client, host) = StubProtocol.client { _, _ in
            .json(503, #"{"type":"overloaded","title":"Overloaded","status":503}"#, type: "application/problem+json")
        }
        var options = Self.options
        options.maximumFailures = 3
        do {
            for try await _ in client.follow(list: "alice", options: options) { Issue.record("no event expected") }
            Issue.record("the stream did not fail")
        } catch let error as RecentsClientError {
            #expect(error.problem?.status == 503)
        }
        #expect(StubProtocol.requests(host).count == 3)
    }

    @Test func backoffIsJitteredBelowAnExponentialCap() {
        let options = FollowOptions(initialBackoff: 0.5, maximumBackoff: 4)
        var generator = SplitMix64(seed: 1)
        for failures in 1...8 {
            let cap = min(4, 0.5 * Double(1 << (failures - 1)))
            let delays = (0..<50).map { _ in options.backoff(afterFailures: failures, using: &generator) }
            #expect(delays.allSatisfy { $0 >= 0 && $0 <= cap })
            #expect(Set(delays).count > 1)
        }
    }
}

@Suite("request headers")
struct RequestHeaderTests {
    @Test func postsCarryAnIdempotencyKeyAndTheBearerToken() async throws {
        let (client, host) = StubProtocol.client(token: "s3cret") { _, _ in
            .json(201, #"{"version":1,"epoch":"e1","calls":[]}"#)
        }
        let call = NewCall(peer: .init(id: "bob"), direction: .incoming, timestamp: 1)
        try await client.postCalls([call], to: "alice")
        try await client.postCalls([call], to: "alice", idempotencyKey: "retry-1")
        try await client.postCalls([call], to: "alice", idempotencyKey: "retry-1")
        let requests = StubProtocol.requests(host)
        let keys = requests.map { $0.value(forHTTPHeaderField: "Idempotency-Key") }
        #expect(keys[0] != nil && keys[0] != "retry-1" && keys[1] == "retry-1" && keys[2] == "retry-1")
        #expect(requests.allSatisfy { $0.value(forHTTPHeaderField: "Authorization") == "Bearer s3cret" })
        #expect(requests.allSatisfy { $0.value(forHTTPHeaderField: "Content-Type") == "application/json" })
    }

    @Test func aBaseURLWithAPathKeepsItsPrefixAndSegmentsAreEncoded() async throws {
        let (stub, host) = StubProtocol.client { _, _ in .json(200, #"{"version":1,"epoch":"e1"}"#) }
        var client = stub
        client.baseURL = URL(string: "http://\(host)/recents/")!
        try await client.deleteCall("c:1", from: "alice")
        try await client.deleteCall("a/b", from: "alice")
        let paths = StubProtocol.requests(host).map { $0.url?.absoluteString ?? "" }
        #expect(
            paths == [
                "http://\(host)/recents/v1/lists/alice/calls/c:1", "http://\(host)/recents/v1/lists/alice/calls/a%2Fb",
            ])
    }

    @Test func noTokenSendsNoAuthorization() async throws {
        let (client, host) = StubProtocol.client { _, _ in
            .json(200, #"{"list":"alice","epoch":"e1","version":0,"editing":false,"revealedRowId":null,"callCount":0}"#)
        }
        _ = try await client.list("alice")
        #expect(StubProtocol.requests(host).first?.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func aNonProblemErrorBodyStillGivesTheStatus() async throws {
        let (client, _) = StubProtocol.client { _, _ in .json(502, "<html>bad gateway</html>", type: "text/html") }
        do {
            _ = try await client.list("alice")
            Issue.record("502 succeeded")
        } catch {
            #expect(error.problem?.status == 502)
        }
    }
}
