import Foundation
import RecentsAuth
import RecentsCrypto

/// Shared keys, clock and token builders for the auth tests.
public enum AuthFixtures {
    /// A fixed "now" for every test: 2026-12-01T00:00:00Z.
    public static let now: Int64 = 1_796_083_200

    public static let secret = try! AuthSecret(bytes: Array("recents-test-secret-0123456789-abcdef".utf8))
    public static let otherSecret = try! AuthSecret(bytes: Array("another-secret-entirely-0123456789-xyz".utf8))

    public static let signer = JWTSigner(secret: secret)
    public static let verifier = JWTVerifier(secret: secret, clock: { now })

    /// A well-formed token for `list` valid for an hour from `now`.
    public static func token(list: String = "alice", scope: TokenScope = .absentClaim) -> String {
        try! signer.token(list: list, scope: scope, ttl: 3600, now: now)
    }

    /// A token correctly signed with the test secret over exactly these header and payload texts.
    public static func signed(header: String = #"{"alg":"HS256","typ":"JWT"}"#, payload: String) -> String {
        signer.signCompact(header: Array(header.utf8), payload: Array(payload.utf8))
    }

    /// A token whose segments are these texts as they are (not re-encoded), signed correctly.
    public static func signedSegments(_ header: String, _ payload: String) -> String {
        let input = header + "." + payload
        return input + "." + Base64URL.encode(HMACSHA256.authenticationCode(key: secret.bytes, message: input.utf8))
    }

    /// A valid payload for `alice` with `extra` members spliced in before the closing brace.
    public static func payload(_ extra: String = "") -> String {
        #"{"sub":"alice","exp":\#(now + 3600)\#(extra)}"#
    }

    /// The three segments of a token.
    public static func segments(_ token: String) -> [String] {
        token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
}

/// Base64url without padding, for hand-built tokens.
public enum Base64URLForTests {
    /// `text`'s UTF-8 bytes in base64url, unpadded.
    public static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
