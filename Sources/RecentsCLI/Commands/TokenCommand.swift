import RecentsAPI
import RecentsAuth

/// `recents token`: prints a token signed with the configured secret, for scripts, tests and
/// the README (production tokens come from the app's own backend, with the same secret).
enum TokenCommand: Command {
    /// What to mint.
    struct Options {
        /// The list the token owns (required).
        var list: String?
        /// The `scope` claim's words.
        var scope: TokenScope = .absentClaim
        /// Seconds until it expires.
        var ttl = 3600
        /// `--auth-secret-file`, as given.
        var authSecretFile: String?
        /// The secret, read by `resolve` from the same sources as `serve`.
        var secret: AuthSecret?
    }

    /// A year: longer-lived tokens are better minted by the app's backend, on purpose.
    static let maximumTTL = 366 * 86_400

    static let name = "token"
    static let summary = "print a signed bearer token for one list"
    static let details = """
        Prints one HS256 JWT for --list, signed with the secret serve uses (--auth-secret-file,
        RECENTS_AUTH_SECRET_FILE or RECENTS_AUTH_SECRET), valid for --ttl seconds. --scope admin
        mints a token for every list and /metrics. No secret, or one under 32 bytes, is a usage
        error (exit 2).
        """
    static var defaults: Options { Options() }
    static var flags: [Flag<Options>] {
        [
            Flag(
                "list", "NAME", \.list, .optional(SeedCommand.listName),
                help: "list the token owns: 1 to 64 of A-Z a-z 0-9 . _ -", env: false, required: true),
            Flag("scope", "WORDS", \.scope, .scope, help: "space-separated: read, write, admin", env: false),
            Flag(
                "ttl", "SECONDS", \.ttl, .integer(1...maximumTTL),
                help: "lifetime in seconds, 1..\(maximumTTL) (366 days)", env: false),
            AuthSecretFlags.file(\.authSecretFile),
        ]
    }

    /// Reads the secret; none at all is a usage error (2), as a too-short one is.
    static func resolve(_ options: inout Options, environment: [String: String]) throws(UsageError) {
        options.secret = try AuthSecretFlags.load(file: options.authSecretFile, environment: environment)
        if options.secret == nil {
            throw UsageError(
                message: "no auth secret; set \(AuthSecret.valueVariable) or pass --auth-secret-file")
        }
    }

    /// Prints the token; returns the exit status.
    static func run(_ options: Options, output: Output) -> Int32 {
        // The parser requires --list and `resolve` a secret.
        guard let secret = options.secret, let list = options.list else { return CLI.usageStatus }
        do {
            let signer = JWTSigner(secret: secret)
            output.standard(
                try signer.token(
                    list: list, scope: options.scope, ttl: Int64(options.ttl), now: JWTVerifier.systemClock()))
            return 0
        } catch {
            output.error("recents token: error: \(error.description)")
            return 1
        }
    }
}

extension FlagValue where Value == TokenScope {
    /// Words of `read`, `write` and `admin`, each at most once in any order; any other word is
    /// a typo here (the verifier ignores unknown words, so a typo would mint a weaker token).
    static var scope: FlagValue {
        FlagValue(
            parse: { (raw: RawValue) throws(UsageError) in
                let words = raw.text.split(separator: " ")
                guard !words.isEmpty, words.allSatisfy({ ["read", "write", "admin"].contains($0) }),
                    let scope = TokenScope(claim: words.joined(separator: " "))
                else { throw raw.invalid(must: "space-separated words from read, write, admin") }
                return scope
            }, format: { $0.description })
    }
}
