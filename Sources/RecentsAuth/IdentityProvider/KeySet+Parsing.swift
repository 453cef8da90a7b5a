import RecentsCrypto
import RecentsJSON

extension KeySet {
    /// The largest key set read, in bytes. A provider's set is a few keys of a few hundred bytes
    /// each (a 4096-bit RSA key is ~750); a megabyte is a wrong file, not a key set.
    public static let maximumBytes = 1 << 20

    /// The members of a JWK this parser reads as strings; any other member (`x5c`, `x5t`, ...) is
    /// left alone.
    private static let stringMembers = ["kty", "kid", "alg", "use", "n", "e", "crv", "x", "y"]

    /// Reads a JWKS document, `{"keys": [JWK, ...]}` (RFC 7517 §5), every key through `JWK`'s rules.
    ///
    /// A key whose `use` is not `sig` is skipped (listed in `skipped`): providers publish
    /// encryption keys beside signing keys, and such a key verifies nothing here. Any other fault
    /// refuses the whole set, naming the key and the member, so a half-understood set is never used.
    /// - Throws: `KeySetError` when the bytes are not such a document, or a key breaks a rule.
    public static func parse(_ bytes: [UInt8]) throws(KeySetError) -> KeySet {
        guard bytes.count <= maximumBytes else {
            throw KeySetError(description: "the key set is over \(maximumBytes) bytes")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw KeySetError(description: "the key set is not JSON: \(error)")
        }
        guard case .object(let members) = document,
            case .array(let keys)? = members.first(where: { $0.0 == "keys" })?.1
        else { throw KeySetError(description: #"the key set is not a JSON object with a "keys" array"#) }
        var entries: [Entry] = []
        var skipped: [String] = []
        for (index, key) in keys.enumerated() {
            guard case .object(let jwk) = key else { throw KeySetError(description: "keys[\(index)] is not an object") }
            let strings = try Self.strings(of: jwk, at: index)
            let name = strings["kid"].map { "the key with kid \"\($0)\"" } ?? "keys[\(index)]"
            if let use = strings["use"], use != "sig", !jwk.contains(where: { JWK.privateMembers.contains($0.0) }) {
                skipped.append(strings["kid"] ?? "keys[\(index)]")
                continue
            }
            let keyOps = try Self.keyOps(of: jwk, name: name)
            do {
                let made = try JWK(
                    kty: strings["kty"], kid: strings["kid"], alg: strings["alg"], use: strings["use"],
                    n: strings["n"], e: strings["e"], crv: strings["crv"], x: strings["x"], y: strings["y"],
                    keyOps: keyOps, memberNames: jwk.map(\.0))
                let fingerprint = ["kty", "alg", "n", "e", "crv", "x", "y"].map { strings[$0] ?? "" }
                entries.append(Entry(jwk: made, fingerprint: fingerprint.joined(separator: "|")))
            } catch {
                throw KeySetError(description: "\(name): \(error)")
            }
        }
        return try KeySet(entries: entries, skipped: skipped)
    }

    private static func strings(of jwk: [(String, JSONValue)], at index: Int) throws(KeySetError) -> [String: String] {
        var strings: [String: String] = [:]
        for (name, value) in jwk where stringMembers.contains(name) {
            guard case .string(let text) = value else {
                throw KeySetError(description: "keys[\(index)]: \(name): must be a string, not \(value.typeName)")
            }
            strings[name] = text
        }
        return strings
    }

    private static func keyOps(of jwk: [(String, JSONValue)], name: String) throws(KeySetError) -> [String]? {
        guard let value = jwk.first(where: { $0.0 == "key_ops" })?.1 else { return nil }
        guard case .array(let elements) = value else {
            throw KeySetError(description: "\(name): key_ops: must be an array of strings")
        }
        var operations: [String] = []
        for element in elements {
            guard case .string(let operation) = element else {
                throw KeySetError(description: "\(name): key_ops: must be an array of strings")
            }
            operations.append(operation)
        }
        return operations
    }
}
