import Foundation
import RecentsTestSupport
import Synchronization
import Testing

@testable import RecentsAPI

@Suite struct ServiceEndpointTests {
    /// `/healthz` says ok, and the OpenAPI document is served (as JSON, of the version it says).
    @Test(
        arguments: Backend.available,
        [(path: "/healthz", member: "status", value: "ok"), ("/v1/openapi.json", "openapi", "3.1.0")])
    func serviceDocumentsAnswerWithTheirJSON(backend: Backend, document: (path: String, member: String, value: String))
        throws
    {
        let server = try TestServer(backend)
        let response = try server.request("GET", document.path)
        #expect(response.status == 200)
        #expect(response.json[document.member] as? String == document.value)
    }

    @Test(arguments: Backend.available)
    func metricsCountRequestsByRouteAndStatus(backend: Backend) throws {
        let server = try TestServer(backend)
        try server.request("GET", "/v1/lists/alice/rows")
        try server.request("GET", "/v1/lists/alice/rows?limit=0")
        try server.request(
            "POST", "/v1/lists/alice/calls",
            body: #"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": 1}"#)
        let metrics = try server.request("GET", "/metrics")
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = metrics.text
        #expect(
            text.contains(#"recents_http_requests_total{method="GET",route="/v1/lists/{list}/rows",status="200"} 1"#))
        #expect(
            text.contains(#"recents_http_requests_total{method="GET",route="/v1/lists/{list}/rows",status="400"} 1"#))
        #expect(text.contains("recents_versions_written_total 1"))
        #expect(text.contains("recents_parked_long_polls 0"))
        #expect(text.contains("recents_open_connections "))
        #expect(text.contains("recents_http_request_duration_seconds_bucket{le=\"+Inf\"}"))
        #expect(text.contains("recents_write_batch_size_bucket"))
    }

    @Test(arguments: Backend.available)
    func optionsListsTheMethodsOfAKnownPath(backend: Backend) throws {
        let server = try TestServer(backend)
        let response = try server.request("OPTIONS", "/v1/lists/alice/calls/c-1")
        #expect(response.status == 204)
        #expect(response.headers["allow"] == "DELETE, GET, HEAD, OPTIONS")
        #expect(response.headers["access-control-allow-origin"] == nil)
        #expect(try server.request("OPTIONS", "/nowhere").status == 404)
        let wrong = try server.request("PUT", "/v1/lists/alice/calls/c-1")
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "DELETE, GET, HEAD, OPTIONS")
    }

    @Test(arguments: Backend.available)
    func corsHeadersWhenAnOriginIsConfigured(backend: Backend) throws {
        let server = try TestServer(backend, socket: true) { $0.corsOrigin = "https://app.example" }
        let preflight = try server.request(
            "OPTIONS", "/v1/lists/alice/editing",
            headers: [("Origin", "https://app.example"), ("Access-Control-Request-Method", "PUT")])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == "https://app.example")
        #expect(preflight.headers["access-control-allow-methods"]?.contains("PUT") == true)
        #expect(preflight.headers["access-control-allow-headers"]?.contains("Content-Type") == true)
        let get = try server.request("GET", "/v1/lists/alice/rows", headers: [("Origin", "https://app.example")])
        #expect(get.headers["access-control-allow-origin"] == "https://app.example")
        #expect(get.headers["access-control-expose-headers"]?.contains("ETag") == true)
        let missing = try server.request("GET", "/nowhere")
        #expect(missing.headers["access-control-allow-origin"] == "https://app.example")
        // Errors the HTTP layer answers before routing carry them too.
        let tooLong = try server.request("GET", "/v1/lists/alice/rows?x=" + String(repeating: "a", count: 9000))
        #expect(tooLong.status == 414)
        #expect(tooLong.headers["access-control-allow-origin"] == "https://app.example")
    }

    @Test(arguments: Backend.available)
    func aRequiredBodyThatIsMissingIs400(backend: Backend) throws {
        let server = try TestServer(backend)
        let response = try server.request("PUT", "/v1/lists/alice/editing")
        #expect(response.status == 400)
        #expect(response.json["type"] as? String == "invalid-json")
        let optional = try server.request("POST", "/v1/lists/alice/clear")
        #expect(optional.status == 200)
    }
}

@Suite struct LoadSheddingTests {
    @Test(arguments: Backend.available)
    func writesBeyondThePendingLimitAre503WithRetryAfter(backend: Backend) throws {
        let server = try TestServer(backend) { $0.maxPendingWrites = 0 }
        let response = try server.request("PUT", "/v1/lists/alice/editing", body: #"{"editing": true}"#)
        #expect(response.status == 503)
        #expect(response.headers["retry-after"] == "1")
        #expect(response.json["type"] as? String == "overloaded")
        #expect(try server.request("GET", "/v1/lists/alice/rows").status == 200)
    }

    @Test(arguments: Backend.available)
    func badRequestsAreRefusedBeforeTheyAreQueuedForTheStore(backend: Backend) throws {
        // With no room for writes, anything that reached the queue would be 503: these never do.
        let server = try TestServer(backend) { $0.maxPendingWrites = 0 }
        let body = try server.request("PUT", "/v1/lists/alice/editing", body: #"{"editing": 1}"#)
        #expect(body.status == 422)
        #expect(try server.request("PUT", "/v1/lists/a:b/editing", body: #"{"editing": true}"#).status == 404)
        #expect(try server.request("POST", "/v1/lists/alice/rows/c-1/options/archive").status == 404)
        #expect(try server.request("POST", "/v1/lists/alice/rows/c-1/options/delete?limit=0").status == 400)
        #expect(try server.request("POST", "/v1/lists/alice/calls", body: "{}").status == 422)
    }
}

@Suite struct DeadlineTimerTests {
    @Test func cancelledDeadlinesAreForgottenAndTheHeapStaysBounded() {
        let timer = DeadlineTimer(clock: .manual(ManualClock()))
        defer { timer.stop() }
        for _ in 0..<10_000 {
            let token = timer.schedule(after: .seconds(3600)) {}
            timer.cancel(token)
        }
        #expect(timer.pendingCount == 0)
        #expect(timer.slotCount <= 2048)
    }

    @Test func dueActionsRunInDeadlineOrderAndCancelledOnesDoNot() {
        let clock = ManualClock()
        let timer = DeadlineTimer(clock: .manual(clock))
        defer { timer.stop() }
        let ran = Mutex<[Int]>([])
        let cancelled = timer.schedule(after: .milliseconds(50)) { ran.withLock { $0.append(1) } }
        timer.cancel(cancelled)
        timer.schedule(after: .milliseconds(200)) { ran.withLock { $0.append(3) } }
        timer.schedule(after: .milliseconds(100)) { ran.withLock { $0.append(2) } }
        clock.advance(by: .milliseconds(99))
        #expect(ran.withLock { $0 } == [])
        clock.advance(by: .milliseconds(1))
        #expect(ran.withLock { $0 } == [2])
        clock.advance(by: .seconds(1))
        #expect(ran.withLock { $0 } == [2, 3])
        #expect(timer.pendingCount == 0)
    }

    /// The system clock's thread, once: a deadline a few milliseconds away runs on its own.
    @Test func onTheSystemClockAThreadRunsTheActions() {
        let timer = DeadlineTimer()
        defer { timer.stop() }
        let done = DispatchSemaphore(value: 0)
        timer.schedule(after: .milliseconds(5)) { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
    }
}
