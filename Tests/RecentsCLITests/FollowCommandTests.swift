import Glibc
import RecentsAPI
import RecentsAuth
import RecentsJSON
import Testing

@testable import RecentsCLI

/// `recents follow` (and `seed`, which posts through the same client) against a live server.
@Suite(.timeLimit(.minutes(2)))
struct FollowCommandTests {
    static let secret = "0123456789abcdef0123456789abcdef"

    @Test func printsTheInitialLoadThenALineForAWrite() async throws {
        let server = try TestApp()
        let follow = CommandThread(["follow", "--list", "demo", "--port", server.port, "--exit-after", "2"])
        var lines = follow.lines.makeAsyncIterator()
        let initial = await lines.next()
        #expect(initial == "version=0 from=none reason=initial deletes=0 inserts=0 updates=0 rows=0 hint=none")
        let seed = await CommandThread.run(["seed", "--list", "demo", "--calls", "3", "--port", server.port])
        #expect(seed.status == 0 && seed.standard == ["seeded 3 calls into demo (version 1)"], "\(seed.error)")
        let write = await lines.next()
        #expect(write?.hasPrefix("version=1 from=0 reason=interactiveChanges deletes=0 inserts=") == true)
        let result = await follow.finished.value
        #expect(result.status == 0 && result.standard.count == 2 && result.error.isEmpty, "\(result.error)")
    }

    @Test func jsonLinesAreTheTransitionsAsReceived() async throws {
        let server = try TestApp()
        let follow = CommandThread([
            "follow", "--list", "demo", "--port", server.port, "--json", "--exit-after", "2", "--filter", "missed",
        ])
        var lines = follow.lines.makeAsyncIterator()
        _ = await lines.next()
        _ = await CommandThread.run(["seed", "--list", "demo", "--calls", "40", "--port", server.port])
        let result = await follow.finished.value
        #expect(result.status == 0 && result.standard.count == 2)
        for (line, expected) in zip(result.standard, [("from", JSONValue.null), ("to", .number(1, integer: 1))]) {
            guard case .object(let members) = try JSONParser.parse(Array(line.utf8)) else {
                Issue.record("not a JSON object: \(line)")
                continue
            }
            #expect(members.first { $0.0 == expected.0 }?.1 == expected.1, "\(line)")
            #expect(members.first { $0.0 == "list" }?.1 == .string("demo"))
        }
    }

    @Test(arguments: [
        (["follow", "--list", "a/b"], "invalid value 'a/b' for --list"),
        (["follow"], "missing required flag '--list'"),
        (["follow", "--list", "demo", "--filter", "some"], "invalid value 'some' for --filter: must be all or missed"),
        (["follow", "--list", "demo", "--tz", "900"], "invalid value '900' for --tz"),
        (["follow", "--list", "demo", "--json=yes"], "invalid value 'yes' for --json: must be true or false"),
    ])
    func badFlagsAreUsageErrors(_ arguments: [String], _ message: String) {
        let result = run(arguments)
        #expect(result.status == 2)
        #expect(result.error.first?.hasPrefix("recents follow: error: \(message)") == true, "\(result.error)")
    }

    @Test func anAuthOnServerWantsAToken() async throws {
        let server = try TestApp(secret: Self.secret)
        let refused = await CommandThread.run(["follow", "--list", "demo", "--port", server.port])
        #expect(refused.status == 1)
        #expect(refused.error.first?.contains("401 unauthorized") == true, "\(refused.error)")
        let token = try #require(
            run(["token", "--list", "demo"], environment: ["RECENTS_AUTH_SECRET": Self.secret]).standard.first)
        let other = try #require(
            run(["token", "--list", "other"], environment: ["RECENTS_AUTH_SECRET": Self.secret]).standard.first)
        let forbidden = await CommandThread.run(["follow", "--list", "demo", "--port", server.port, "--token", other])
        #expect(forbidden.status == 1 && forbidden.error.first?.contains("403 forbidden") == true)
        let allowed = await CommandThread.run(
            ["follow", "--list", "demo", "--port", server.port, "--exit-after", "1"],
            environment: ["RECENTS_TOKEN": token])
        #expect(allowed.status == 0 && allowed.standard.first?.hasPrefix("version=0 from=none") == true)
    }

    /// While the server is down, follow says so on stderr at each attempt; once back, it says that too.
    @Test func saysOnStderrThatItReconnectsAndWhenItIsBack() async throws {
        let path = "/tmp/recents-cli-follow-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        var configuration = AppConfiguration()
        (configuration.http.port, configuration.store.path, configuration.logLevel) = (0, path, .error)
        let first = try RecentsApp.start(configuration)
        configuration.http.port = first.port
        let follow = CommandThread(["follow", "--list", "demo", "--port", String(first.port), "--exit-after", "2"])
        var lines = follow.lines.makeAsyncIterator()
        var errors = follow.errors.makeAsyncIterator()
        #expect(await lines.next()?.hasPrefix("version=0 from=none reason=initial") == true)
        first.shutdown()
        let retrying = await errors.next()
        #expect(retrying?.hasPrefix("recents follow: cannot reach the server (") == true, "\(retrying ?? "none")")
        #expect(retrying?.contains("); reconnecting in ") == true && retrying?.hasSuffix(" s") == true)
        let second = try RecentsApp.start(configuration)
        defer { second.shutdown() }
        var back = await errors.next()
        while let line = back, line.hasPrefix("recents follow: cannot reach the server") { back = await errors.next() }
        #expect(back == "recents follow: reconnected")
        let seed = await CommandThread.run(["seed", "--list", "demo", "--calls", "1", "--port", String(first.port)])
        #expect(seed.status == 0, "\(seed.error)")
        let result = await follow.finished.value
        #expect(result.status == 0 && result.standard.count == 2, "\(result)")
    }

    @Test func theHelpListsEveryFlag() {
        let help = run(["follow", "--help"]).standard.joined(separator: "\n")
        for flag in [
            "--list NAME", "--host ADDR", "--port PORT", "--filter", "--limit N", "--tz MINUTES", "--json ",
            "--exit-after N", "--token JWT", "env RECENTS_TOKEN",
        ] {
            #expect(help.contains(flag), "\(flag)")
        }
    }
}
