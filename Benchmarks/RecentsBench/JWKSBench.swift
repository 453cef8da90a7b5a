import Foundation
import RecentsAuth
import RecentsCrypto
import SystemSupport

/// What a provider's token costs per algorithm (issue 25): its signature check alone, and
/// verify+authorize as a request pays it, on first use (cache off: decoding, the header, the key
/// lookup, the signature, the claims) and cached (a lookup, the key's generation, the time). The
/// keys and tokens are PyJWT's, from the RecentsAuth test fixtures.
enum JWKSBench {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Tests/RecentsAuthTests/Fixtures/jwks-tokens.json").standardized

    /// The figures, or nil (with the reason on stderr) when the fixtures are missing.
    static func run(iterations: Int?, sink: inout Int) throws -> [JWTBench.Figure]? {
        guard let data = try? Data(contentsOf: fixtures),
            let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let initial = root["initial"], let tokens = root["tokens"] as? [[String: Any]],
            let issuer = root["issuer"] as? String, let audience = root["audience"] as? String,
            let now = (root["now"] as? NSNumber)?.int64Value
        else {
            FileHandle.standardError.write(Data("jwks: no fixtures at \(fixtures.path)\n".utf8))
            return nil
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recents-bench-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("jwks.json").path
        try JSONSerialization.data(withJSONObject: initial).write(to: URL(fileURLWithPath: path))
        let provider = try IdentityProvider(
            issuer: issuer, audience: audience, keySetFile: path, logger: Logger(level: .error))
        let uncached = JWTVerifier(secret: nil, provider: provider, clock: { now }, cacheCapacity: 0)
        let cached = JWTVerifier(secret: nil, provider: provider, clock: { now })
        let rounds = iterations ?? 15
        var figures: [JWTBench.Figure] = []
        for algorithm in SignatureAlgorithm.allCases {
            // The fixtures name each algorithm's key after it: rs256, ps256, es256, eddsa.
            guard
                let token = tokens.first(where: { $0["name"] as? String == "\(algorithm.rawValue) token" })?["token"]
                    as? String,
                let key = provider.keys.key(algorithm.rawValue.lowercased())
            else { continue }
            let label = "\(algorithm.rawValue) (\(describe(key.key.kind)))"
            let field = ["Bearer " + token]
            let parts = token.split(separator: ".")
            let message = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
            let signature = Base64URL.decode(parts[2].utf8) ?? []
            // Public-key checks take 20 µs to 1 ms: small batches keep a run short.
            let batch = 100
            let verify = Measure.median(iterations: rounds, sink: &sink, digest: { $0 }) {
                (0..<batch).filter { _ in key.verify(signature: signature, message: message) }.count
            }
            let first = Measure.median(iterations: rounds, sink: &sink, digest: { $0 }) {
                (0..<batch).filter { _ in allowed(uncached, field) }.count
            }
            _ = allowed(cached, field)
            let hits = 2000
            let hit = Measure.median(iterations: rounds, sink: &sink, digest: { $0 }) {
                (0..<hits).filter { _ in allowed(cached, field) }.count
            }
            figures.append(.init(name: "\(label) signature only", perBatch: batch, median: verify))
            figures.append(.init(name: "\(label) verify+authorize, first use", perBatch: batch, median: first))
            figures.append(.init(name: "\(label) verify+authorize, cached", perBatch: hits, median: hit))
        }
        return figures
    }

    /// Whether a request with `field` may read alice's list: what the middleware does per request.
    private static func allowed(_ verifier: JWTVerifier, _ field: [String]) -> Bool {
        if case .allow = Authorizer.decide(
            verifier.credential(authorization: field), resource: .list("alice"), access: .read)
        {
            return true
        }
        return false
    }

    private static func describe(_ kind: PublicKey.Kind) -> String {
        switch kind {
        case .rsa(let bits): "RSA-\(bits)"
        case .p256: "P-256"
        case .ed25519: "Ed25519"
        }
    }
}
