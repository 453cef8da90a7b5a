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

    /// The ids are fixed by --seed: a rerun posts only what the list lacks, and says what was there.
    @Test func aRerunOnTheSameListPostsOnlyTheCallsItLacks() async throws {
        let server = try TestApp()
        let seed = { (now: Int) in
            await CommandThread.run([
                "seed", "--list", "demo", "--calls", "1200", "--port", server.port, "--now", String(now),
            ])
        }
        let first = await seed(1_700_000_000)
        #expect(first.status == 0 && first.standard == ["seeded 1200 calls into demo (version 2)"], "\(first.error)")
        // A day later the same ids come with other times (409 for each batch): nothing is posted.
        let nextDay = await seed(1_700_086_400)
        #expect(nextDay.status == 0, "\(nextDay.error)")
        #expect(nextDay.standard == ["seeded 0 calls into demo (version 2); 1200 were there already"])
        // The same moment again: the server replays each batch (same version, nothing stored).
        let again = await seed(1_700_000_000)
        #expect(again.standard == ["seeded 0 calls into demo (version 2); 1200 were there already"])
        // A demo call deleted since comes back, alone.
        let client = try CLI.client(host: "127.0.0.1", port: server.app.port, token: nil)
        #expect(try await client.deleteCall("seed-1-1100", from: "demo").version == 3)
        let refill = await seed(1_700_086_400)
        #expect(refill.standard == ["seeded 1 call into demo (version 4); 1199 were there already"], "\(refill.error)")
    }
}
