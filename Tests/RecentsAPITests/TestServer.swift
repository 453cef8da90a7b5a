import Foundation
import HTTPClient
import RecentsAPI
import RecentsTestSupport

/// A real server on a free loopback port with its own temporary database, for end-to-end tests.
final class TestServer {
    let app: RecentsApp
    let directory: URL
    var port: Int { app.port }

    init(configure: (inout AppConfiguration) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("recents-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = AppConfiguration()
        configuration.http.port = 0
        configuration.store.path = directory.appendingPathComponent("test.sqlite").path
        configuration.logLevel = .warn
        configure(&configuration)
        app = try RecentsApp.start(configuration)
    }

    deinit {
        app.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A new keep-alive connection to the server.
    func client() throws -> HTTPConnection { try HTTPConnection(port: port) }

    /// One request on a fresh connection.
    @discardableResult
    func request(
        _ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = []
    ) throws -> TestResponse {
        try client().request(method, target, body: body, headers: headers)
    }
}

/// A call body for tests.
func callJSON(
    _ id: String, peer: String = "bob", name: String? = nil, direction: String = "incoming",
    endReason: String = "hangup", video: Bool = false, duration: Int = 0, timestamp: Int
) -> String {
    let nameMember = name.map { #", "name": "\#($0)""# } ?? ""
    return
        #"{"id": "\#(id)", "peer": {"id": "\#(peer)"\#(nameMember)}, "direction": "\#(direction)", "endReason": "\#(endReason)", "video": \#(video), "duration": \#(duration), "timestamp": \#(timestamp)}"#
}

/// Every value of a JSON object member as Int (Foundation gives NSNumber).
func int(_ value: Any?) -> Int? { (value as? NSNumber)?.intValue }
