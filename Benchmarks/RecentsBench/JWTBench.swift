import RecentsAPI
import RecentsAuth
import RecentsCrypto

/// Verifying a bearer token, the work auth adds to every request (on the event loop for the
/// hot cached read). Figures are per token, from batches timed as a whole.
enum JWTBench {
    struct Figure {
        var name: String
        var perBatch: Int
        var median: Measure.Sample

        /// Microseconds of wall time per operation.
        var microseconds: Double { median.wall * 1000 / Double(perBatch) }
    }

    static func run(iterations: Int?, sink: inout Int) throws -> [Figure] {
        let secret = try AuthSecret(bytes: Array("benchmark-secret-0123456789-abcdefgh".utf8))
        let now: Int64 = 1_764_460_800
        let signer = JWTSigner(secret: secret)
        let verifier = JWTVerifier(secret: secret, clock: { now })
        let token = try signer.token(list: "bench", scope: [.read, .write], ttl: 3600, now: now)
        let field = ["Bearer " + token]
        let message = Array(token.utf8.prefix { $0 != UInt8(ascii: ".") })
        let batch = 2000
        let rounds = iterations ?? 15

        let credential = Measure.median(iterations: rounds, sink: &sink, digest: { $0 }) {
            var allowed = 0
            for _ in 0..<batch {
                let decision = Authorizer.decide(
                    verifier.credential(authorization: field), resource: .list("bench"), access: .read)
                if case .allow = decision { allowed += 1 }
            }
            return allowed
        }
        let hmac = Measure.median(iterations: rounds, sink: &sink, digest: { $0 }) {
            var total = 0
            for _ in 0..<batch { total &+= Int(HMACSHA256.authenticationCode(key: secret.bytes, message: message)[0]) }
            return total
        }
        let sign = try Measure.median(iterations: rounds, sink: &sink, digest: { $0 }) {
            var total = 0
            for _ in 0..<batch { total &+= try signer.token(list: "bench", ttl: 3600, now: now).utf8.count }
            return total
        }
        return [
            Figure(name: "verify+authorize", perBatch: batch, median: credential),
            Figure(name: "hmac-sha256 only", perBatch: batch, median: hmac),
            Figure(name: "sign", perBatch: batch, median: sign),
        ]
    }
}
