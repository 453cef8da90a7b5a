import Foundation
import RecentsTestSupport
import Synchronization
import SystemSupport
import Testing

@testable import RecentsAuth

/// Rotation without a restart (issue 25, item 4): the file read again when it changes, a bad file
/// keeping the last good set, and a key that left the set no longer honoured from the cache.
@Suite struct KeySetRotationTests {
    static let fixtures = JWKSFixtures.shared

    /// Log lines a provider wrote, for the tests that check what it said.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var logger: Logger { Logger(level: .info) { line in self.lines.withLock { $0.append(line) } } }
        var all: [String] { lines.withLock { $0 } }
        func count(_ text: String) -> Int { all.filter { $0.contains(text) }.count }
    }

    func provider(_ path: String, _ lines: Lines = Lines()) throws -> IdentityProvider {
        try IdentityProvider(
            issuer: Self.fixtures.issuer, audience: Self.fixtures.audience, keySetFile: path, logger: lines.logger)
    }

    func verifier(_ provider: IdentityProvider) -> JWTVerifier {
        let now = Self.fixtures.now
        return JWTVerifier(secret: nil, provider: provider, clock: { now })
    }

    func token(_ name: String) throws -> String { try #require(Self.fixtures.tokens.first { $0.name == name }).token }

    /// Runs `body` with a file of the test's own holding the initial key set (removed after it) and
    /// a provider reading that file, logging to `lines`.
    func withInitialKeySet(
        _ lines: Lines = Lines(), _ body: (_ path: String, _ provider: IdentityProvider) throws -> Void
    ) throws {
        let path = try JWKSFixtures.writeKeySet(Self.fixtures.initial)
        defer { JWKSFixtures.remove(path) }
        try body(path, try provider(path, lines))
    }

    @Test func anUntouchedFileIsNotReadAgain() throws {
        try withInitialKeySet { _, provider in
            #expect(provider.reload() == .unchanged)
            #expect(provider.generation == 1)
            // Forced (SIGHUP) it is read, and the same keys change nothing.
            #expect(provider.reload(force: true) == .unchanged)
            #expect(provider.generation == 1)
        }
    }

    @Test func aReplacedFileRotatesTheKeysAndKeepsTheUnchangedOnes() throws {
        let lines = Lines()
        try withInitialKeySet(lines) { path, provider in
            let rs256 = try #require(provider.keys.key("rs256")).key
            try JWKSFixtures.replace(path, with: Self.fixtures.rotated)
            #expect(provider.reload() == .replaced(added: ["es256-next"], removed: ["es256"], changed: []))
            #expect(provider.generation == 2)
            #expect(provider.keys.key("rs256")?.key === rs256)
            #expect(lines.count("key set reloaded") == 1)
            #expect(lines.all.last?.contains("removed=es256") == true)
        }
    }

    /// The heart of item 4: a cached token of a removed key is refused at once, a cached token of
    /// a key that stayed is still a cache hit, and the new key's tokens verify.
    @Test func aKeyRemovedFromTheSetIsNotHonouredFromTheCache() throws {
        try withInitialKeySet { path, provider in
            let verifier = verifier(provider)
            let es256 = try token("ES256 token")
            let rs256 = try token("RS256 token")
            let next = try token("ES256 token of the key rotated in")
            _ = try verifier.verify(es256)
            _ = try verifier.verify(rs256)
            #expect(verifier.cache?.count == 2)

            try JWKSFixtures.replace(path, with: Self.fixtures.rotated)
            provider.reload()
            #expect(throws: TokenError.unknownKey) { try verifier.verify(es256) }
            #expect(verifier.cache?.count == 1)
            #expect(try verifier.verify(rs256).subject == "alice")
            #expect(try verifier.verify(next).subject == "alice")
            #expect(verifier.cache?.count == 2)
        }
    }

    /// A connection keeps its token (`RememberedToken`) past the cache: a key that left the set is
    /// no longer honoured from there either, and a key that stayed is.
    @Test func aKeyRemovedFromTheSetIsNotHonouredFromAKeptToken() throws {
        try withInitialKeySet { path, provider in
            let verifier = verifier(provider)
            func credential(_ token: String, _ kept: RememberedToken?) -> (Credential, RememberedToken?) {
                let answer = verifier.credential(authorization: ["Bearer \(token)"], accessToken: nil, remembered: kept)
                return (answer.credential, answer.keep)
            }
            let es256 = try token("ES256 token")
            let rs256 = try token("RS256 token")
            let keptES256 = try #require(credential(es256, nil).1)
            let keptRS256 = try #require(credential(rs256, nil).1)

            try JWKSFixtures.replace(path, with: Self.fixtures.rotated)
            provider.reload()
            #expect(credential(es256, keptES256).0 == .rejected(.unknownKey))
            guard case .verified(let claims) = credential(rs256, keptRS256).0 else {
                Issue.record("the RS256 token of a key that stayed was refused")
                return
            }
            #expect(claims.subject == "alice")
        }
    }

    /// The same `kid` published with other key material is another key: tokens of the old one fail.
    @Test func aKeyReplacedUnderTheSameKidIsNotHonouredFromTheCache() throws {
        try withInitialKeySet { path, provider in
            let verifier = verifier(provider)
            let es256 = try token("ES256 token")
            _ = try verifier.verify(es256)
            // The rotated set's new key, published under the old kid.
            let renamed = String(decoding: Self.fixtures.rotated, as: UTF8.self).replacing(
                "\"es256-next\"", with: "\"es256\"")
            try JWKSFixtures.replace(path, with: Data(renamed.utf8))
            #expect(provider.reload() == .replaced(added: [], removed: [], changed: ["es256"]))
            #expect(throws: TokenError.badSignature) { try verifier.verify(es256) }
        }
    }

    @Test func aMalformedFileKeepsTheLastGoodSetAndSaysSoOnce() throws {
        let lines = Lines()
        try withInitialKeySet(lines) { path, provider in
            let verifier = verifier(provider)
            let es256 = try token("ES256 token")
            for broken in [
                #"{"keys": [{"kty": "EC"#, #"{"keys": []}"#, #"{"keys": [{"kty": "RSA", "kid": "x", "d": "AQAB"}]}"#,
            ] {
                try JWKSFixtures.replace(path, with: Data(broken.utf8))
                guard case .failed = provider.reload() else {
                    Issue.record("\(broken) was accepted")
                    continue
                }
                #expect(provider.reload() == .unchanged)
                #expect(try verifier.verify(es256).subject == "alice")
                #expect(provider.keys.kids == ["eddsa", "es256", "ps256", "rs256"])
            }
            #expect(lines.count("level=error") == 3)
            #expect(lines.count("keeping the last good key set") == 3)
            // SIGHUP reads it again and says so again.
            #expect(provider.reload(force: true) != .unchanged)
            #expect(lines.count("level=error") == 4)
            // Fixed, it is used again, and the recovery is logged.
            try JWKSFixtures.replace(path, with: Self.fixtures.initial)
            #expect(provider.reload() == .unchanged)
            #expect(lines.count("keys unchanged") == 1)
        }
    }

    @Test func aVanishedFileKeepsTheLastGoodSet() throws {
        let lines = Lines()
        try withInitialKeySet(lines) { path, provider in
            try FileManager.default.removeItem(atPath: path)
            guard case .failed(let reason) = provider.reload() else { return #expect(Bool(false)) }
            #expect(reason.contains("stat: no such file or directory"))
            // Still gone on the next checks: the same refusal, not logged again.
            #expect(provider.reload() == .failed(reason))
            #expect(lines.count("level=error") == 1)
            #expect(try verifier(provider).verify(token("EdDSA token")).subject == "alice")
        }
    }

    @Test func startingWithABadFileIsAnErrorNamingIt() throws {
        #expect(throws: KeySetError.self) { try provider("/nonexistent/jwks.json") }
        let path = try JWKSFixtures.writeKeySet(
            Data(#"{"keys": [{"kty": "OKP", "kid": "k", "alg": "EdDSA", "crv": "Ed25519"}]}"#.utf8))
        defer { JWKSFixtures.remove(path) }
        let error = #expect(throws: KeySetError.self) { try provider(path) }
        #expect(error?.description == #"\#(path): the key with kid "k": x: missing"#)
    }

    /// The watcher notices a rewrite by itself; the test waits for the log line it writes, not a time.
    @Test func theWatcherReadsAChangedFileWithoutBeingAsked() throws {
        let path = try JWKSFixtures.writeKeySet(Self.fixtures.initial)
        defer { JWKSFixtures.remove(path) }
        let reloaded = DispatchSemaphore(value: 0)
        let logger = Logger(level: .info) { line in if line.contains("key set reloaded") { reloaded.signal() } }
        let provider = try IdentityProvider(
            issuer: Self.fixtures.issuer, audience: Self.fixtures.audience, keySetFile: path, logger: logger)
        provider.startWatching(every: .milliseconds(20))
        defer { provider.stopWatching() }
        try JWKSFixtures.replace(path, with: Self.fixtures.rotated)
        #expect(reloaded.wait(timeout: .now() + 30) == .success)
        #expect(provider.keys.key("es256-next") != nil)
    }
}
