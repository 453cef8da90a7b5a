import Foundation
import RecentsCrypto

/// Fixtures/jwt-fixtures.json, written by Fixtures/make-jwt-fixtures.py with PyJWT and
/// `cryptography`: public JWKs, signing inputs with valid and tampered signatures, refused keys.
struct JWTFixtures: Sendable {
    /// A signature to check: `valid` says whether the key must accept it for `alg`.
    struct Signature: Sendable, CustomStringConvertible {
        var name: String
        var key: String
        var alg: String
        var message: String
        var signature: String
        var valid: Bool
        var description: String { name }
    }

    /// A JWK that must be refused, naming `member`.
    struct RefusedKey: Sendable, CustomStringConvertible {
        var name: String
        var member: String
        var jwk: Members
        var description: String { name }
    }

    /// A JWK object's members: the string ones, and the names of all of them.
    struct Members: Sendable {
        var strings: [String: String]
        var keyOps: [String]?
        var names: [String]
    }

    var keys: [String: Members]
    var signatures: [Signature]
    var refusedKeys: [RefusedKey]

    /// Loaded once; a missing or malformed file stops the tests that use it with its reason.
    static let shared: JWTFixtures = {
        do { return try load() } catch { fatalError("Fixtures/jwt-fixtures.json: \(error)") }
    }()

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/jwt-fixtures.json")

    private static func load() throws -> JWTFixtures {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        let keys = (root["keys"] as? [[String: Any]] ?? []).reduce(into: [String: Members]()) { keys, key in
            keys[key["name"] as? String ?? ""] = members(key["jwk"])
        }
        let signatures = (root["signatures"] as? [[String: Any]] ?? []).map { entry in
            Signature(
                name: entry["name"] as? String ?? "", key: entry["key"] as? String ?? "",
                alg: entry["alg"] as? String ?? "", message: entry["message"] as? String ?? "",
                signature: entry["signature"] as? String ?? "", valid: entry["valid"] as? Bool ?? false)
        }
        let refused = (root["refusedKeys"] as? [[String: Any]] ?? []).map { entry in
            RefusedKey(
                name: entry["name"] as? String ?? "", member: entry["member"] as? String ?? "",
                jwk: members(entry["jwk"]))
        }
        return JWTFixtures(keys: keys, signatures: signatures, refusedKeys: refused)
    }

    private static func members(_ object: Any?) -> Members {
        let object = object as? [String: Any] ?? [:]
        return Members(
            strings: object.compactMapValues { $0 as? String }, keyOps: object["key_ops"] as? [String],
            names: Array(object.keys))
    }
}

extension JWK {
    /// The JWK these members describe, the way a key-set loader would call the initialiser.
    init(_ members: JWTFixtures.Members) throws(JWKError) {
        let m = members.strings
        try self.init(
            kty: m["kty"], kid: m["kid"], alg: m["alg"], use: m["use"], n: m["n"], e: m["e"], crv: m["crv"],
            x: m["x"], y: m["y"], keyOps: members.keyOps, memberNames: members.names)
    }
}
