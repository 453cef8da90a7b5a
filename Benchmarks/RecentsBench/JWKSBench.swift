import Foundation
import RecentsCrypto

/// Public-key signature verification per algorithm (issue 25), the cost a JWKS token adds on its
/// first use: the keys and tokens are PyJWT's, from the RecentsCrypto test fixtures.
enum JWKSBench {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Tests/RecentsCryptoTests/Fixtures/jwt-fixtures.json").standardized

    /// One figure per algorithm, or nil (with the reason on stderr) when the fixtures are missing.
    static func run(iterations: Int?, sink: inout Int) throws -> [JWTBench.Figure]? {
        guard let data = try? Data(contentsOf: fixtures),
            let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let keys = root["keys"] as? [[String: Any]], let signatures = root["signatures"] as? [[String: Any]]
        else {
            FileHandle.standardError.write(Data("jwks: no fixtures at \(fixtures.path)\n".utf8))
            return nil
        }
        let batch = 200
        let rounds = iterations ?? 15
        var figures: [JWTBench.Figure] = []
        for algorithm in SignatureAlgorithm.allCases {
            guard
                let token = signatures.first(where: {
                    $0["alg"] as? String == algorithm.rawValue && $0["valid"] as? Bool == true
                }),
                let keyName = token["key"] as? String,
                let members = keys.first(where: { $0["name"] as? String == keyName })?["jwk"] as? [String: Any],
                let encoded = token["signature"] as? String, let signature = Base64URL.decode(encoded.utf8),
                let message = (token["message"] as? String).map({ Array($0.utf8) })
            else { continue }
            let strings = members.compactMapValues { $0 as? String }
            let jwk = try JWK(
                kty: strings["kty"], kid: strings["kid"], alg: strings["alg"], use: strings["use"], n: strings["n"],
                e: strings["e"], crv: strings["crv"], x: strings["x"], y: strings["y"],
                keyOps: members["key_ops"] as? [String], memberNames: members.keys)
            let median = Measure.median(iterations: rounds, sink: &sink, digest: { $0 }) {
                var verified = 0
                for _ in 0..<batch where jwk.verify(signature: signature, message: message) { verified += 1 }
                return verified
            }
            figures.append(
                .init(name: "\(algorithm.rawValue) verify (\(label(jwk.key.kind)))", perBatch: batch, median: median))
        }
        return figures
    }

    private static func label(_ kind: PublicKey.Kind) -> String {
        switch kind {
        case .rsa(let bits): "RSA-\(bits)"
        case .p256: "P-256"
        case .ed25519: "Ed25519"
        }
    }
}
