import RecentsAPI
import RecentsAuth

/// The auth secret's sources, shared by `serve` and `token` so both find the same key.
enum AuthSecretFlags {
    /// `--auth-secret-file`, with `RECENTS_AUTH_SECRET_FILE` as every flag has its variable.
    static func file<Options>(_ keyPath: WritableKeyPath<Options, String?>) -> Flag<Options> {
        Flag(
            "auth-secret-file", "PATH", keyPath, .optional(.string),
            help: "file holding the token secret, >= 32 bytes (\(AuthSecret.valueVariable) holds the secret itself)")
    }

    /// The secret from the flag or the environment, nil when none is configured.
    /// - Throws: `UsageError` with `AuthSecretError`'s line (too short, unreadable, both variables).
    static func load(file: String?, environment: [String: String]) throws(UsageError) -> AuthSecret? {
        // A value equal to the variable's came from it (or says the same): `AuthSecret.load`
        // then reads it as the variable, so it is refused next to `RECENTS_AUTH_SECRET`.
        let flagFile = file == environment[AuthSecret.fileVariable] ? nil : file
        do {
            return try AuthSecret.load(flagFile: flagFile, environment: environment) { path in
                try FileBytes.read(path, limit: AuthSecret.maximumBytes + 2)
            }
        } catch {
            throw UsageError(message: error.description)
        }
    }
}

extension FlagValue where Value == Bool {
    /// `--auth`: `jwt` checks tokens (false), `none` turns checks off (true).
    static var authMode: FlagValue { .choice([("jwt", false), ("none", true)]) }
}
