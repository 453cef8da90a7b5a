import Testing

@testable import HTTPServer

/// The generic router (to be replaced by the API's request pipeline; delete this file with Router.swift).
@Suite(.serialized) struct RouterTests {
    @Test func routerGives404And405WithAllow() throws {
        var router = Router()
        router.add(.GET, "/v1/lists/{list}/rows/{rowId}/reveal") { req, r in
            r.respond(
                .json(
                    200,
                    Array("\(req.pathParameters["list"]!)|\(req.pathParameters["rowId"]!)|\(req.routePattern!)".utf8)))
        }
        router.add(.POST, "/v1/lists/{list}/rows/{rowId}/reveal") { _, r in r.respond(.json(201, [])) }
        router.add(.PUT, "/v1/other") { _, r in r.respond(.json(200, [])) }
        #expect(router.routes.map(\.pattern).count == 3)
        #expect(router.allowedMethods(forPath: "/v1/lists/a/rows/b/reveal") == [.GET, .HEAD, .POST])
        #expect(router.allowedMethods(forPath: "/nope") == nil)
        let r = router
        try withServer(handler: { r.handle($0, $1) }) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /v1/lists/my%20list/rows/7/reveal HTTP/1.1\r\n\r\n")
            #expect(c.readResponse()?.bodyString == "my list|7|/v1/lists/{list}/rows/{rowId}/reveal")
            c.send("DELETE /v1/lists/x/rows/1/reveal HTTP/1.1\r\n\r\n")
            let notAllowed = try #require(c.readResponse())
            #expect(notAllowed.status == 405)
            #expect(notAllowed.header("Allow") == "GET, HEAD, POST")
            #expect(notAllowed.bodyString == "DELETE is not allowed on /v1/lists/x/rows/1/reveal")
            c.send("GET /v1/nothing HTTP/1.1\r\n\r\n")
            let missing = try #require(c.readResponse())
            #expect(missing.status == 404)
            #expect(missing.bodyString == "no route for /v1/nothing")
            c.send("HEAD /v1/lists/x/rows/1/reveal HTTP/1.1\r\n\r\n")
            let head = try #require(c.readResponse(head: true))
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "40")
        }
    }
}
