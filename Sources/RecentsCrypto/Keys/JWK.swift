/// One public key of a JSON Web Key Set (RFC 7517), checked against RFC 7518 §6 and RFC 8037 §2:
/// its `kid`, the one algorithm it verifies, and the key, ready in libcrypto.
///
/// Built from members a JSON parser already extracted as strings, so this type knows nothing of
/// JSON. It is stricter than the RFCs where they leave room: `alg` and `kid` are required (a token
/// names its key by `kid`, and its `alg` must equal the key's, or a token could choose how it is
/// checked), `use`, when present, must be `sig`, and `key_ops`, when present, must allow `verify`.
public struct JWK: Sendable {
    /// The key's id, which a token's header names.
    public let kid: String
    /// The one algorithm this key verifies.
    public let algorithm: SignatureAlgorithm
    /// The key itself.
    public let key: PublicKey

    /// The members that carry private key material: RSA's (RFC 7518 §6.3.2), EC's and OKP's `d`
    /// (RFC 7518 §6.2.2, RFC 8037 §2) and a symmetric key's `k` (RFC 7518 §6.4.1).
    public static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// Checks a JWK's members (base64url text, as in the JSON) and makes its key.
    ///
    /// - Parameters:
    ///   - keyOps: the strings of the `key_ops` array, when the JWK has one.
    ///   - memberNames: the name of every member of the JWK's JSON object, these included, so that
    ///     a private key pasted into a public set is refused rather than ignored.
    /// - Throws: `JWKError` naming the first member at fault.
    public init(
        kty: String?, kid: String?, alg: String?, use: String? = nil, n: String? = nil, e: String? = nil,
        crv: String? = nil, x: String? = nil, y: String? = nil, keyOps: [String]? = nil,
        memberNames: some Sequence<String>
    ) throws(JWKError) {
        let names = Set(memberNames)
        if let leaked = Self.privateMembers.first(where: names.contains) {
            throw JWKError(
                member: leaked, reason: "private key material has no place in a public key set (it has leaked)")
        }
        guard let kty else { throw JWKError(member: "kty", reason: "missing") }
        guard ["RSA", "EC", "OKP"].contains(kty) else { throw Self.unsupported(kty: kty) }
        guard let kid else { throw JWKError(member: "kid", reason: "missing; tokens name their key by it") }
        guard !kid.isEmpty else { throw JWKError(member: "kid", reason: "empty; tokens name their key by it") }
        // RFC 7517 §4.2: "sig" is the only use of a key that verifies signatures.
        if let use, use != "sig" {
            throw JWKError(member: "use", reason: "a signature key's use is \"sig\"; this one is \"\(use)\"")
        }
        // RFC 7517 §4.3: the operations the key is meant for; a key not meant to verify is not used to.
        if let keyOps, !keyOps.contains("verify") {
            throw JWKError(member: "key_ops", reason: "does not include \"verify\"")
        }
        guard let alg else {
            throw JWKError(member: "alg", reason: "missing; a key must say which algorithm it verifies")
        }
        guard let algorithm = SignatureAlgorithm(rawValue: alg) else {
            throw JWKError(member: "alg", reason: "\"\(alg)\" is not one of RS256, PS256, ES256, EdDSA")
        }
        switch kty {
        case "RSA":
            try Self.expect(algorithm, in: [.rs256, .ps256], for: "an RSA key")
            key = try PublicKey(rsaModulus: Self.bytes(n, member: "n"), exponent: Self.bytes(e, member: "e"))
        case "EC":
            try Self.expect(crv, "P-256", for: "an EC key")
            try Self.expect(algorithm, in: [.es256], for: "a P-256 key")
            key = try PublicKey(p256X: Self.bytes(x, member: "x"), y: Self.bytes(y, member: "y"))
        case "OKP":
            try Self.expect(crv, "Ed25519", for: "an OKP key")
            try Self.expect(algorithm, in: [.edDSA], for: "an Ed25519 key")
            key = try PublicKey(ed25519: Self.bytes(x, member: "x"))
        default:
            throw Self.unsupported(kty: kty)
        }
        self.kid = kid
        self.algorithm = algorithm
    }

    /// Whether `signature` is this key's algorithm's signature of `message` under this key.
    public func verify(signature: some Collection<UInt8>, message: some Collection<UInt8>) -> Bool {
        key.verify(signature: signature, message: message, algorithm: algorithm)
    }

    private static func unsupported(kty: String) -> JWKError {
        JWKError(member: "kty", reason: "\"\(kty)\" is not one of RSA, EC, OKP (public signature keys)")
    }

    private static func expect(
        _ algorithm: SignatureAlgorithm, in allowed: [SignatureAlgorithm], for what: String
    ) throws(JWKError) {
        guard !allowed.contains(algorithm) else { return }
        let names = allowed.map(\.rawValue).joined(separator: " or ")
        throw JWKError(member: "alg", reason: "\(what)'s alg is \(names); this one says \(algorithm.rawValue)")
    }

    private static func expect(_ crv: String?, _ expected: String, for what: String) throws(JWKError) {
        guard let crv else { throw JWKError(member: "crv", reason: "missing; \(what) needs \(expected)") }
        guard crv == expected else {
            throw JWKError(member: "crv", reason: "\(what)'s curve must be \(expected); this one is \"\(crv)\"")
        }
    }

    private static func bytes(_ text: String?, member: String) throws(JWKError) -> [UInt8] {
        guard let text else { throw JWKError(member: member, reason: "missing") }
        guard let bytes = Base64URL.decode(text.utf8) else {
            throw JWKError(member: member, reason: "not canonical unpadded base64url")
        }
        return bytes
    }
}
