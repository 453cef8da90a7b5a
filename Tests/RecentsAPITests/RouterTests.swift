import Foundation
import HTTPServer
import RecentsStore
import SystemSupport
import Testing

@testable import RecentsAPI

@Suite struct RouterTests {
    /// A table of stand-in endpoints (the handlers never run here: resolution is what is tested).
    static let router = Router([
        Endpoint(.GET, "/healthz") { _ throws(APIError) in },
        Endpoint(.GET, "/v1/lists/{list}") { _ throws(APIError) in },
        Endpoint(.DELETE, "/v1/lists/{list}") { _ throws(APIError) in },
        Endpoint(.POST, "/v1/lists/{list}/calls") { _ throws(APIError) in },
        Endpoint(.GET, "/v1/lists/{list}/calls/{callId}") { _ throws(APIError) in },
    ])

    static func segments(_ path: String) -> [String] {
        HTTPRequest(method: .GET, target: path).pathSegments
    }

    static func route(_ method: HTTPMethod, _ path: String) -> Route {
        router.route(method, segments(path))
    }

    @Test func everyOperationOfTheOpenAPIDocumentResolvesToItsEndpoint() throws {
        // The repository's copy, whichever way the binary embeds it.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try Data(contentsOf: root.appendingPathComponent("docs/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("router-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = Service(
            store: try SQLiteStore.open(StoreConfiguration(path: directory.appendingPathComponent("r.sqlite").path)),
            configuration: AppConfiguration(), verifier: nil,
            logger: Logger(level: .error))
        defer { service.store.close() }
        let router = Routes.router(service)
        var operations = 0
        for (pattern, item) in paths {
            let path = pattern.replacingOccurrences(of: "{list}", with: "alice")
                .replacingOccurrences(of: "{callId}", with: "c-1").replacingOccurrences(of: "{rowId}", with: "c%3A2")
                .replacingOccurrences(of: "{key}", with: "delete")
            for method in item.keys where ["get", "put", "post", "delete"].contains(method) {
                let route = router.route(HTTPMethod(method.uppercased()), Self.segments(path))
                #expect(route.label == pattern, "\(method) \(path)")
                #expect(route.endpoint?.method.rawValue == method.uppercased(), "\(method) \(path)")
                operations += 1
            }
        }
        #expect(operations == router.endpoints.count - WebClientFiles.paths.count)
    }

    @Test(arguments: ["/nowhere", "/web.js", "/v1/lists", "/v1/lists/", "/v1/lists//calls", "/v1/lists/a/calls/c-1/x"])
    func pathsThatFitNoPatternAreNotFound(path: String) {
        let route = Self.route(.GET, path)
        #expect(route.label == "unmatched")
        #expect(route.endpoint == nil)
    }

    @Test func aKnownPathWithAnotherMethodIsMethodNotAllowed() {
        let route = Self.route(.PUT, "/v1/lists/alice")
        #expect(route.label == "unmatched-method")
        #expect(route.endpoint == nil)
        #expect(Self.route(.PATCH, "/v1/lists/alice") === route)
        // HEAD stands for GET only: a path without GET has no HEAD.
        #expect(Self.route(.HEAD, "/v1/lists/alice/calls") === Self.route(.PUT, "/v1/lists/alice/calls"))
    }

    @Test func headResolvesToTheGetEndpoint() {
        let get = Self.route(.GET, "/v1/lists/alice/calls/c-1")
        #expect(Self.route(.HEAD, "/v1/lists/alice/calls/c-1") === get)
        #expect(get.endpoint?.method == .GET)
        #expect(get.label == "/v1/lists/{list}/calls/{callId}")
    }

    @Test func optionsOnAKnownPathIsTheTablesOwnAnswer() {
        let options = Self.route(.OPTIONS, "/v1/lists/alice")
        #expect(options.endpoint == nil)
        #expect(options !== Self.route(.PUT, "/v1/lists/alice"))
        #expect(Self.route(.OPTIONS, "/nowhere").label == "unmatched")
    }

    @Test func methodsAndPathsResolveToTheirOwnEndpoint() {
        #expect(Self.route(.GET, "/v1/lists/alice").endpoint?.method == .GET)
        #expect(Self.route(.DELETE, "/v1/lists/alice").endpoint?.method == .DELETE)
        #expect(Self.route(.POST, "/v1/lists/alice/calls").label == "/v1/lists/{list}/calls")
        #expect(Self.route(.GET, "/healthz").label == "/healthz")
    }

    /// /metrics counts a route under `labelIndex`: one index per label, so two routes share a
    /// series exactly when they share a label.
    @Test func everyRouteCountsUnderTheIndexOfItsOwnLabel() {
        let router = Self.router
        #expect(Set(router.labels).count == router.labels.count)
        let requests: [(HTTPMethod, String)] = [
            (.GET, "/healthz"), (.GET, "/v1/lists/alice"), (.DELETE, "/v1/lists/alice"), (.PUT, "/v1/lists/alice"),
            (.OPTIONS, "/v1/lists/alice"), (.POST, "/v1/lists/alice/calls"), (.HEAD, "/v1/lists/alice/calls"),
            (.GET, "/v1/lists/alice/calls/c-1"), (.GET, "/nowhere"), (.OPTIONS, "/healthz"),
        ]
        for (method, path) in requests {
            let route = Self.route(method, path)
            #expect(router.labels.indices.contains(route.labelIndex), "\(method) \(path)")
            #expect(router.labels[route.labelIndex] == route.label, "\(method) \(path)")
        }
    }

    @Test func allowListsTheMethodsSortedWithHeadForGetThenOptions() {
        #expect(Router.allow([.GET, .DELETE]) == "DELETE, GET, HEAD, OPTIONS")
        #expect(Router.allow([.POST]) == "POST, OPTIONS")
        #expect(Router.allow([.PUT, .GET]) == "GET, HEAD, PUT, OPTIONS")
    }

    @Test func patternsKnowTheirParametersAndWhichOthersTheyOverlap() {
        let row = RoutePattern("/v1/lists/{list}/rows/{rowId}/options/{key}")
        #expect(row.parameterNames == ["list", "rowId", "key"])
        #expect(row.parameterPositions == [2, 4, 6])
        #expect(RoutePattern("/").segments.isEmpty)
        #expect(RoutePattern("/v1/lists/{list}").overlaps(RoutePattern("/v1/lists/alice")))
        #expect(!RoutePattern("/v1/lists/{list}/rows").overlaps(RoutePattern("/v1/lists/{list}/calls")))
        #expect(!RoutePattern("/v1/lists/{list}").overlaps(RoutePattern("/v1/lists/{list}/rows")))
        #expect(!row.matches(["v1", "lists", "", "rows", "c-1", "options", "delete"]))
        #expect(row.matches(["v1", "lists", "a b", "rows", "c-1", "options", "delete"]))
    }
}
