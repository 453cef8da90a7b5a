import HTTPServer
import RecentsAuth
import SystemSupport

/// The secure default of issue 10: whether `serve` checks tokens, runs open, or refuses to start.
public enum AuthPolicy {
    /// The one line `serve` logs when it runs without auth on a loopback address.
    public static let loopbackWarning =
        "auth is off: no RECENTS_AUTH_SECRET or --auth-secret-file; only this machine can reach the port"

    /// The verifier `configuration` asks for, nil to run without auth.
    ///
    /// A secret turns checking on; `--auth none` turns it off explicitly. With neither, a
    /// loopback address runs open with one warning line (the README's first command keeps
    /// working) and any other address refuses to start.
    /// - Throws: `InsecureDefaultError` for no secret and no `--auth none` on a public address.
    public static func verifier(for configuration: AppConfiguration, logger: Logger) throws(InsecureDefaultError)
        -> JWTVerifier?
    {
        if configuration.authDisabled { return nil }
        if let secret = configuration.authSecret { return JWTVerifier(secret: secret) }
        guard isLoopback(configuration.http.host) else { throw InsecureDefaultError() }
        logger.log(.warn, loopbackWarning, [("host", configuration.http.host)])
        return nil
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
