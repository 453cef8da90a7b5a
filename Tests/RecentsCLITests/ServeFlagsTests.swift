import HTTPServer
import RecentsAPI
import Testing

@testable import RecentsCLI

@Suite struct ServeFlagsTests {
    @Test func noFlagsGiveTheDocumentedDefaults() throws {
        let configuration = try serveConfiguration([])
        let defaults = AppConfiguration()
        #expect(configuration.http.host == "127.0.0.1")
        #expect(configuration.http.host == defaults.http.host)
        #expect(configuration.http.port == defaults.http.port)
        #expect(configuration.store.path == defaults.store.path)
        #expect(configuration.logLevel == .info)
        #expect(configuration.corsOrigin == nil)
        #expect(configuration.http.loopCount == HTTPServerConfiguration.defaultLoopCount)
    }

    @Test func aFlagWinsOverItsVariableWhichWinsOverTheDefault() throws {
        let environment = ["RECENTS_PORT": "9000", "RECENTS_READERS": "3", "RECENTS_DB": "/tmp/env.sqlite"]
        let configuration = try serveConfiguration(["--port", "9001", "--readers=4"], environment: environment)
        #expect(configuration.http.port == 9001)
        #expect(configuration.store.readers == 4)
        #expect(configuration.store.path == "/tmp/env.sqlite")
    }

    @Test func emptyVariablesCountAsUnset() throws {
        let configuration = try serveConfiguration([], environment: ["RECENTS_CORS_ORIGIN": "", "RECENTS_PORT": ""])
        #expect(configuration.corsOrigin == nil)
        #expect(configuration.http.port == AppConfiguration().http.port)
    }

    @Test func eventStreamTimesAreSecondsFromFlagsOrVariables() throws {
        let defaults = try serveConfiguration([])
        #expect(defaults.events.heartbeat == .seconds(15) && defaults.events.maxAge == .seconds(300))
        let configuration = try serveConfiguration(
            ["--sse-heartbeat", "0.5"], environment: ["RECENTS_SSE_MAX_AGE": "30"])
        #expect(configuration.events.heartbeat == .milliseconds(500))
        #expect(configuration.events.maxAge == .seconds(30))
        #expect(throws: (any Error).self) { try serveConfiguration(["--sse-max-age", "0"]) }
    }

    /// Issue 38's bounds: a body's total time, the bodies being received, a list's live requests.
    @Test func theHardeningBoundsAreFlagsAndVariables() throws {
        let defaults = try serveConfiguration([])
        #expect(defaults.http.bodyTimeout == .seconds(30) && defaults.http.maxBodyMemory == 64 << 20)
        #expect(defaults.memory.streamsPerList == 32 && defaults.memory.longPollsPerList == 32)
        let configuration = try serveConfiguration(
            ["--body-timeout", "2.5", "--max-streams-per-list", "4"],
            environment: ["RECENTS_MAX_BODY_MEMORY": "2097152", "RECENTS_MAX_LONG_POLLS_PER_LIST": "5"])
        #expect(configuration.http.bodyTimeout == .milliseconds(2500) && configuration.http.maxBodyMemory == 2 << 20)
        #expect(configuration.memory.streamsPerList == 4 && configuration.memory.longPollsPerList == 5)
        // A budget that could never hold one body is refused, naming both flags.
        var tooSmall = try serveConfiguration(["--max-body-memory", "1000"])
        #expect(throws: UsageError.self) { try ServeCommand.resolve(&tooSmall, environment: [:]) }
    }

    @Test func theLastRepeatedFlagWins() throws {
        #expect(try serveConfiguration(["--port", "1", "--port", "2"]).http.port == 2)
    }

    @Test func valuesAreTyped() throws {
        let configuration = try serveConfiguration([
            "--log-level", "warn", "--head-timeout", "0.25", "--idle-timeout=90", "--threads", "3",
            "--cors-origin", "https://app.example", "--max-head-bytes", "100",
        ])
        #expect(configuration.logLevel == .warn)
        #expect(configuration.http.headReadTimeout == .milliseconds(250))
        #expect(configuration.http.idleTimeout == .seconds(90))
        #expect(configuration.http.loopCount == 3)
        #expect(configuration.corsOrigin == "https://app.example")
        #expect(configuration.http.maxHeadBytes == 100)
    }

    @Test func threadsZeroMeansOnePerCore() throws {
        #expect(try serveConfiguration(["--threads", "0"]).http.loopCount == HTTPServerConfiguration.defaultLoopCount)
    }

    @Test func logLevelsAreParsedByTheLogger() throws {
        #expect(try serveConfiguration([], environment: ["RECENTS_LOG_LEVEL": "debug"]).logLevel == .debug)
        #expect(try serveConfiguration(["--log-level", "ERROR"]).logLevel == .error)
    }

    @Test(arguments: [
        (["--bogus", "1"], "unknown flag '--bogus'"),
        (["--port"], "missing value for '--port'"),
        (["--port", "--db", "x"], "missing value for '--port'"),
        (["--port", "abc"], "invalid value 'abc' for --port: must be an integer from 0 to 65535"),
        (["--port", "65536"], "invalid value '65536' for --port: must be an integer from 0 to 65535"),
        (["--retain-versions", "0"], "invalid value '0' for --retain-versions: must be an integer of at least 1"),
        (["--log-level", "loud"], "invalid value 'loud' for --log-level: must be one of debug, info, warn, error"),
        (
            ["--head-timeout", "0"],
            "invalid value '0' for --head-timeout: must be a number of seconds above 0 and at most 86400"
        ),
        (
            ["--idle-timeout", "nan"],
            "invalid value 'nan' for --idle-timeout: must be a number of seconds above 0 and at most 86400"
        ),
        (["--threads", "-1"], "invalid value '-1' for --threads: must be an integer from 0 to 1024"),
        (["--readers", "0"], "invalid value '0' for --readers: must be an integer from 1 to 256"),
        (["--db="], "--db must not be empty"),
        (["stray"], "unexpected argument 'stray'"),
    ])
    func badFlagsAreUsageErrors(_ arguments: [String], _ message: String) {
        #expect(serveError(arguments) == message)
    }

    @Test func aBadVariableIsNamedInTheError() {
        #expect(
            serveError([], environment: ["RECENTS_PORT": "abc"])
                == "invalid value 'abc' for RECENTS_PORT: must be an integer from 0 to 65535")
        #expect(
            serveError([], environment: ["RECENTS_LOG_LEVEL": "verbose"])?.hasPrefix(
                "invalid value 'verbose' for RECENTS_LOG_LEVEL") == true)
    }

    /// Each variable is the flag's name, but `--auth-jwks`'s, which names a file as
    /// `RECENTS_AUTH_SECRET_FILE` does (issue 25 asks for `RECENTS_AUTH_JWKS_FILE`).
    @Test func everyFlagHasItsVariable() {
        let exceptions = ["auth-jwks": "RECENTS_AUTH_JWKS_FILE"]
        for flag in ServeCommand.flags {
            let expected = exceptions[flag.name] ?? "RECENTS_" + flag.name.uppercased().replacing("-", with: "_")
            #expect(flag.environmentName == expected)
        }
    }

    /// Issue 45: trusted proxies from the flag or its variable; none by default; a bad entry is named.
    @Test func trustedProxiesComeFromTheFlagOrItsVariable() throws {
        #expect(try serveConfiguration([]).http.trustedProxies.isEmpty)
        let environment = ["RECENTS_TRUSTED_PROXIES": "10.0.0.0/8, ::1"]
        #expect(try serveConfiguration([], environment: environment).http.trustedProxies.text == "10.0.0.0/8,::1/128")
        let flag = try serveConfiguration(["--trusted-proxies", "192.0.2.0/24"], environment: environment)
        #expect(flag.http.trustedProxies.text == "192.0.2.0/24")
        #expect(
            serveError(["--trusted-proxies", "10.0.0.0/8,10.0.0.1/8"])
                == "invalid value '10.0.0.0/8,10.0.0.1/8' for --trusted-proxies: must be addresses or CIDR blocks "
                + "separated by commas (10.0.0.0/8,2001:db8::/32); '10.0.0.1/8' is not one")
    }
}
