import HTTPClient
import RecentsTestSupport
import Testing

@Suite struct TestResponseJSONTests {
    @Test func anObjectBodyReadsAsItsMembers() {
        let response = HTTPClientResponse(status: 200, body: Array(#"{"a": 1, "b": null}"#.utf8))
        #expect(response.json.keys.sorted() == ["a", "b"])
    }

    /// The accessor must fail the test, or `json["type"] == nil` would pass on an HTML error page.
    @Test(arguments: ["", "<html>oops</html>", "[1, 2]", #"{"truncated": "#])
    func aBodyThatIsNotAnObjectFailsTheTest(_ body: String) {
        let response = HTTPClientResponse(status: 502, body: Array(body.utf8))
        withKnownIssue {
            #expect(response.json["type"] == nil)
        }
    }
}
