import RecentsClient
import RecentsCore
import RecentsTestSupport
import Testing

@Suite("ListModel against a live server")
struct RandomizedClientTests {
    /// Random histories; from many retained versions and view changes, every transition applied
    /// by `ListModel` equals `GET rows`, and every batch update passes the validator.
    @Test func transitionsFromRetainedVersionsAndViewsMatchRows() async throws {
        let server = try LiveServer()
        let client = server.client()
        let seed = testSeed("transitionsFromRetainedVersionsAndViewsMatchRows")
        var checks = 0
        for historyIndex in 0..<6 {
            var history = RandomHistory(
                client: client, list: "h\(historyIndex)", seed: seed &+ UInt64(historyIndex))
            var retained: [ListModel] = []
            var log: [String] = []
            for _ in 0..<30 {
                log.append(try await history.step())
                // A snapshot of a random view at this version, as a screen would hold it.
                let view = history.randomView()
                var snapshot = ListModel(view: view)
                try applyValidated(
                    try await client.transition(of: history.list, view: view), to: &snapshot, "initial \(log)")
                expectModel(snapshot, equals: try await client.rows(of: history.list, view: view), "initial \(log)")
                retained.append(snapshot)
                for _ in 0..<3 {
                    guard let old = retained.randomElement(using: &history.generator) else { break }
                    let target = history.randomView()
                    let context =
                        "seed \(seed) history \(historyIndex) from v\(old.version ?? -1) \(old.view) to \(target) after \(log)"
                    guard
                        let event = try await resyncOrEvent({ () async throws(RecentsClientError) -> TransitionEvent in
                            try await client.transition(
                                of: history.list, since: old.version, epoch: old.epoch, view: target, fromView: old.view
                            )
                        })
                    else {
                        retained.removeAll { $0.version == old.version }  // forgotten by a list delete
                        continue
                    }
                    var model = old
                    try applyValidated(event, to: &model, context)
                    expectModel(model, equals: try await client.rows(of: history.list, view: target), context)
                    checks += 1
                }
            }
        }
        #expect(checks > 100)
    }
}
