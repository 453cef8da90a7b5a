extension AuthSecret {
    /// `--auth-secret-file`'s environment variable.
    public static let fileVariable = "RECENTS_AUTH_SECRET_FILE"
    /// The variable holding the secret itself (for containers).
    public static let valueVariable = "RECENTS_AUTH_SECRET"

    /// The configured secret, or nil when none is configured.
    ///
    /// Rules, as the rest of the command line: the flag wins over the environment, and an
    /// empty variable counts as unset. Both variables set (and no flag) is an error, since
    /// either choice could silently be the wrong one. A file's contents lose one trailing
    /// `\n` (or `\r\n`), because `echo`, editors and `openssl rand -base64 32 > file` all end
    /// the file with one and the newline is not meant as part of the key; nothing else is
    /// trimmed. `RECENTS_AUTH_SECRET` is used byte for byte. The resulting bytes are the HMAC
    /// key itself (base64 text is not decoded): the minting backend must use the same bytes.
    ///
    /// - Parameters:
    ///   - flagFile: the value of `--auth-secret-file`, if given.
    ///   - environment: the process environment.
    ///   - readFile: reads a whole file; `AuthSecret.maximumBytes + 2` bytes is enough to decide.
    /// - Throws: `AuthSecretError` naming the flag or variable to fix.
    public static func load(
        flagFile: String?, environment: [String: String], readFile: (String) throws -> [UInt8]
    ) throws(AuthSecretError) -> AuthSecret? {
        let fileVariable = environment[Self.fileVariable].flatMap { $0.isEmpty ? nil : $0 }
        let valueVariable = environment[Self.valueVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let flagFile {
            return try fromFile(flagFile, origin: "--auth-secret-file", readFile: readFile)
        }
        if fileVariable != nil, valueVariable != nil {
            throw AuthSecretError(
                description: "both \(Self.fileVariable) and \(Self.valueVariable) are set; set only one")
        }
        if let fileVariable {
            return try fromFile(fileVariable, origin: Self.fileVariable, readFile: readFile)
        }
        if let valueVariable {
            return try AuthSecret(bytes: Array(valueVariable.utf8), origin: Self.valueVariable)
        }
        return nil
    }

    private static func fromFile(
        _ path: String, origin: String, readFile: (String) throws -> [UInt8]
    ) throws(AuthSecretError) -> AuthSecret {
        guard !path.isEmpty else { throw AuthSecretError(description: "\(origin) needs a file path") }
        var bytes: [UInt8]
        do {
            bytes = try readFile(path)
        } catch {
            throw AuthSecretError(description: "cannot read the auth secret file \(path) (\(origin)): \(error)")
        }
        if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        }
        return try AuthSecret(bytes: bytes, origin: "the auth secret file \(path) (\(origin))")
    }
}
