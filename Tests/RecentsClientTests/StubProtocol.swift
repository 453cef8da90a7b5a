import Foundation
import RecentsClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A canned answer of `StubProtocol`.
struct StubResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [Data]

    static func json(_ status: Int, _ text: String, type: String = "application/json") -> StubResponse {
        StubResponse(status: status, headers: ["Content-Type": type], body: [Data(text.utf8)])
    }

    static func events(_ chunks: [String]) -> StubResponse {
        StubResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: chunks.map { Data($0.utf8) })
    }
}

/// A `URLProtocol` that answers requests to one stub host from a handler and records them, so
/// tests can see the headers the client sends and serve an event stream the server lacks yet.
final class StubProtocol: URLProtocol {
    typealias Handler = @Sendable (URLRequest, Int) -> StubResponse

    struct Host {
        var handler: Handler
        var requests: [URLRequest] = []
    }

    static let hosts = Locked<[String: Host]>([:])

    /// A client whose requests to a fresh host go to `handler` (given the request and its ordinal).
    static func client(token: String? = nil, _ handler: @escaping Handler) -> (RecentsClient, host: String) {
        let host = "stub-\(UUID().uuidString.lowercased())"
        hosts.withLock { $0[host] = Host(handler: handler) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubProtocol.self]
        let client = RecentsClient(
            baseURL: URL(string: "http://\(host)")!, token: token, session: URLSession(configuration: configuration))
        return (client, host)
    }

    /// The requests the host has seen, in order.
    static func requests(_ host: String) -> [URLRequest] { hosts.withLock { $0[host]?.requests ?? [] } }

    override class func canInit(with request: URLRequest) -> Bool {
        guard let host = request.url?.host else { return false }
        return hosts.withLock { $0[host] != nil }
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let request = self.request
        guard let url = request.url, let host = url.host,
            let (handler, ordinal) = Self.hosts.withLock({ hosts -> (Handler, Int)? in
                hosts[host]?.requests.append(request)
                return hosts[host].map { ($0.handler, $0.requests.count - 1) }
            })
        else { return }
        let answer = handler(request, ordinal)
        let response = HTTPURLResponse(
            url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: answer.headers)!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        for chunk in answer.body { client?.urlProtocol(self, didLoad: chunk) }
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

/// A transition as the server writes it: `ids` inserted at 0..<n into an empty view.
func wireTransition(from: Int?, to: Int, inserts ids: [String], count: Int? = nil) -> String {
    let rows = ids.enumerated().map { index, id in
        let row =
            #"{"id":"\#(id)","peer":{"id":"bob","name":"bob"},"count":1,"callIds":["\#(id)"],"timestamp":1764460800,"missed":false,"incoming":true,"outgoing":false,"video":false,"duration":0,"status":"incoming","revealed":false,"editing":false,"options":[]}"#
        return #"{"index":\#(index),"previousIndex":null,"id":"\#(id)","row":\#(row),"directionHint":null}"#
    }
    let reason = from == nil ? "initial" : "interactiveChanges"
    return
        #"{"list":"alice","from":\#(from.map(String.init) ?? "null"),"to":\#(to),"reason":"\#(reason)","options":[],"deletes":[],"inserts":[\#(rows.joined(separator: ","))],"updates":[],"count":\#(count ?? ids.count),"hasMore":false,"editing":false,"revealedRowId":null,"epoch":"e1"}"#
}
