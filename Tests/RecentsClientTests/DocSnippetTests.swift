import Foundation
import RecentsClient
import RecentsCore
import Testing

/// The UITableView snippet of docs/CLIENTS.md, with `SimulatedTable` in place of UITableView.
@MainActor
func render(_ event: TransitionEvent, feed: RecentsFeed, tableView: SimulatedTable) {
    let animation = TransitionAnimation(event.transition)
    if event.isInitial {
        _ = feed.model(apply: event)
        tableView.reloadData()
        return
    }
    let changes = {
        tableView.performBatchUpdates {
            guard let update = feed.model(apply: event) else { return }
            tableView.deleteRows(at: update.deletedIndexPaths(), with: animation.deletion)
            tableView.reloadRows(at: update.reloadedIndexPaths(), with: animation.reload)
            for path in update.insertedIndexPaths() {
                tableView.insertRows(at: [path], with: animation.insertionStyle(at: path[1]))
            }
        }
    }
    if animation.crossfade {
        tableView.crossfade(changes)
    } else {
        changes()  // animated or not, the simulated table does the same
    }
}

/// A diffable data source's snapshot, as far as the snippet uses it.
struct SimulatedSnapshot {
    var items: [String] = []
    var reconfigured: [String] = []
    var animated = false

    mutating func appendItems(_ ids: [String]) {
        #expect(Set(ids).count == ids.count, "supplied item identifiers are not unique")
        items += ids
    }

    mutating func reconfigureItems(_ ids: [String]) {
        #expect(ids.allSatisfy(items.contains), "invalid item identifier specified for reconfigure")
        reconfigured = ids
    }
}

/// The diffable data source snippet of docs/CLIENTS.md, with `SimulatedSnapshot` in place of UIKit's.
@MainActor
func render(_ event: TransitionEvent, feed: RecentsFeed, applied: inout SimulatedSnapshot) {
    let animation = TransitionAnimation(event.transition)
    guard let update = feed.model(apply: event) else { return }
    var snapshot = SimulatedSnapshot()
    snapshot.appendItems(update.itemIdentifiers)
    snapshot.reconfigureItems(update.reconfiguredIdentifiers)
    snapshot.animated = animation.animated && !update.isFullReload
    applied = snapshot
}

@Suite("docs/CLIENTS.md snippets", .timeLimit(.minutes(2)))
@MainActor
struct DocSnippetTests {
    @Test(arguments: ["DocFeed.swift", "DocListSync.swift", "DocBadge.swift"])
    func theSnippetIsTheOneInTheDocs(file: String) throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let doc = try String(contentsOf: here.appendingPathComponent("../../docs/CLIENTS.md"), encoding: .utf8)
        let copy = try String(contentsOf: here.appendingPathComponent(file), encoding: .utf8)
        let body = copy.components(separatedBy: "verbatim (DocSnippetTests checks that it matches).\n\n").last ?? ""
        #expect(!body.isEmpty && doc.contains(body))
    }

    /// Waits for the feed to render up to `version`.
    func until(_ version: Int, _ versions: inout AsyncStream<Int>.Iterator) async {
        while let seen = await versions.next(isolation: #isolation), seen < version {}
    }

    @Test func aTableFollowsTheListAndAPanReleaseDeletesARow() async throws {
        let server = try LiveServer()
        let client = server.client()
        let feed = RecentsFeed(client: client, list: "alice", view: .default)
        let table = SimulatedTable { feed.model.rows }
        let (versions, seen) = AsyncStream.makeStream(of: Int.self)
        feed.render = { event in
            render(event, feed: feed, tableView: table)
            seen.yield(feed.model.version ?? -1)
        }
        var iterator = versions.makeAsyncIterator()
        var running = Task { await feed.run(view: .default) }
        await until(0, &iterator)

        let calls = (1...4).map { index in
            NewCall(
                id: "c-\(index)", peer: .init(id: index % 2 == 0 ? "bob" : "carol"), direction: .incoming,
                endReason: .missed, timestamp: 1_764_460_800 + Int64(index * 100_000))
        }
        for call in calls { try await client.postCalls([call], to: "alice") }
        await until(4, &iterator)
        #expect(table.shown == (try await client.rows(of: "alice").rows))

        // The pan release: open c-4, then swipe it far enough to select Delete, and confirm.
        let open = try await client.gesture(
            Gesture(initialOffset: 0, offset: -60, velocity: -30), row: "c-4", in: "alice")
        #expect(open.outcome == .open && open.offset == -74)
        await until(5, &iterator)
        #expect(table.shown.first?.revealed == true)
        let swipe = Gesture(initialOffset: -74, offset: -200, velocity: -20, buttonWidth: 74)
        let reply = try await client.gesture(swipe, row: "c-4", in: "alice")
        #expect(reply.outcome == .selected && reply.offset == 0)
        if reply.outcome == .selected, let option = reply.option {
            try await client.confirmOption(option.key, row: "c-4", in: "alice", view: feed.model.view)
        }
        await until(7, &iterator)
        #expect(table.shown.map(\.id) == ["c-3", "c-2", "c-1"])

        // A tab switch: a new run with the new view resumes from what the table shows.
        running.cancel()
        await running.value
        running = Task { await feed.run(view: ViewParameters(filter: .missed, limit: 2)) }
        while feed.model.view.limit != 2 { _ = await iterator.next(isolation: #isolation) }
        #expect(table.crossfades == 1)
        #expect(
            table.shown == (try await client.rows(of: "alice", view: ViewParameters(filter: .missed, limit: 2)).rows))
        running.cancel()
        await running.value
        #expect(table.batches >= 5)
    }

    @Test func aDiffableSnapshotFollowsTheList() async throws {
        let server = try LiveServer()
        let client = server.client()
        let feed = RecentsFeed(client: client, list: "alice", view: .default)
        var applied = SimulatedSnapshot()
        var history: [SimulatedSnapshot] = []
        let (versions, seen) = AsyncStream.makeStream(of: Int.self)
        feed.render = { event in
            render(event, feed: feed, applied: &applied)
            history.append(applied)
            seen.yield(feed.model.version ?? -1)
        }
        var iterator = versions.makeAsyncIterator()
        let running = Task { await feed.run(view: .default) }
        await until(0, &iterator)
        let calls = [
            NewCall(id: "c-1", peer: .init(id: "bob"), direction: .incoming, timestamp: 1_764_460_800),
            NewCall(id: "c-2", peer: .init(id: "carol"), direction: .outgoing, timestamp: 1_764_560_800),
        ]
        try await client.postCalls(calls, to: "alice")
        await until(1, &iterator)
        try await client.reveal(row: "c-1", in: "alice", revealed: true)
        await until(2, &iterator)
        #expect(applied.items == (try await client.rows(of: "alice").rows.map(\.id)))
        #expect(applied.reconfigured == ["c-1"] && applied.animated)
        #expect(history.first?.animated == false)  // the initial load is not animated
        running.cancel()
        await running.value
    }
}
