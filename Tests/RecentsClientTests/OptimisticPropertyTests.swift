import RecentsClient
import RecentsCore
import RecentsTestSupport
import Testing

@Suite("Optimistic actions against a live server", .timeLimit(.minutes(5)))
struct OptimisticPropertyTests {
    /// Random interleavings of own actions, another device's writes, lost answers, retries, a cut
    /// link and restarts; once the link is back and everything is sent, the screen is `GET rows`,
    /// nothing is pending, every batch update on the way passed the validator and moved the
    /// screen it came from, and every action that landed was written exactly once.
    @Test func randomInterleavingsEndWithTheScreenEqualToRows() async throws {
        let seed = testSeed("randomInterleavingsEndWithTheScreenEqualToRows")
        let server = try LiveServer()
        var totals = (updates: 0, landed: 0, notices: 0)
        for run in 0..<6 {
            var device = try OptimisticDevice(server: server, list: "p\(run)", seed: seed &+ UInt64(run))
            for _ in 0..<5 { _ = try await device.otherDevice.step() }
            for _ in 0..<70 { try await device.step() }
            try await device.settle()
            let context = device.context(seed)
            #expect(device.model.pending.isEmpty, "pending \(device.model.pending.map(\.action.intent)): \(context)")
            let page = try await device.reader.rows(of: device.list, view: device.model.view)
            #expect(device.model.server.version == page.version, "\(context)")
            #expect(device.model.rowIds == page.rows.map(\.id), "\(context)")
            #expect(device.model.rows == page.rows, "\(context)")
            #expect(device.model.editing == page.editing, "\(context)")
            #expect(device.model.revealedRowId == page.revealedRowId, "\(context)")
            #expect(device.model.hasMore == page.hasMore, "\(context)")
            for key in Set(device.link.keysSent) {
                #expect(device.link.writes(under: key) <= 1, "key \(key) written twice: \(context)")
            }
            for key in device.landed { #expect(device.link.writes(under: key) == 1, "\(context)") }
            totals.updates += device.updates
            totals.landed += device.landed.count
            totals.notices += device.notices
        }
        print(
            "randomInterleavingsEndWithTheScreenEqualToRows: \(totals.updates) updates checked, \(totals.landed) actions landed, \(totals.notices) notices"
        )
        #expect(totals.landed > 20)
    }
}
