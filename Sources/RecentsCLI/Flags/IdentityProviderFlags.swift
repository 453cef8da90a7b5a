import RecentsAPI

/// `--auth-jwks` and the two flags it needs (issue 25): an identity provider's key set, the
/// issuer its tokens carry and the audience they are for.
enum IdentityProviderFlags {
    /// The three flags, each with its variable.
    static var flags: [Flag<AppConfiguration>] {
        [
            Flag(
                "auth-jwks", "FILE", \.authKeySetFile, .optional(.string),
                help: "JWKS file of an identity provider: its RS256/PS256/ES256/EdDSA tokens are accepted "
                    + "(re-read when it changes, or on SIGHUP)",
                variable: "RECENTS_AUTH_JWKS_FILE"),
            Flag(
                "auth-issuer", "ISS", \.authIssuer, .optional(.string),
                help: "the iss of the provider's tokens, exactly (required with --auth-jwks)"),
            Flag(
                "auth-audience", "AUD", \.authAudience, .optional(.string),
                help: "what the aud of the provider's tokens must hold (required with --auth-jwks)"),
        ]
    }

    /// Refuses a key set without its issuer or audience, naming the flag, and an issuer or
    /// audience without a key set (they would silently check nothing).
    /// - Throws: `UsageError` with the line to print.
    static func check(_ options: AppConfiguration) throws(UsageError) {
        guard options.authKeySetFile != nil else {
            if options.authIssuer != nil || options.authAudience != nil {
                throw UsageError(message: "--auth-issuer and --auth-audience are only read with --auth-jwks")
            }
            return
        }
        if options.authIssuer == nil {
            throw UsageError(
                message: "--auth-jwks needs --auth-issuer (or RECENTS_AUTH_ISSUER): the iss its tokens carry")
        }
        if options.authAudience == nil {
            throw UsageError(
                message: "--auth-jwks needs --auth-audience (or RECENTS_AUTH_AUDIENCE): the aud its tokens are for")
        }
    }
}
