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
}
