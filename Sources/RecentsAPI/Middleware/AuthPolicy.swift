import HTTPServer
import RecentsAuth
import SystemSupport

/// The secure default of issue 10: whether `serve` checks tokens, runs open, or refuses to start.
public enum AuthPolicy {
    /// The one line `serve` logs when it runs without auth on a loopback address.
    public static let loopbackWarning =
        "auth is off: no RECENTS_AUTH_SECRET, --auth-secret-file or --auth-jwks; only this machine can reach the port"

    /// The verifier `configuration` asks for, nil to run without auth.
    ///
    /// A secret or a key set (or both) turns checking on; `--auth none` turns it off explicitly.
    /// With neither, a loopback address runs open with one warning line (the README's first
    /// command keeps working) and any other address refuses to start. A key set is read now and
    /// then watched (`IdentityProvider.startWatching`) until the app stops it.
    /// - Throws: `KeySetError` when the key set is incomplete (no issuer or audience) or cannot be
    ///   used; `InsecureDefaultError` for no secret, no key set and no `--auth none` on a public address.
    public static func verifier(for configuration: AppConfiguration, logger: Logger) throws -> JWTVerifier? {
        if configuration.authDisabled { return nil }
        let provider = try identityProvider(for: configuration, logger: logger)
        if configuration.authSecret != nil || provider != nil {
            provider?.startWatching(every: keySetCheckInterval)
            return JWTVerifier(secret: configuration.authSecret, provider: provider)
        }
        if let refusal = insecureDefault(configuration) { throw refusal }
        logger.log(.warn, loopbackWarning, [("host", configuration.http.host)])
        return nil
    }

    /// How often the key set file is checked for a change: issue 25 wants a new set used within
    /// 10 s, and a `stat` every 2 s costs nothing measurable.
    public static let keySetCheckInterval: Duration = .seconds(2)

    /// The identity provider `configuration` names, its key set read; nil without `--auth-jwks`.
    /// - Throws: `KeySetError` naming the missing flag, or what is wrong with the file.
    static func identityProvider(for configuration: AppConfiguration, logger: Logger) throws(KeySetError)
        -> IdentityProvider?
    {
        guard let path = configuration.authKeySetFile else { return nil }
        guard let issuer = configuration.authIssuer, !issuer.isEmpty else {
            throw KeySetError(
                description: "--auth-jwks needs --auth-issuer (RECENTS_AUTH_ISSUER), the iss its tokens carry")
        }
        guard let audience = configuration.authAudience, !audience.isEmpty else {
            throw KeySetError(
                description: "--auth-jwks needs --auth-audience (RECENTS_AUTH_AUDIENCE), the aud its tokens are for")
        }
        return try IdentityProvider(issuer: issuer, audience: audience, keySetFile: path, logger: logger)
    }

    /// The refusal of a configuration with no way to check tokens on a public address (no secret,
    /// no key set, no `--auth none`); nil when it may start. `serve` asks before it starts anything.
    public static func insecureDefault(_ configuration: AppConfiguration) -> InsecureDefaultError? {
        let open = !configuration.authDisabled && configuration.authSecret == nil && configuration.authKeySetFile == nil
        return open && !isLoopback(configuration.http.host) ? InsecureDefaultError() : nil
    }

    /// Whether `host` only accepts connections from this machine: `localhost`, `127.0.0.0/8`, `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { return false }
        return octets[0] == "127"
    }
}

/// Why `serve` refuses to start on a public address without a secret; its description is the line.
public struct InsecureDefaultError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The refusal.
    public init() {}

    /// The one-line reason of issue 10.
    public var description: String {
        "anyone on the network could read and delete every list; set RECENTS_AUTH_SECRET or pass --auth none"
    }
}
