import RecentsClientCore
import RecentsCore

extension SeedCommand {
    /// What posting the demo history did: calls posted now, calls the list held already, its version.
    struct Outcome: Equatable {
        var posted = 0
        var present = 0
        var version = 0

        /// `seeded 500 calls into demo (version 1)`, with what was there already on a rerun.
        func line(list: String) -> String {
            let base = "seeded \(posted) \(posted == 1 ? "call" : "calls") into \(list) (version \(version))"
            return present == 0 ? base : base + "; \(present) were there already"
        }
    }

    /// Posts `calls` to `list` in batches of `batchSize`. The ids are fixed by `--seed`, so a rerun
    /// finds them stored: a batch posted again as it was is a replay the server answers with the
    /// version it had (nothing stored), and one with other times (`--now` moved on) is refused
    /// with 409, after which only the calls the list does not hold are posted; the rest stay.
    /// `advanced` hears the calls handled so far after each batch.
    static func post(
        _ calls: [Call], to list: String, client: RecentsClient, advanced: (Int) -> Void = { _ in }
    ) async throws(RecentsClientError) -> Outcome {
        var outcome = Outcome(version: try await client.list(list).version)
        var start = 0
        while start < calls.count {
            let batch = Array(calls[start..<min(start + batchSize, calls.count)])
            start += batch.count
            do {
                let version = try await client.postCalls(batch.map(NewCall.init), to: list).version
                // One post lands all its new calls in one new version; none new, no version.
                if version == outcome.version { outcome.present += batch.count } else { outcome.posted += batch.count }
                outcome.version = version
            } catch .problem(let problem) where problem.status == 409 {
                let missing = try await absent(batch, from: list, client: client)
                outcome.present += batch.count - missing.count
                if !missing.isEmpty {
                    outcome.version = try await client.postCalls(missing.map(NewCall.init), to: list).version
                    outcome.posted += missing.count
                }
            }
            advanced(start)
        }
        return outcome
    }

    /// The calls of `batch` that `list` does not hold, asked for `width` at a time.
    private static func absent(_ batch: [Call], from list: String, client: RecentsClient, width: Int = 8)
        async throws(RecentsClientError) -> [Call]
    {
        var missing: [Call] = []
        for first in stride(from: 0, to: batch.count, by: width) {
            let group = batch[first..<min(first + width, batch.count)]
            let answers = await withTaskGroup(of: (Int, Result<Bool, RecentsClientError>).self) { tasks in
                for (index, call) in zip(group.indices, group) {
                    tasks.addTask { (index, await isStored(call.id, in: list, client: client)) }
                }
                var answers: [Int: Result<Bool, RecentsClientError>] = [:]
                for await (index, answer) in tasks { answers[index] = answer }
                return answers
            }
            for index in group.indices where try !(answers[index]?.get() ?? false) { missing.append(batch[index]) }
        }
        return missing
    }

    /// Whether `list` holds the live call `id`.
    private static func isStored(_ id: String, in list: String, client: RecentsClient) async -> Result<
        Bool, RecentsClientError
    > {
        do {
            _ = try await client.call(id, in: list)
            return .success(true)
        } catch .problem(let problem) where problem.status == 404 {
            return .success(false)
        } catch {
            return .failure(error)
        }
    }
}
