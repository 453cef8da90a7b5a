import Testing

@testable import HTTPServer

/// A parsed request's fields, kept as the bytes they arrived in until read: every way of reading
/// or changing them must give what string fields would.
@Suite struct ReceivedFieldsTests {
    /// The request `head` (fields only; the request line and Host are added) as the parser gives it.
    private func parsed(_ fields: String) throws -> HTTPRequest {
        var parser = RequestParser(limits: .init())
        parser.append(Array("GET /x HTTP/1.1\r\nHost: h\r\n\(fields)\r\n".utf8))
        guard case .request(let request, _) = parser.next() else {
            Issue.record("not parsed: \(fields)")
            throw ParseFailure()
        }
        return request
    }

    private struct ParseFailure: Error {}

    @Test(arguments: ["Authorization", "authorization", "AUTHORIZATION", "aUtHoRiZaTiOn"])
    func aFieldIsFoundByItsNameInAnyCase(sent: String) throws {
        let headers = try parsed("\(sent): Bearer t\r\n").headers
        #expect(headers["Authorization"] == "Bearer t")
        #expect(headers["authorization"] == "Bearer t")
        #expect(headers.values(for: "AUTHORIZATION") == ["Bearer t"])
        #expect(headers.contains("Authorization"))
    }

    @Test(arguments: ["Authorisation", "Authorizatio", "Proxy-Authorization", "Authorizationx", "!uthorization"])
    func otherNamesAreNotThatField(sent: String) throws {
        let headers = try parsed("\(sent): Bearer t\r\n").headers
        #expect(headers["Authorization"] == nil)
        #expect(headers.values(for: "Authorization").isEmpty)
        #expect(headers[sent] == "Bearer t")
    }

    /// The one value of a field, as bytes: received or built, and nothing when the field is absent
    /// or sent twice (a caller wanting one value must not pick one of two).
    @Test func aSoleValueIsReadAsBytesOnlyWhenThereIsExactlyOne() throws {
        func sole(_ headers: HTTPHeaders) -> String? {
            headers.withSoleValue(of: "authorization") { String(decoding: $0, as: UTF8.self) }
        }
        let one = try parsed("Accept: a\r\nAUTHORIZATION:  Bearer t \r\nX-One: 1\r\n").headers
        #expect(sole(one) == "Bearer t")
        #expect(sole(try parsed("Authorization: a\r\nauthorization: b\r\n").headers) == nil)
        #expect(sole(try parsed("Accept: a\r\n").headers) == nil)
        var built = HTTPHeaders()
        built.add("Authorization", "Bearer u")
        #expect(sole(built) == "Bearer u")
        built.add("authorization", "Bearer v")
        #expect(sole(built) == nil)
        #expect(sole(HTTPHeaders()) == nil)
    }

    @Test func repeatedFieldsKeepTheirOrderAndTheFirstWins() throws {
        let headers = try parsed("Accept: a\r\nX-One: 1\r\naccept: b\r\nACCEPT: c\r\n").headers
        #expect(headers["Accept"] == "a")
        #expect(headers.values(for: "accept") == ["a", "b", "c"])
        #expect(headers.count == 5)
    }

    @Test func listingGivesNamesAsSentAndValuesTrimmed() throws {
        let headers = try parsed("X-Spaced: \t  in  the middle \t \r\nx-empty:\r\nX-Tight:v\r\nX-Utf8: é日本🙂\r\n")
            .headers
        let listed = headers.fields.map { "\($0.name)=\($0.value)" }
        #expect(listed == ["Host=h", "X-Spaced=in  the middle", "x-empty=", "X-Tight=v", "X-Utf8=é日本🙂"])
        #expect(headers.map(\.name) == ["Host", "X-Spaced", "x-empty", "X-Tight", "X-Utf8"])
        #expect(headers["x-utf8"] == "é日本🙂")
        #expect(headers["X-Empty"] == "")
    }

    @Test func changingParsedFieldsKeepsTheOthersInOrder() throws {
        var headers = try parsed("A: 1\r\nB: 2\r\nA: 3\r\nVary: Accept\r\n").headers
        headers.add("C", "4")
        #expect(headers.fields.map(\.value) == ["h", "1", "2", "3", "Accept", "4"])
        headers.remove("a")
        #expect(headers.fields.map(\.name) == ["Host", "B", "Vary", "C"])
        headers.set("B", "5")
        #expect(headers.values(for: "b") == ["5"])
        headers.addListToken("Origin", to: "vary")
        #expect(headers["Vary"] == "Accept, Origin")
        #expect(headers.count == 4)
    }

    @Test func aParsedRequestWithOnlyHostListsJustThat() throws {
        let headers = try parsed("").headers
        #expect(headers.fields.map(\.name) == ["Host"])
        #expect(headers["host"] == "h")
        #expect(headers["Accept"] == nil)
    }
}
