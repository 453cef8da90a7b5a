import Foundation
import RecentsTestSupport
import Testing

@testable import RecentsAuth

/// Reading a JSON Web Key Set (RFC 7517 §5): every key through `JWK`'s rules, the set refused
/// whole (naming the key and member) unless every key is usable, encryption keys left out.
@Suite struct KeySetTests {
    static let fixtures = JWKSFixtures.shared

    func parse(_ text: String) throws(KeySetError) -> KeySet { try KeySet.parse(Array(text.utf8)) }

    func refusal(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    /// The set as PyJWT wrote it, with one key's members changed by `change`.
    func edited(_ change: (inout [[String: Any]]) -> Void) throws -> String {
        let root = try #require(try JSONSerialization.jsonObject(with: Self.fixtures.initial) as? [String: Any])
        var keys = try #require(root["keys"] as? [[String: Any]])
        change(&keys)
        return String(decoding: try JSONSerialization.data(withJSONObject: ["keys": keys]), as: UTF8.self)
    }

    @Test func thePublishedSetsLoad() throws {
        let initial = try KeySet.parse(Array(Self.fixtures.initial))
        #expect(initial.kids == ["eddsa", "es256", "ps256", "rs256"])
        #expect(initial.key("es256")?.algorithm == .es256)
        #expect(try KeySet.parse(Array(Self.fixtures.rotated)).kids == ["eddsa", "es256-next", "ps256", "rs256"])
    }

    @Test func anEncryptionKeyIsLeftOutNotRefused() throws {
        let text = try edited { keys in
            var encryption = keys[0]
            encryption["kid"] = "enc-1"
            encryption["use"] = "enc"
            encryption["alg"] = "RSA-OAEP"
            keys.append(encryption)
        }
        let set = try parse(text)
        #expect(set.skipped == ["enc-1"])
        #expect(set.key("enc-1") == nil)
        #expect(set.entries.count == 4)
    }

    @Test func aPrivateKeyRefusesTheSetNamingTheKeyAndMember() throws {
        let text = try edited { keys in keys[2]["d"] = "AQAB" }
        #expect(refusal(text)?.hasPrefix(#"the key with kid "es256": d: private key material"#) == true)
        // Even one marked for encryption: leaked material is never skipped quietly.
        let encrypted = try edited { keys in
            keys[2]["d"] = "AQAB"
            keys[2]["use"] = "enc"
        }
        #expect(refusal(encrypted)?.contains(": d: ") == true)
    }

    @Test func aKeyBreakingARuleRefusesTheSet() throws {
        #expect(refusal(try edited { $0[3]["x"] = "AAAA" })?.hasPrefix(#"the key with kid "eddsa": x: "#) == true)
        #expect(refusal(try edited { $0[0]["alg"] = "RS384" })?.hasPrefix(#"the key with kid "rs256": alg: "#) == true)
        #expect(
            refusal(try edited { $0[1].removeValue(forKey: "kid") })
                == "keys[1]: kid: missing; tokens name their key by it")
        #expect(refusal(try edited { $0[1]["kid"] = 7 }) == "keys[1]: kid: must be a string, not a number")
        let keyOps = refusal(try edited { $0[0]["key_ops"] = "verify" })
        #expect(keyOps == #"the key with kid "rs256": key_ops: must be an array of strings"#)
    }

    @Test func twoKeysUnderOneKidAreRefused() throws {
        let text = try edited { keys in keys[1]["kid"] = keys[0]["kid"] }
        #expect(refusal(text) == #"two keys have kid "rs256"; each kid must name one key"#)
    }

    @Test(arguments: [
        ("", "the key set is not JSON: the body is empty"),
        ("[]", #"the key set is not a JSON object with a "keys" array"#),
        (#"{"keys": {}}"#, #"the key set is not a JSON object with a "keys" array"#),
        (#"{"keys": [1]}"#, "keys[0] is not an object"),
        (#"{"keys": []}"#, "the key set has no keys"),
        (#"{"keys": [{"kid": "e", "use": "enc", "kty": "RSA"}]}"#, "the key set has no signature keys (only e)"),
    ])
    func aDocumentThatIsNoKeySetIsRefused(text: String, reason: String) {
        #expect(refusal(text) == reason)
    }

    @Test func aHugeFileIsRefusedUnparsed() {
        let huge = [UInt8](repeating: UInt8(ascii: " "), count: KeySet.maximumBytes + 1)
        #expect(throws: KeySetError(description: "the key set is over \(KeySet.maximumBytes) bytes")) {
            try KeySet.parse(huge)
        }
    }
}
