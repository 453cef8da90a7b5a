import RecentsAPI
import RecentsAuth
import RecentsTestSupport

/// A token for `list` with `scope`, signed with `AuthFixtures.secret`, from the real clock (the
/// servers of these tests verify with it), valid for `ttl` seconds.
func liveToken(_ list: String, _ scope: TokenScope = .absentClaim, ttl: Int64 = 3600, age: Int64 = 0) -> String {
    (try? AuthFixtures.signer.token(list: list, scope: scope, ttl: ttl, now: JWTVerifier.systemClock() - age)) ?? ""
}

/// A correctly signed token over `payload` as it is, for claims the signer would refuse.
func liveSigned(payload: String) -> String { AuthFixtures.signed(payload: payload) }

/// `Authorization: Bearer TOKEN`.
func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer \(token)")] }

extension TestServer {
    /// A server that checks tokens signed with `AuthFixtures.secret`.
    static func withAuth(
        _ backend: Backend, socket: Bool = false, _ configure: (inout AppConfiguration) -> Void = { _ in }
    ) throws -> TestServer {
        try TestServer(backend, socket: socket) { configuration in
            configuration.authSecret = AuthFixtures.secret
            configure(&configuration)
        }
    }
}
