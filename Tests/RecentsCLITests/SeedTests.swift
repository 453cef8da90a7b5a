import RecentsClientCore
import RecentsCore
import Testing

@testable import RecentsCLI

@Suite struct SeedTests {
    @Test func everyGeneratedCallIsOneTheServerAccepts() throws {
        let calls = DemoHistory.generate(count: 500, seed: 7, now: 1_700_000_000)
        #expect(calls.count == 500 && calls.first?.id == "seed-7-1" && calls.last?.id == "seed-7-500")
        for call in calls {
            #expect(call.validationErrors().isEmpty, "\(call)")
            #expect((1_700_000_000 - 31 * 86_400...1_700_000_000).contains(call.timestamp))
            // The post carries every member, so the server stores the call as generated.
            let post = NewCall(call)
            #expect(post.id == call.id && post.peer.name == call.peer.name && post.duration == call.duration)
        }
    }

    @Test func theSameSeedGivesTheSameCalls() {
        #expect(
            DemoHistory.generate(count: 50, seed: 3, now: 1_700_000_000)
                == DemoHistory.generate(count: 50, seed: 3, now: 1_700_000_000))
        #expect(
            DemoHistory.generate(count: 50, seed: 3, now: 1_700_000_000)
                != DemoHistory.generate(count: 50, seed: 4, now: 1_700_000_000))
    }

    @Test func seedPostsInBatchesAndAnAuthOnServerWantsItsToken() async throws {
        let secret = FollowCommandTests.secret
        let server = try TestApp(secret: secret)
        let refused = await CommandThread.run(["seed", "--list", "demo", "--calls", "3", "--port", server.port])
        #expect(refused.status == 1 && refused.error.first?.contains("401 unauthorized") == true, "\(refused.error)")
        let token = try #require(
            run(["token", "--list", "demo"], environment: ["RECENTS_AUTH_SECRET": secret]).standard.first)
        let seeded = await CommandThread.run([
            "seed", "--list", "demo", "--calls", "2500", "--port", server.port, "--token", token,
        ])
        // Three posts of at most 1000 calls, each its own version.
        #expect(seeded.standard == ["seeded 2500 calls into demo (version 3)"], "\(seeded.error)")
    }
}
