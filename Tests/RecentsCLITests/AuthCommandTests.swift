import Glibc
import HTTPServer
import RecentsAPI
import RecentsAuth
import SystemSupport
import Testing

@testable import RecentsCLI

/// `recents token`, the secret's sources and the secure default of `serve` (issue 10).
@Suite struct AuthCommandTests {
    static let secretText = "0123456789abcdef0123456789abcdef"
    static let environment = ["RECENTS_AUTH_SECRET": secretText]
    static let verifier = JWTVerifier(secret: try! AuthSecret(bytes: Array(secretText.utf8)))

    @Test func aTokenVerifiesWithTheSameSecretAndSaysWhatWasAsked() throws {
        let result = run(
            ["token", "--list", "alice", "--scope", "read", "--ttl", "120"], environment: Self.environment)
        #expect(result.status == 0)
        let claims = try Self.verifier.verify(try #require(result.standard.first))
        #expect(claims.subject == "alice")
        #expect(claims.scope == .read)
        #expect(claims.expiresAt - (claims.issuedAt ?? 0) == 120)
    }

    @Test func theDefaultScopeIsReadWriteAndAdminIsMinted() throws {
        let plain = try Self.verifier.verify(run(["token", "--list", "a"], environment: Self.environment).standard[0])
        #expect(plain.scope == [.read, .write])
        let admin = run(["token", "--list", "ops", "--scope", "admin"], environment: Self.environment)
        #expect(try Self.verifier.verify(admin.standard[0]).scope == .admin)
    }

    /// A missing secret is a usage error, as a too-short one is (`aShortSecretIsAStartUpErrorThatSaysSo`).
    @Test func noSecretIsAUsageErrorThatSaysWhatToSet() {
        let result = run(["token", "--list", "alice"])
        #expect(result.status == 2)
        #expect(
            result.error == [
                "recents token: error: no auth secret; set RECENTS_AUTH_SECRET or pass --auth-secret-file",
                "run 'recents token --help'",
            ])
    }

    @Test func aPublicAddressWithoutASecretIsAUsageErrorBeforeAnythingStarts() {
        let database = "/tmp/recents-insecure-\(UInt32.random(in: 0...UInt32.max)).sqlite"
        let result = run(["serve", "--host", "0.0.0.0", "--port", "0", "--db", database])
        #expect(result.status == 2)
        #expect(result.error.first == "recents serve: error: " + InsecureDefaultError().description)
        #expect(access(database, F_OK) != 0, "refused before the database is opened")
    }

    @Test(arguments: [["--scope", "reed"], ["--scope", ""], ["--ttl", "0"], ["--list", "a/b"], []])
    func badRequestsAreUsageErrors(_ extra: [String]) {
        let arguments = extra.contains("--list") ? ["token"] + extra : ["token", "--list", "alice"] + extra
        let result = run(extra.isEmpty ? ["token"] : arguments, environment: Self.environment)
        #expect(result.status == 2)
    }

    @Test func aShortSecretIsAStartUpErrorThatSaysSo() {
        let result = run(["serve", "--port", "0"], environment: ["RECENTS_AUTH_SECRET": "short"])
        #expect(result.status == 2)
        #expect(result.error.first?.contains("RECENTS_AUTH_SECRET is 5 bytes") == true)
        #expect(result.error.first?.contains("at least 32 bytes") == true)
    }

    @Test func bothSecretVariablesAreRefused() {
        let result = run(
            ["token", "--list", "a"],
            environment: ["RECENTS_AUTH_SECRET": Self.secretText, "RECENTS_AUTH_SECRET_FILE": "/nonexistent"])
        #expect(result.status == 2)
        #expect(result.error.first?.contains("set only one") == true)
    }

    @Test func serveReadsTheSecretAndAuthNone() throws {
        var configuration = try serveConfiguration(["--auth", "none"], environment: Self.environment)
        try ServeCommand.resolve(&configuration, environment: Self.environment)
        #expect(configuration.authDisabled)
        #expect(configuration.authSecret?.bytes == Array(Self.secretText.utf8))
        #expect(serveError(["--auth", "off"])?.hasPrefix("invalid value 'off' for --auth") == true)
    }

    @Test func aPublicAddressWithoutASecretRefusesToStartInOneLine() {
        var configuration = AppConfiguration()
        configuration.http.host = "0.0.0.0"
        #expect(throws: InsecureDefaultError.self) {
            try AuthPolicy.verifier(for: configuration, logger: Logger(level: .error))
        }
        #expect(
            InsecureDefaultError().description
                == "anyone on the network could read and delete every list; set RECENTS_AUTH_SECRET or pass --auth none"
        )
    }

    @Test func loopbackRunsOpenAndNoneIsExplicit() throws {
        var configuration = AppConfiguration()
        for host in ["127.0.0.1", "localhost", "::1", "127.1.2.3"] {
            configuration.http.host = host
            #expect(try AuthPolicy.verifier(for: configuration, logger: Logger(level: .error)) == nil, "\(host)")
        }
        for host in ["0.0.0.0", "::", "10.0.0.1", "128.0.0.1"] { #expect(!AuthPolicy.isLoopback(host), "\(host)") }
        configuration.http.host = "0.0.0.0"
        configuration.authDisabled = true
        #expect(try AuthPolicy.verifier(for: configuration, logger: Logger(level: .error)) == nil)
        configuration.authDisabled = false
        configuration.authSecret = try AuthSecret(bytes: Array(Self.secretText.utf8))
        #expect(try AuthPolicy.verifier(for: configuration, logger: Logger(level: .error)) != nil)
    }
}
