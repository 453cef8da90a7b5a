import RecentsAPI
import Testing

@testable import RecentsCLI

/// `serve`'s flags of issue 25: the key set with its issuer and audience, and the rate limit.
@Suite struct IdentityProviderFlagsTests {
    @Test func theKeySetAndItsClaimsComeFromFlagsOrVariables() throws {
        let environment = [
            "RECENTS_AUTH_JWKS_FILE": "/etc/recents/jwks.json", "RECENTS_AUTH_ISSUER": "https://issuer.example",
            "RECENTS_AUTH_AUDIENCE": "recents", "RECENTS_RATE_LIMIT": "20",
        ]
        var configuration = try serveConfiguration([], environment: environment)
        try ServeCommand.resolve(&configuration, environment: environment)
        #expect(configuration.authKeySetFile == "/etc/recents/jwks.json")
        #expect(configuration.authIssuer == "https://issuer.example")
        #expect(configuration.authAudience == "recents")
        #expect(configuration.rateLimit.requestsPerSecond == 20)
        let flags = try serveConfiguration(
            ["--auth-jwks", "k.json", "--auth-issuer", "i", "--auth-audience", "a", "--rate-limit", "5"],
            environment: environment)
        #expect(flags.authKeySetFile == "k.json" && flags.authIssuer == "i" && flags.authAudience == "a")
        #expect(flags.rateLimit.requestsPerSecond == 5)
        #expect(try serveConfiguration([]).rateLimit.requestsPerSecond == 0)
    }

    /// Start-up refuses a key set without its issuer or audience, naming the flag, with status 2.
    @Test(arguments: [
        (
            ["--auth-jwks", "k.json"],
            "--auth-jwks needs --auth-issuer (or RECENTS_AUTH_ISSUER): the iss its tokens carry"
        ),
        (
            ["--auth-jwks", "k.json", "--auth-issuer", "https://issuer.example"],
            "--auth-jwks needs --auth-audience (or RECENTS_AUTH_AUDIENCE): the aud its tokens are for"
        ),
        (
            ["--auth-issuer", "https://issuer.example"],
            "--auth-issuer and --auth-audience are only read with --auth-jwks"
        ),
        (
            ["--auth-jwks", "k.json", "--auth-issuer", "", "--auth-audience", "a"],
            "--auth-jwks needs --auth-issuer (or RECENTS_AUTH_ISSUER): the iss its tokens carry"
        ),
    ])
    func anIncompleteProviderIsAUsageError(arguments: [String], message: String) {
        let result = run(["serve", "--port", "0"] + arguments)
        #expect(result.status == 2)
        #expect(result.error.first == "recents serve: error: " + message)
    }

    @Test func aKeySetThatCannotBeReadStopsTheStartNamingTheFile() {
        let result = run([
            "serve", "--port", "0", "--auth-jwks", "/nonexistent/jwks.json", "--auth-issuer", "i", "--auth-audience",
            "a",
        ])
        #expect(result.status == 1)
    }

    @Test(arguments: ["-1", "1000001", "fast"])
    func aBadRateIsAUsageError(value: String) {
        #expect(serveError(["--rate-limit", value])?.hasPrefix("invalid value '\(value)' for --rate-limit") == true)
    }
}
