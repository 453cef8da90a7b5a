import Foundation
import RecentsClient
import RecentsCore
import Testing

/// Three missed calls from different peers, newest last, so each is a row of its own: m-3 m-2 m-1.
func seedThreeMissed(_ client: RecentsClient, list: String) async throws -> [Int64] {
    let times = (1...3).map { 1_764_460_800 + Int64($0 * 1000) }
    let calls = times.enumerated().map { index, time in
        NewCall(
            id: "m-\(index + 1)", peer: .init(id: ["bob", "carol", "dave"][index]), direction: .incoming,
            endReason: .missed, timestamp: time)
    }
    try await client.postCalls(calls, to: list)
    return times
}

/// The missed-calls badge in the models: the server's count through rows replies and
/// transitions, and the `markSeen` intent shown at once and reconciled by the server.
@Suite("Unseen missed calls", .timeLimit(.minutes(1)))
struct UnseenMissedModelTests {
    @Test func theCountComesWithEveryTransitionEvenOneThatMovesNoRow() async throws {
        let server = try LiveServer()
        let (client, other) = (server.client(), server.client())
        let times = try await seedThreeMissed(other, list: "alice")
        var model = ListModel()
        _ = try model.apply(try await client.transition(of: "alice"))
        #expect(model.unseenMissed == 3)
        try await other.markSeen(through: times[1], in: "alice")
        let rowsBefore = model.rows
        _ = try model.apply(try await client.transition(of: "alice", since: model.version, epoch: model.epoch))
        #expect(model.unseenMissed == 1 && model.rows == rowsBefore)
    }

    @Test func aRowsReplyMovesTheCountUnlessItIsOlderThanTheModel() async throws {
        let server = try LiveServer()
        let client = server.client()
        let times = try await seedThreeMissed(client, list: "alice")
        let old = try await client.rows(of: "alice")
        #expect(old.unseenMissed == 3)
        var model = try await caughtUpModel(client)
        try await client.markSeen(through: times[0], in: "alice")
        let page = try await client.rows(of: "alice")
        #expect(model.noteBadge(of: page) && model.unseenMissed == 2 && model.server.unseenMissed == 2)
        _ = try await catchUp(&model, client)
        try await client.markSeen(through: times[2], in: "alice")
        _ = try await catchUp(&model, client)
        #expect(!model.noteBadge(of: page) && model.unseenMissed == 0, "a reply older than the model")
    }

    @Test func markingSeenDropsTheBadgeAtOnceToTheMissedCallsNewerThanTheMark() async throws {
        let server = try LiveServer()
        let client = server.client()
        let times = try await seedThreeMissed(client, list: "alice")
        var model = try await caughtUpModel(client)
        #expect(model.unseenMissed == 3)
        let performed = model.perform(.markSeen(through: times[1]))
        #expect(model.unseenMissed == 1 && performed.update.itemIdentifiers == model.rowIds)
        let everything = model.perform(.markSeen(through: times[2] + 60))
        #expect(model.unseenMissed == 0)
        for action in [performed.action, everything.action] {
            let reply = try await client.send(action)
            _ = model.landed(action.id, version: reply.version, epoch: reply.epoch)
        }
        _ = try await catchUp(&model, client)
        #expect(model.pending.isEmpty && model.unseenMissed == 0 && model.server.unseenMissed == 0)
        #expect(try await client.list("alice").seenThrough == times[2] + 60)
    }

    @Test func aMissedCallAfterTheMarkCountsAgainOnceTheServerSaysSo() async throws {
        let server = try LiveServer()
        let (client, other) = (server.client(), server.client())
        let times = try await seedThreeMissed(other, list: "alice")
        var model = try await caughtUpModel(client)
        let performed = model.perform(.markSeen(through: times[2]))
        let late = NewCall(
            id: "m-4", peer: .init(id: "erin"), direction: .incoming, endReason: .missed, timestamp: times[2] + 500)
        try await other.postCalls([late], to: "alice")
        let reply = try await client.send(performed.action)
        _ = model.landed(performed.action.id, version: reply.version, epoch: reply.epoch)
        _ = try await catchUp(&model, client)
        #expect(model.pending.isEmpty && model.unseenMissed == 1)
    }
}

extension ListSyncTests {
    /// Mark seen through the sync while offline: the badge drops at once, the action survives a
    /// restart, and reaches the server once when the link returns.
    @Test func markingSeenOfflineShowsAtOnceSurvivesARestartAndLandsOnce() async throws {
        let server = try LiveServer()
        let other = server.client()
        let (client, link) = server.flakyClient()
        let times = try await seedThreeMissed(other, list: "alice")
        let scratch = try ScratchDirectory()
        let sync = try ListSync(client: client, list: "alice", view: .default, store: scratch.store)
        var renders = start(sync, SimulatedTable { sync.model.rows }).makeAsyncIterator()
        let running = Task { await sync.run() }
        await until(&renders) { sync.model.unseenMissed == 3 && sync.model.rows.count == 3 }
        #expect(badge(of: sync) == "3")

        link.mode = .offline
        var counts = await sync.queue.counts().makeAsyncIterator()
        var refusals = link.refusals.makeAsyncIterator()
        markShownSeen(sync)
        let performed = try #require(sync.model.pending.last)
        #expect(performed.action.intent == .markSeen(through: times[2]) && badge(of: sync) == nil)
        while let count = await counts.next(), count < 1 {}
        #expect(await refusals.next() == performed.action.id)
        running.cancel()
        await running.value
        #expect(try await other.list("alice").unseenMissed == 3)

        let reopened = try ListSync(client: client, list: "alice", view: .default, store: scratch.store)
        var renders2 = start(reopened, SimulatedTable { reopened.model.rows }).makeAsyncIterator()
        let running2 = Task { await reopened.run() }
        await until(&renders2) { reopened.model.server.version != nil }
        #expect(reopened.model.unseenMissed == 0 && reopened.model.server.unseenMissed == 3)
        link.mode = .online
        await reopened.queue.linkReturned()
        try await untilCaughtUp(&renders2, reopened, with: other)
        #expect(try await other.list("alice").unseenMissed == 0 && reopened.model.unseenMissed == 0)
        #expect(link.writes(under: performed.action.id) == 1)
        running2.cancel()
        await running2.value
    }
}
