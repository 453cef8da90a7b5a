import Foundation
import RecentsClient
import RecentsCore
import Testing

/// The optimistic feed snippet of docs/CLIENTS.md over a link that goes down, with a simulated
/// UITableView applying each batch update the way UIKit does.
@Suite("docs/CLIENTS.md optimistic feed", .timeLimit(.minutes(1)))
@MainActor
struct OptimisticFeedSnippetTests {
    /// A feed rendering into `table`; each render is announced on the returned stream.
    func start(_ feed: OptimisticFeed, _ table: SimulatedTable) -> AsyncStream<Void> {
        let (renders, rendered) = AsyncStream.makeStream(of: Void.self)
        feed.render = { update in
            #expect(BatchUpdateValidator.violations(of: update).isEmpty)
            if update.isFullReload {
                table.reloadData()
            } else {
                table.performBatchUpdates {
                    table.deleteRows(at: update.deletedIndexPaths(), with: update.animation.deletion)
                    table.reloadRows(at: update.reloadedIndexPaths(), with: update.animation.reload)
                    table.insertRows(at: update.insertedIndexPaths(), with: update.animation.insertion)
                }
            }
            rendered.yield()
        }
        return renders
    }

    /// A feed of `client`'s view of alice's list, running, once it shows the four rows.
    func runningOnFourRows(_ client: RecentsClient, store: any ActionStore) async throws -> (
        feed: OptimisticFeed, table: SimulatedTable, renders: AsyncStream<Void>.Iterator, running: Task<Void, Never>
    ) {
        let feed = try OptimisticFeed(client: client, list: "alice", view: .default, store: store)
        let table = SimulatedTable { feed.model.rows }
        var renders = start(feed, table).makeAsyncIterator()
        let running = Task { await feed.run() }
        await until(&renders) { table.shown.count == 4 }
        return (feed, table, renders, running)
    }

    /// Waits for renders until `done` holds.
    func until(_ renders: inout AsyncStream<Void>.Iterator, _ done: () async throws -> Bool) async rethrows {
        while try await !done() { _ = await renders.next(isolation: #isolation) }
    }

    @Test func aDeleteShowsAtOnceOfflineSurvivesARestartAndLandsOnceWhenTheLinkReturns() async throws {
        let server = try LiveServer()
        let (other, client, link) = try await server.twoDevicesOnFourRows()
        let scratch = try ScratchDirectory()
        let (feed, table, _, running) = try await runningOnFourRows(client, store: scratch.store)

        // Offline, the delete is on screen before anything is sent: no await in between.
        link.mode = .offline
        var counts = await feed.queue.counts().makeAsyncIterator()
        var refusals = link.refusals.makeAsyncIterator()
        let batches = table.batches
        let performed = feed.perform(.deleteRow(rowId: "c-4", scope: .me))
        #expect(table.shown.map(\.id) == ["c-3", "c-2", "c-1"] && table.batches == batches + 1)
        while let count = await counts.next(), count < 1 {}
        #expect(await refusals.next() == performed.action.id)
        running.cancel()
        await running.value

        // The app starts again: the delete is still on screen, then reaches the server once.
        let reopened = try OptimisticFeed(client: client, list: "alice", view: .default, store: scratch.store)
        let table2 = SimulatedTable { reopened.model.rows }
        var renders2 = start(reopened, table2).makeAsyncIterator()
        let running2 = Task { await reopened.run() }
        await until(&renders2) { reopened.model.server.version != nil }
        #expect(table2.shown.map(\.id) == ["c-3", "c-2", "c-1"] && reopened.model.pending.count == 1)
        link.mode = .online
        await reopened.queue.linkReturned()
        try await until(&renders2) {
            let version = try await other.list("alice").version
            return reopened.model.pending.isEmpty && reopened.model.server.version == version
        }
        #expect(table2.shown == (try await other.rows(of: "alice").rows))
        #expect(link.writes(under: performed.action.id) == 1)
        #expect(await reopened.queue.waitingCount == 0)
        running2.cancel()
        await running2.value
    }

    /// The open row's rule through the snippet: a tap elsewhere only closes it, a scroll closes
    /// it, and each close reaches the server.
    @Test func aTapElsewhereOrAScrollClosesTheOpenRowOnTheServerToo() async throws {
        let server = try LiveServer()
        let (other, client, _) = try await server.twoDevicesOnFourRows()
        let scratch = try ScratchDirectory()
        let (feed, table, shown, running) = try await runningOnFourRows(client, store: scratch.store)
        var renders = shown
        let start = try await other.list("alice").version

        feed.perform(.reveal(rowId: "c-4", revealed: true))
        #expect(!feed.tapClosesOpenRow("c-4"), "a tap on the open row is the app's")
        #expect(feed.tapClosesOpenRow("c-2") && feed.model.revealedRowId == nil)
        #expect(!feed.tapClosesOpenRow("c-2"), "with no row open the app acts on the tap")
        feed.perform(.reveal(rowId: "c-3", revealed: true))
        feed.scrollBegan()
        #expect(feed.model.revealedRowId == nil && !table.shown.contains(where: \.revealed))
        try await until(&renders) {
            let list = try await other.list("alice")
            return feed.model.pending.isEmpty && list.version == start + 4
        }
        #expect(try await other.list("alice").revealedRowId == nil)
        running.cancel()
        await running.value
    }
}
