import RecentsAuth
import RecentsTestSupport
import Testing

@Suite struct AuthorizerTests {
    static func claims(_ list: String, _ scope: TokenScope) -> Credential {
        .verified(TokenClaims(subject: list, expiresAt: AuthFixtures.now + 60, scope: scope))
    }

    struct Row: Sendable, CustomStringConvertible {
        var credential: Credential
        var resource: ProtectedResource
        var access: AccessKind
        var status: Int
        var description: String { "\(credential) \(resource) \(access) → \(status)" }
    }

    static let rw: TokenScope = [.read, .write]

    /// Issue 10's rules, row by row.
    static let table: [Row] = [
        // Own list: reads need read, writes need write.
        Row(credential: claims("a", rw), resource: .list("a"), access: .read, status: 200),
        Row(credential: claims("a", rw), resource: .list("a"), access: .write, status: 200),
        Row(credential: claims("a", .read), resource: .list("a"), access: .read, status: 200),
        Row(credential: claims("a", .read), resource: .list("a"), access: .write, status: 403),
        Row(credential: claims("a", .write), resource: .list("a"), access: .write, status: 200),
        Row(credential: claims("a", .write), resource: .list("a"), access: .read, status: 403),
        Row(credential: claims("a", []), resource: .list("a"), access: .read, status: 403),
        // Another list, however similar its name: forbidden, whatever the scope.
        Row(credential: claims("a", rw), resource: .list("ab"), access: .read, status: 403),
        Row(credential: claims("ab", rw), resource: .list("a"), access: .read, status: 403),
        Row(credential: claims("a", rw), resource: .list("A"), access: .read, status: 403),
        Row(credential: claims("a", rw), resource: .list("b"), access: .write, status: 403),
        // Admin: every list, both ways, and /metrics.
        Row(credential: claims("ops", .admin), resource: .list("a"), access: .read, status: 200),
        Row(credential: claims("ops", .admin), resource: .list("a"), access: .write, status: 200),
        Row(credential: claims("ops", .admin), resource: .metrics, access: .read, status: 200),
        // /metrics without admin, even for a read-write token.
        Row(credential: claims("a", rw), resource: .metrics, access: .read, status: 403),
        // No token, or a refused one.
        Row(credential: .missing, resource: .list("a"), access: .read, status: 401),
        Row(credential: .missing, resource: .metrics, access: .read, status: 401),
        Row(credential: .rejected(.expired), resource: .list("a"), access: .read, status: 401),
        Row(credential: .rejected(.badSignature), resource: .list("a"), access: .write, status: 401),
    ]

    @Test(arguments: table)
    func decisionTable(row: Row) {
        let decision = Authorizer.decide(row.credential, resource: row.resource, access: row.access)
        #expect(decision.status == row.status)
        if row.status == 200, case .verified(let claims) = row.credential {
            #expect(decision == .allow(claims))
        }
    }

    @Test func refusalsCarryTheExactChallenge() {
        let missing = Authorizer.decide(.missing, resource: .list("a"), access: .read)
        #expect(missing.wwwAuthenticate == #"Bearer realm="recents""#)
        let invalid = Authorizer.decide(.rejected(.malformed), resource: .list("a"), access: .read)
        #expect(invalid.wwwAuthenticate == #"Bearer realm="recents", error="invalid_token""#)
        let forbidden = Authorizer.decide(Self.claims("a", .read), resource: .list("b"), access: .read)
        #expect(forbidden.wwwAuthenticate == #"Bearer realm="recents", error="insufficient_scope""#)
        #expect(Authorizer.decide(Self.claims("a", .read), resource: .list("a"), access: .read).wwwAuthenticate == nil)

    }

    /// The whole path, token text to decision: a token for `a` does not open `ab`.
    @Test func aTokenForListAIsRefusedOnListAB() {
        let credential = AuthFixtures.verifier.credential(authorization: ["Bearer " + AuthFixtures.token(list: "a")])
        #expect(Authorizer.decide(credential, resource: .list("a"), access: .read).status == 200)
        #expect(Authorizer.decide(credential, resource: .list("ab"), access: .read) == .forbidden)
    }
}

@Suite struct CredentialTests {
    let verifier = AuthFixtures.verifier
    let token = AuthFixtures.token()

    @Test func noFieldOrAnotherSchemeIsNoToken() {
        #expect(verifier.credential(authorization: []) == .missing)
        #expect(verifier.credential(authorization: ["Basic YWxpY2U6cHc="]) == .missing)
        #expect(verifier.credential(authorization: ["Bearerx " + token]) == .missing)
    }

    @Test func theBearerSchemeIsCaseInsensitiveAndTakesOneWord() {
        for field in ["Bearer " + token, "bearer " + token, "BEARER   " + token] {
            #expect(verifier.credential(authorization: [field]) == .verified(try! verifier.verify(token)), "\(field)")
        }
        #expect(verifier.credential(authorization: ["Bearer"]) == .rejected(.malformed))
        #expect(verifier.credential(authorization: ["Bearer "]) == .rejected(.malformed))
        #expect(verifier.credential(authorization: ["Bearer " + token + " extra"]) == .rejected(.malformed))
        #expect(verifier.credential(authorization: ["Bearer x.y.z"]) == .rejected(.invalidEncoding(.header)))
    }

    @Test func aTokenSentTwiceIsRefused() {
        #expect(verifier.credential(authorization: ["Bearer " + token, "Bearer " + token]) == .rejected(.ambiguous))
        #expect(verifier.credential(authorization: ["Bearer " + token], accessToken: token) == .rejected(.ambiguous))
        // A Basic field beside it does not count as a second token.
        #expect(
            verifier.credential(authorization: ["Basic eA==", "Bearer " + token])
                == .verified(try! verifier.verify(token)))
    }

    @Test func theAccessTokenParameterAloneIsAccepted() throws {
        #expect(verifier.credential(authorization: [], accessToken: token) == .verified(try verifier.verify(token)))
        #expect(verifier.credential(authorization: [], accessToken: "") == .rejected(.malformed))
    }

    @Test func noDescriptionRepeatsTheToken() {
        let token = AuthFixtures.token()
        for candidate in [token, token + "A", "Bearer", String(token.dropFirst(3))] {
            if case .rejected(let error) = verifier.credential(authorization: ["Bearer " + candidate]) {
                #expect(!error.description.contains(String(token.prefix(10))))
                #expect(!error.description.contains(String(token.suffix(10))))
            }
        }
    }
}
