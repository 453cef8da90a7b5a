import Foundation
import RecentsTestSupport
import Testing

/// "Delete for everyone" reaches only the peer copies that name the caller's list (issue 10).
@Suite struct DeleteForEveryoneTests {
    static let day = 1_764_460_800

    @Test(arguments: Backend.available, [false, true])
    func aFakeCallCannotDeleteAVictimsCall(backend: Backend, auth: Bool) throws {
        let server = try auth ? TestServer.withAuth(backend) : TestServer(backend)
        let victim = auth ? bearer(liveToken("victim")) : []
        let mallory = auth ? bearer(liveToken("mallory")) : []
        // The victim's real call with carol, id c-1.
        try server.request(
            "POST", "/v1/lists/victim/calls", body: callJSON("c-1", peer: "carol", timestamp: Self.day), headers: victim
        )
        // Mallory posts a fake call with the same id naming the victim as peer, then deletes it
        // for everyone, and again with "Delete all".
        try server.request(
            "POST", "/v1/lists/mallory/calls", body: callJSON("c-1", peer: "victim", timestamp: Self.day),
            headers: mallory)
        let deleted = try server.request(
            "POST", "/v1/lists/mallory/rows/c-1/options/delete", body: #"{"scope": "everyone"}"#, headers: mallory)
        #expect(deleted.status == 200)
        try server.request(
            "POST", "/v1/lists/mallory/calls", body: callJSON("c-1", peer: "victim", timestamp: Self.day),
            headers: mallory)
        #expect(
            try server.request("POST", "/v1/lists/mallory/clear", body: #"{"scope": "everyone"}"#, headers: mallory)
                .status == 200)
        let call = try server.request("GET", "/v1/lists/victim/calls/c-1", headers: victim)
        #expect(call.status == 200)
        #expect(int(try server.request("GET", "/v1/lists/victim", headers: victim).json["version"]) == 1)
    }

    @Test(arguments: Backend.available)
    func aRealPeerCopyIsStillDeleted(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let alice = bearer(liveToken("alice"))
        let bob = bearer(liveToken("bob"))
        try server.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("c-1", peer: "bob", timestamp: Self.day), headers: alice)
        try server.request(
            "POST", "/v1/lists/bob/calls", body: callJSON("c-1", peer: "alice", timestamp: Self.day), headers: bob)
        try server.request(
            "POST", "/v1/lists/alice/clear", body: #"{"scope": "everyone"}"#, headers: alice)
        #expect(try server.request("GET", "/v1/lists/bob/calls/c-1", headers: bob).status == 404)
    }
}
