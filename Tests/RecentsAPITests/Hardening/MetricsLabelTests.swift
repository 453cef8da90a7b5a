import Foundation
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// No client can add a `/metrics` series (issue 38, item 1): an invented method counts as `other`.
@Suite struct MetricsLabelTests {
    /// The `recents_http_requests_total` lines of `/metrics`.
    static func series(_ server: TestServer) throws -> [String] {
        try server.request("GET", "/metrics", headers: bearer(liveToken("ops", .admin))).text.split(separator: "\n")
            .map(String.init)
            .filter { $0.hasPrefix("recents_http_requests_total{") }
    }

    @Test func inventedMethodsShareOneLabelAndAddNoSeries() throws {
        // Admin tokens (the /metrics reader's) are exempt from the rate; clients without one are not.
        let server = try TestServer.withAuth(.sqlite) { $0.rateLimit.requestsPerSecond = 1 }
        #expect(try server.request("GET", "/healthz").status == 200)
        let before = try Self.series(server).count
        for n in 0..<500 {
            // A path the table has (405), one it has not (404), and one over the rate (429).
            _ = try server.request("M\(n)", "/healthz")
            _ = try server.request("X\(n)", "/nowhere-\(n)")
            _ = try server.request("Y\(n)", "/v1/lists/alice")
        }
        let after = try Self.series(server)
        // /metrics itself, and `other` on the table's 405 and 404 routes, and each over the rate:
        // 1,500 invented methods, four series.
        #expect(after.count == before + 5, "\(after)")
        #expect(!after.contains { $0.contains("method=\"M") || $0.contains("method=\"X") || $0.contains("/nowhere") })
        #expect(
            after.contains {
                $0.hasPrefix(#"recents_http_requests_total{method="other",route="unmatched-method",status="405"}"#)
            })
        #expect(after.contains { $0.contains(#"method="other""#) && $0.contains(#"status="429""#) })
        // The methods the API answers keep their names.
        #expect(after.contains { $0.hasPrefix(#"recents_http_requests_total{method="GET",route="/healthz""#) })
    }

    /// The request series come out sorted by route, then method, then status, whatever order they
    /// were first counted in, each with its own count, named by the labels of its first answer.
    @Test func requestSeriesAreSortedByRouteMethodAndStatus() {
        let metrics = APIMetrics()
        let answers: [(series: Int, route: String, method: String, status: Int)] = [
            (7, "/v1/lists/{list}/rows", "GET", 304), (2, "/healthz", "GET", 200),
            (7, "/v1/lists/{list}/rows", "GET", 200), (8, "/v1/lists/{list}/rows", "HEAD", 200),
            (0, "unmatched", "other", 404), (7, "/v1/lists/{list}/rows", "GET", 200),
            (3, "/healthz", "DELETE", 405), (7, "/v1/lists/{list}/rows", "GET", 304),
            (7, "/v1/lists/{list}/rows", "GET", 200),
        ]
        for answer in answers {
            metrics.record(series: answer.series, status: answer.status, seconds: 0.001) {
                (answer.route, answer.method)
            }
        }
        let samples = APIMetrics.Samples(
            openConnections: 0, parkedLongPolls: 0, openEventStreams: 0, writeBatches: 0, writes: 0,
            versionsWritten: 0, commitSecondsTotal: 0, batchSizeBuckets: [])
        let lines = String(decoding: metrics.render(samples), as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("recents_http_requests_total{") }
        #expect(
            lines == [
                #"recents_http_requests_total{method="DELETE",route="/healthz",status="405"} 1"#,
                #"recents_http_requests_total{method="GET",route="/healthz",status="200"} 1"#,
                #"recents_http_requests_total{method="GET",route="/v1/lists/{list}/rows",status="200"} 3"#,
                #"recents_http_requests_total{method="GET",route="/v1/lists/{list}/rows",status="304"} 2"#,
                #"recents_http_requests_total{method="HEAD",route="/v1/lists/{list}/rows",status="200"} 1"#,
                #"recents_http_requests_total{method="other",route="unmatched",status="404"} 1"#,
            ])
        #expect(
            String(decoding: metrics.render(samples), as: UTF8.self)
                .contains("recents_http_request_duration_seconds_count \(answers.count)\n"))
    }
}
