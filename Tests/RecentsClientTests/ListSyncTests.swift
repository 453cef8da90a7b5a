import Foundation
import RecentsClient
import RecentsCore
import Testing

/// `ListSync` against a live server over a link that goes down, with a simulated UITableView
/// applying each batch update the way UIKit does.
@Suite("ListSync", .timeLimit(.minutes(1)))
@MainActor
struct ListSyncTests {
    /// A sync rendering into `table`; each render is announced on the returned stream.
    func start(_ sync: ListSync, _ table: SimulatedTable) -> AsyncStream<Void> {
        let (renders, rendered) = AsyncStream.makeStream(of: Void.self)
        sync.render = { update in
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

    /// A sync of `client`'s view of alice's list, running, once it shows the four rows.
    func runningOnFourRows(_ client: RecentsClient, store: any ActionStore) async throws -> (
        sync: ListSync, table: SimulatedTable, renders: AsyncStream<Void>.Iterator, running: Task<Void, Never>
    ) {
        let sync = try ListSync(client: client, list: "alice", view: .default, store: store)
        let table = SimulatedTable { sync.model.rows }
        var renders = start(sync, table).makeAsyncIterator()
        let running = Task { await sync.run() }
        await until(&renders) { table.shown.count == 4 }
        return (sync, table, renders, running)
    }

    /// Waits for renders until `done` holds.
    func until(_ renders: inout AsyncStream<Void>.Iterator, _ done: () async throws -> Bool) async rethrows {
        while try await !done() { _ = await renders.next(isolation: #isolation) }
    }

    /// Waits for renders until `sync` has nothing pending and shows the list's version as `other` reads it.
    func untilCaughtUp(_ renders: inout AsyncStream<Void>.Iterator, _ sync: ListSync, with other: RecentsClient)
        async throws
    {
        try await until(&renders) {
            let version = try await other.list("alice").version
            return sync.model.pending.isEmpty && sync.model.server.version == version
        }
    }

    @Test func aDeleteShowsAtOnceOfflineSurvivesARestartAndLandsOnceWhenTheLinkReturns() async throws {
        let server = try LiveServer()
        let (other, client, link) = try await server.twoDevicesOnFourRows()
        let scratch = try ScratchDirectory()
        let (sync, table, _, running) = try await runningOnFourRows(client, store: scratch.store)

        // Offline, the delete is on screen before anything is sent: no await in between.
        link.mode = .offline
        var counts = await sync.queue.counts().makeAsyncIterator()
        var refusals = link.refusals.makeAsyncIterator()
        let batches = table.batches
        let performed = sync.perform(.deleteRow(rowId: "c-4", scope: .me))
        #expect(table.shown.map(\.id) == ["c-3", "c-2", "c-1"] && table.batches == batches + 1)
        while let count = await counts.next(), count < 1 {}
        #expect(await refusals.next() == performed.action.id)
        running.cancel()
        await running.value

        // The app starts again: the delete is still on screen, then reaches the server once.
        let reopened = try ListSync(client: client, list: "alice", view: .default, store: scratch.store)
        let table2 = SimulatedTable { reopened.model.rows }
        var renders2 = start(reopened, table2).makeAsyncIterator()
        let running2 = Task { await reopened.run() }
        await until(&renders2) { reopened.model.server.version != nil }
        #expect(table2.shown.map(\.id) == ["c-3", "c-2", "c-1"] && reopened.model.pending.count == 1)
        link.mode = .online
        await reopened.queue.linkReturned()
        try await untilCaughtUp(&renders2, reopened, with: other)
        #expect(table2.shown == (try await other.rows(of: "alice").rows))
        #expect(link.writes(under: performed.action.id) == 1)
        #expect(await reopened.queue.waitingCount == 0)
        running2.cancel()
        await running2.value
    }

    /// The open row's rule through the sync: a tap elsewhere only closes it, a scroll closes
    /// it, and each close reaches the server.
    @Test func aTapElsewhereOrAScrollClosesTheOpenRowOnTheServerToo() async throws {
        let server = try LiveServer()
        let (other, client, _) = try await server.twoDevicesOnFourRows()
        let scratch = try ScratchDirectory()
        let (sync, table, shown, running) = try await runningOnFourRows(client, store: scratch.store)
        var renders = shown
        let start = try await other.list("alice").version

        sync.perform(.reveal(rowId: "c-4", revealed: true))
        #expect(!sync.tapClosesOpenRow("c-4"), "a tap on the open row is the app's")
        #expect(sync.tapClosesOpenRow("c-2") && sync.model.revealedRowId == nil)
        #expect(!sync.tapClosesOpenRow("c-2"), "with no row open the app acts on the tap")
        sync.perform(.reveal(rowId: "c-3", revealed: true))
        sync.scrollBegan()
        #expect(sync.model.revealedRowId == nil && !table.shown.contains(where: \.revealed))
        try await until(&renders) {
            let list = try await other.list("alice")
            return sync.model.pending.isEmpty && list.version == start + 4
        }
        #expect(try await other.list("alice").revealedRowId == nil)
        running.cancel()
        await running.value
    }

    /// The docs' `startSync` shows the list, keeps its queue in the file it names, and lands a delete.
    @Test func theDocsStartSyncShowsTheListAndLandsADelete() async throws {
        let server = try LiveServer()
        let (other, client, _) = try await server.twoDevicesOnFourRows()
        let scratch = try ScratchDirectory()
        let actions = scratch.url.appendingPathComponent("actions.json")
        let (sync, running) = try startSync(client: client, list: "alice", actions: actions) { _ in }
        // The task runs only once this test awaits, so the table hears every render.
        let table = SimulatedTable { sync.model.rows }
        var renders = start(sync, table).makeAsyncIterator()
        await until(&renders) { table.shown.count == 4 }
        sync.perform(.deleteRow(rowId: "c-4", scope: .me))
        try await untilCaughtUp(&renders, sync, with: other)
        #expect(try await other.rows(of: "alice").rows.map(\.id) == ["c-3", "c-2", "c-1"])
        #expect(try FileActionStore(url: actions).load().isEmpty)
        #expect(FileManager.default.fileExists(atPath: actions.path))
        running.cancel()
        await running.value
    }

    /// An action the store cannot save is reported and still sent: it is lost only to a restart.
    @Test func anActionTheStoreCannotSaveIsReportedAndStillLands() async throws {
        let server = try LiveServer()
        let (other, client, link) = try await server.twoDevicesOnFourRows()
        let (sync, _, shown, running) = try await runningOnFourRows(client, store: UnsavableStore())
        var renders = shown
        let (failures, failed) = AsyncStream.makeStream(of: String.self)
        sync.saveFailed = { error in failed.yield("\(error)") }
        let performed = sync.perform(.deleteRow(rowId: "c-4", scope: .me))
        var heard = failures.makeAsyncIterator()
        #expect(await heard.next() == "\(UnsavableStore.Failure.diskFull)")
        try await untilCaughtUp(&renders, sync, with: other)
        #expect(link.writes(under: performed.action.id) == 1)
        #expect(try await other.rows(of: "alice").rows.map(\.id) == ["c-3", "c-2", "c-1"])
        running.cancel()
        await running.value
    }

    /// Failed attempts to follow the list, and the first answer after them, reach `onLink`.
    @Test func followFailuresAndTheLinksReturnReachOnLink() async throws {
        let server = try LiveServer()
        let (_, client, _) = try await server.twoDevicesOnFourRows()
        let scratch = try ScratchDirectory()
        server.stop()
        let sync = try ListSync(client: client, list: "alice", view: .default, store: scratch.store)
        let table = SimulatedTable { sync.model.rows }
        var renders = start(sync, table).makeAsyncIterator()
        let (links, heard) = AsyncStream.makeStream(of: FollowLink.self)
        sync.onLink = { heard.yield($0) }
        let running = Task { await sync.run() }
        var events = links.makeAsyncIterator()
        let first = await events.next()
        guard case .retrying(attempt: 1, _, _) = first else {
            Issue.record("the first failure is not reported: \(String(describing: first))")
            return
        }
        try server.restart()
        while let event = await events.next(), event != .restored {}
        await until(&renders) { table.shown.count == 4 }
        running.cancel()
        await running.value
    }
}

/// An `ActionStore` that cannot save, as a full disk.
struct UnsavableStore: ActionStore {
    enum Failure: Error { case diskFull }

    func load() throws -> [ListAction] { [] }
    func save(_ actions: [ListAction]) throws { throw Failure.diskFull }
}
