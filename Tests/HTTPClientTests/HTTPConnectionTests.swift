import Glibc
import RecentsTestSupport
import Testing

@testable import HTTPClient

/// The client against a one-shot loopback listener (`CannedServer`) that answers with canned bytes.
@Suite struct HTTPConnectionTests {
    @Test func sendsARequestAndReadsTheAnswer() throws {
        let server = try CannedServer()
        let port = server.port
        let connection = try HTTPConnection(port: port, timeout: .seconds(5))
        let accepted = server.accept()
        defer { close(accepted) }
        let answer = Array("HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok".utf8)
        _ = answer.withUnsafeBytes { send(accepted, $0.baseAddress, $0.count, 0) }
        let response = try connection.request("POST", "/x", body: "{}")
        #expect(response.status == 201)
        #expect(response.text == "ok")
        var request = [UInt8](repeating: 0, count: 4096)
        let count = request.withUnsafeMutableBytes { recv(accepted, $0.baseAddress, $0.count, 0) }
        let text = String(decoding: request[..<max(0, count)], as: UTF8.self)
        #expect(text.hasPrefix("POST /x HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"))
        #expect(text.contains("Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"))
    }

    @Test func aSilentServerTimesOut() throws {
        let server = try CannedServer()
        defer { withExtendedLifetime(server) {} }  // listening until the test ends
        let connection = try HTTPConnection(port: server.port, timeout: .milliseconds(100))
        #expect(throws: HTTPClientError.self) { try connection.readResponse() }
        #expect(connection.waitForClose() == false)
    }

    @Test func aClosedPortIsAnErrorThatNamesIt() throws {
        let port = try CannedServer().port  // released at once: nothing listens there any more
        let error = #expect(throws: HTTPClientError.self) { try HTTPConnection(port: port, timeout: .seconds(2)) }
        #expect(error?.description.hasPrefix("cannot connect to 127.0.0.1:\(port): ") == true)
    }
}
