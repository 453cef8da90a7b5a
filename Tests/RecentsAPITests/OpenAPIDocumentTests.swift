import Foundation
import HTTPServer
import RecentsStore
import SystemSupport
import Testing

@testable import RecentsAPI

@Suite struct OpenAPIDocumentTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The build embeds docs/openapi.json; a stale build (see Plugins/EmbedFiles) fails here.
    @Test func theEmbeddedDocumentIsTheOneInTheRepository() throws {
        let file = try Data(contentsOf: Self.packageRoot.appendingPathComponent("docs/openapi.json"))
        #expect(
            Array(file) == EmbeddedOpenAPI.file.bytes, "the embedded copy is stale: touch Package.swift and rebuild")
        #expect(EmbeddedOpenAPI.file.path == "openapi.json")
        #expect(EmbeddedOpenAPI.file.contentType == "application/json; charset=utf-8")
    }

    /// What a client downloads is docs/openapi.json to the byte, with its media type.
    @Test func theServerSendsTheDocumentsExactBytes() throws {
        let file = try Data(contentsOf: Self.packageRoot.appendingPathComponent("docs/openapi.json"))
        // SQLite only: the document is embedded in the binary; no store is involved in serving it.
        let server = try TestServer(.sqlite)
        let response = try server.request("GET", "/v1/openapi.json")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json; charset=utf-8")
        #expect(response.body == Array(file))
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteIsServed() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(EmbeddedOpenAPI.file.bytes)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let methods = Set(["get", "put", "post", "delete", "patch", "head", "options"])
        var documented = Set<String>()
        for (path, item) in paths {
            for method in item.keys where methods.contains(method) {
                documented.insert("\(method.uppercased()) \(path)")
            }
        }
        // SQLite only: the router is built on a SQLite store of its own; only the routes matter here.
        let server = try TestServer(.sqlite)
        let path = server.directory.appendingPathComponent("doc.sqlite").path
        let service = Service(
            store: try SQLiteStore.open(StoreConfiguration(path: path)), configuration: AppConfiguration(),
            verifier: nil,
            logger: Logger(level: .error))
        defer { service.store.close() }
        let served = Set(
            Routes.router(service).routes.filter { !WebClientFiles.paths.contains("\($0.pattern)") }
                .map { "\($0.method.rawValue) \($0.pattern)" })
        #expect(
            served == documented,
            "served but undocumented: \(served.subtracting(documented)); documented but not served: \(documented.subtracting(served))"
        )
    }
}
