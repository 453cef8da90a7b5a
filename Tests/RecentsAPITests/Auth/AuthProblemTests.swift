import RecentsAuth
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// How an access decision becomes problem+json (`APIError+Auth`).
@Suite struct AuthProblemTests {
    static func claims(_ list: String, _ scope: TokenScope) -> Credential {
        .verified(TokenClaims(subject: list, expiresAt: AuthFixtures.now + 60, scope: scope))
    }

    @Test func refusalsCarryTheirChallengeInTheProblem() throws {
        let missing = Authorizer.decide(.missing, resource: .list("a"), access: .read)
        let invalid = Authorizer.decide(.rejected(.malformed), resource: .list("a"), access: .read)
        let forbidden = Authorizer.decide(Self.claims("a", .read), resource: .list("b"), access: .read)

        let problem = try #require(forbidden.apiError)
        #expect(problem.status == 403)
        #expect(problem.type == "forbidden")
        #expect(problem.headers.map(\.0) == ["WWW-Authenticate"])
        #expect(problem.headers.map(\.1) == [#"Bearer realm="recents", error="insufficient_scope""#])
        #expect(try #require(missing.apiError).type == "unauthorized")
        #expect(try #require(invalid.apiError).status == 401)

    }

    /// The refusal must not depend on the list: a 403 for an existing list reads like one for
    /// a list nobody ever created, and its detail names neither.
    @Test func refusalsSayNothingAboutTheList() throws {
        let forOne = try #require(
            Authorizer.decide(Self.claims("a", .read), resource: .list("secret-list"), access: .read).apiError)
        let forOther = try #require(
            Authorizer.decide(Self.claims("a", .read), resource: .list("b"), access: .write).apiError)
        #expect(forOne == forOther)
        #expect(!forOne.detail.contains("secret-list"))
        let expired = try #require(Authorizer.decide(.rejected(.expired), resource: .list("x"), access: .read).apiError)
        #expect(expired.detail.contains("expired"))
        #expect(!expired.detail.contains("x\""))
    }
}
