import Glibc
import Testing

@testable import HTTPClient

/// The client against a one-shot loopback listener that answers with canned bytes.
@Suite struct HTTPConnectionTests {
    /// A listening socket on a free loopback port.
    private func listener() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(bound)
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test func sendsARequestAndReadsTheAnswer() throws {
        let (server, port) = try listener()
        defer { close(server) }
        let connection = try HTTPConnection(port: port, timeout: .seconds(5))
        let accepted = accept(server, nil, nil)
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
        let (server, port) = try listener()
        defer { close(server) }
        let connection = try HTTPConnection(port: port, timeout: .milliseconds(100))
        #expect(throws: HTTPClientError.self) { try connection.readResponse() }
        #expect(connection.waitForClose() == false)
    }

    @Test func aClosedPortIsAnErrorThatNamesIt() throws {
        let (server, port) = try listener()
        close(server)
        let error = #expect(throws: HTTPClientError.self) { try HTTPConnection(port: port, timeout: .seconds(2)) }
        #expect(error?.description.hasPrefix("cannot connect to 127.0.0.1:\(port): ") == true)
    }
}
