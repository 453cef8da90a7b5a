import Synchronization

/// Every shard's answer to `probeHealth`, gathered until the last one arrives, then combined.
final class HealthProbe: Sendable {
    private let names: [String]
    private let completion: @Sendable (Result<StoreHealth, any Error>) -> Void
    private let answers: Mutex<[Result<StoreHealth, any Error>?]>

    init(names: [String], completion: @escaping @Sendable (Result<StoreHealth, any Error>) -> Void) {
        self.names = names
        self.completion = completion
        answers = Mutex(Array(repeating: nil, count: names.count))
    }

    /// Records shard `index`'s answer; the last one completes the probe.
    func record(_ index: Int, _ answer: Result<StoreHealth, any Error>) {
        let all = answers.withLock { answers -> [Result<StoreHealth, any Error>]? in
            answers[index] = answer
            let done = answers.compactMap { $0 }
            return done.count == answers.count ? done : nil
        }
        if let all { completion(Self.combine(all, names: names)) }
    }

    /// A failure when no shard answered; else the first shard away or degraded, by name.
    static func combine(_ answers: [Result<StoreHealth, any Error>], names: [String]) -> Result<StoreHealth, any Error>
    {
        var firstFailure: (any Error)?
        var reasons: [String] = []
        for (name, answer) in zip(names, answers) {
            switch answer {
            case .success(.ok): continue
            case .success(.degraded(let reason)): reasons.append("shard '\(name)': \(reason)")
            case .failure(let error):
                firstFailure = firstFailure ?? error
                let problem = (error as? StoreError)?.storageProblem ?? "the database fails"
                reasons.append("shard '\(name)': \(problem)")
            }
        }
        if let firstFailure, answers.allSatisfy({ (try? $0.get()) == nil }) {
            return .failure(firstFailure)
        }
        return .success(reasons.isEmpty ? .ok : .degraded(reason: reasons.joined(separator: "; ")))
    }
}
