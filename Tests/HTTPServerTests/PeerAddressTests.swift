import HTTPClient
import Testing

@testable import HTTPServer

/// Echoes the request's peer address, as the rate limiter reads it.
private let peerHandler: HTTPHandler = { request, responder in
    var headers = HTTPHeaders()
    headers.add("X-Peer", request.peerAddress)
    responder.respond(HTTPResponse(status: 200, headers: headers, body: []))
}

/// The address a request came from reaches the handler (issue 25: limits per client address).
@Suite struct PeerAddressTests {
    @Test func anIPv4ClientIsNamedByItsAddress() throws {
        try withServer(handler: peerHandler) { _, port in
            let connection = try HTTPConnection(port: port)
            for _ in 0..<2 {
                #expect(try connection.request("GET", "/").headers["x-peer"] == "127.0.0.1")
            }
        }
    }

    /// On a dual-stack listener an IPv4 client arrives as `::ffff:127.0.0.1`; it is named as IPv4
    /// so that it shares its bucket with the same client on an IPv4-only listener.
    @Test func ipv6AndMappedIPv4ClientsAreNamedAsTheyAre() throws {
        var configuration = testConfiguration()
        configuration.host = "::"
        let server = HTTPServer(configuration: configuration, logger: .init(level: .error), handler: peerHandler)
        do {
            try server.start()
        } catch {
            print("PeerAddressTests: no IPv6 on this host (\(error)); skipped")
            return
        }
        defer { server.shutdown(gracePeriod: .seconds(2)) }
        let v4 = try HTTPConnection(host: "127.0.0.1", port: server.localPort)
        #expect(try v4.request("GET", "/").headers["x-peer"] == "127.0.0.1")
        let v6 = try HTTPConnection(host: "::1", port: server.localPort)
        #expect(try v6.request("GET", "/").headers["x-peer"] == "::1")
    }

    @Test func aHandBuiltRequestHasNoPeer() {
        #expect(HTTPRequest(method: .GET, target: "/").peerAddress == "")
    }
}
