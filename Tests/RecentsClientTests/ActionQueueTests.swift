import Foundation
import RecentsClient
import RecentsCore
import Testing

/// A temporary directory for one test's action file, removed when the value goes.
final class ScratchDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("recents-actions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// An action store in the directory.
    var store: FileActionStore { FileActionStore(url: url.appendingPathComponent("actions.json")) }
}

/// Four calls from different peers, newest last, so each is a row of its own: c-4 c-3 c-2 c-1.
func seedFourRows(_ client: RecentsClient, list: String) async throws {
    let calls = (1...4).map { index in
        NewCall(
            id: "c-\(index)", peer: .init(id: ["bob", "carol", "dave", "erin"][index - 1]), direction: .incoming,
            timestamp: 1_764_460_800 + Int64(index * 1000))
    }
    try await client.postCalls(calls, to: list)
}

extension LiveServer {
    /// Two devices of alice's on this server: `other`, a plain client that has posted her four rows
    /// (`seedFourRows`), and `client`, this device, whose requests go through the flaky `link`.
    func twoDevicesOnFourRows() async throws -> (other: RecentsClient, client: RecentsClient, link: FlakyTransport) {
        let other = client()
        let (client, link) = flakyClient()
        try await seedFourRows(other, list: "alice")
        return (other, client, link)
    }
}

/// A model of alice's list brought to the server's current version by its `initial` transition.
func caughtUpModel(_ client: RecentsClient) async throws -> OptimisticListModel {
    var model = OptimisticListModel(list: "alice")
    _ = try await catchUp(&model, client)
    return model
}

/// The model brought to the server's current version by one transition (an `initial` one when it shows nothing).
func catchUp(_ model: inout OptimisticListModel, _ client: RecentsClient) async throws -> Reconciliation {
    let event = try await client.transition(
        of: model.list, since: model.server.version, epoch: model.server.epoch, view: model.view)
    return try model.apply(event)
}

@Suite("ActionQueue and FileActionStore", .timeLimit(.minutes(1)))
struct ActionQueueTests {
    @Test func actionsTakenOfflineSurviveARestartAndLandOnceWhenTheLinkReturns() async throws {
        let server = try LiveServer()
        let (other, client, link) = try await server.twoDevicesOnFourRows()
        let scratch = try ScratchDirectory()
        var model = try await caughtUpModel(client)
        let queue = try ActionQueue(client: client, store: scratch.store)
        var counts = await queue.counts().makeAsyncIterator()
        #expect(await counts.next() == 0)

        // Offline: a delete, a reveal and a reveal of a row another device is about to delete.
        link.mode = .offline
        var taken: [ListAction] = []
        for intent in [
            ListIntent.deleteRow(rowId: "c-4", scope: .me), .reveal(rowId: "c-2", revealed: true),
            .reveal(rowId: "c-1", revealed: true),
        ] {
            let performed = model.perform(intent)
            #expect(BatchUpdateValidator.violations(of: performed.update).isEmpty)
            try await queue.enqueue(performed.action)
            taken.append(performed.action)
            #expect(await counts.next() == taken.count)
        }
        #expect(model.rowIds == ["c-3", "c-2", "c-1"] && model.revealedRowId == "c-1")
        guard case .stalled(let error) = await queue.sendNext() else {
            Issue.record("an offline send did not stall")
            return
        }
        let waiting = await queue.waitingCount
        #expect(error.isTransient && waiting == 3)

        // The app restarts: the actions come back from the file and show with the first load.
        let restarted = try ActionQueue(client: client, store: scratch.store)
        #expect(await restarted.waiting == taken)
        var reopened = OptimisticListModel(list: "alice")
        _ = reopened.restore(await restarted.waiting)
        link.mode = .online
        let first = try await catchUp(&reopened, client)
        #expect(first.update.isFullReload && reopened.rowIds == ["c-3", "c-2", "c-1"])
        #expect(reopened.revealedRowId == "c-1")

        // Another device deletes c-1; then the link returns and the queue drains in order.
        try await other.deleteCall("c-1", from: "alice")
        let (outcomes, stalled) = await restarted.flush()
        let left = await restarted.waitingCount
        #expect(stalled == nil && left == 0)
        #expect(outcomes.map(\.action) == taken)
        for outcome in outcomes {
            let reconciliation = reopened.handle(outcome)
            #expect(reconciliation.notices.isEmpty, "a row gone is dropped quietly")
            #expect(BatchUpdateValidator.violations(of: reconciliation.update).isEmpty)
        }
        guard case .refused(_, let problem) = outcomes.last, problem.status == 404 else {
            Issue.record("the reveal of a deleted row was not refused with 404: \(String(describing: outcomes.last))")
            return
        }
        _ = try await catchUp(&reopened, client)
        #expect(reopened.pending.isEmpty)
        let page = try await other.rows(of: "alice")
        #expect(reopened.rows == page.rows && reopened.revealedRowId == page.revealedRowId)
        #expect(page.rows.map(\.id) == ["c-3", "c-2"] && page.revealedRowId == "c-2")
        for action in taken.prefix(2) { #expect(link.writes(under: action.id) == 1) }
        #expect(try scratch.store.load().isEmpty)
    }

    @Test func aLostAnswerIsResentUnderTheSameKeyAndLandsOnce() async throws {
        let server = try LiveServer()
        let (other, client, link) = try await server.twoDevicesOnFourRows()
        var model = try await caughtUpModel(client)
        let queue = try ActionQueue(client: client)
        let action = model.perform(.clear(scope: .me)).action
        try await queue.enqueue(action)

        link.mode = .dropReply
        guard case .stalled = await queue.sendNext() else {
            Issue.record("a lost answer did not stall")
            return
        }
        let waiting = await queue.waitingCount
        #expect(link.writes(under: action.id) == 1 && waiting == 1)
        let written = try await other.list("alice").version
        // A call arrives before the resend: a second clear would delete it; a replay does not.
        try await other.postCalls(
            [NewCall(id: "c-9", peer: .init(id: "bob"), direction: .outgoing, timestamp: 1_764_470_000)], to: "alice")
        guard case .answered(.landed(_, let version, _)) = await queue.sendNext() else {
            Issue.record("the resend did not land")
            return
        }
        #expect(version == written && link.writes(under: action.id) == 1)
        #expect(link.keysSent == [action.id, action.id])
        _ = model.handle(.landed(action, version: version, epoch: model.server.epoch ?? ""))
        _ = try await catchUp(&model, client)
        #expect(model.pending.isEmpty && model.rowIds == ["c-9"])
    }

    @Test func anotherDevicesLaterChangeRollsTheScreenBackWithANotice() async throws {
        let server = try LiveServer()
        let (other, client, _) = try await server.twoDevicesOnFourRows()
        var model = try await caughtUpModel(client)
        let queue = try ActionQueue(client: client)
        let performed = model.perform(.reveal(rowId: "c-2", revealed: true))
        try await queue.enqueue(performed.action)
        let (outcomes, _) = await queue.flush()
        #expect(outcomes.count == 1)
        for outcome in outcomes { #expect(model.handle(outcome).notices.isEmpty) }
        #expect(model.revealedRowId == "c-2" && model.pending.count == 1)
        try await other.reveal(row: "c-3", in: "alice", revealed: true)
        let arrived = try await catchUp(&model, client)
        #expect(BatchUpdateValidator.violations(of: arrived.update).isEmpty)
        #expect(arrived.update.reconfiguredIdentifiers.sorted() == ["c-2", "c-3"])
        #expect(arrived.notices == [ActionNotice(action: performed.action, reason: .overridden)])
        #expect(model.pending.isEmpty && model.revealedRowId == "c-3")
    }

    @Test func runSendsAtOnceAndRetriesWhenTheLinkReturns() async throws {
        let server = try LiveServer()
        let (other, client, link) = try await server.twoDevicesOnFourRows()
        let queue = try ActionQueue(client: client)
        let (outcomes, delivered) = AsyncStream.makeStream(of: ActionOutcome.self)
        // A backoff far beyond the time limit: only `linkReturned` can make the retry happen in time.
        let running = Task {
            await queue.run(options: FollowOptions(initialBackoff: 600, maximumBackoff: 600)) { delivered.yield($0) }
        }
        var next = outcomes.makeAsyncIterator()
        var refusals = link.refusals.makeAsyncIterator()
        let edit = ListAction(id: "k-edit", list: "alice", intent: .setEditing(true), view: .default)
        try await queue.enqueue(edit)
        #expect(await next.next()?.action == edit)

        link.mode = .offline
        let reveal = ListAction(
            id: "k-reveal", list: "alice", intent: .reveal(rowId: "c-3", revealed: true), view: .default)
        try await queue.enqueue(reveal)
        #expect(await refusals.next() == reveal.id)
        link.mode = .online
        await queue.linkReturned()
        guard case .landed(let action, _, _) = await next.next() else {
            Issue.record("the reveal did not land")
            return
        }
        let left = await queue.waitingCount
        #expect(action == reveal && left == 0)
        #expect(try await other.list("alice").revealedRowId == "c-3")
        running.cancel()
        await running.value
    }

    @Test func theFileStoreKeepsActionsInOrderAndReplacesItsFileWhole() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.store
        #expect(try store.load().isEmpty)
        let actions = [
            ListAction(
                id: "k1", list: "alice",
                intent: .release(rowId: "c-1", gesture: Gesture(initialOffset: 0, offset: -60, velocity: -30)),
                view: .default, outcome: .open),
            ListAction(
                id: "k2", list: "alice", intent: .deleteRow(rowId: "c-2", scope: .everyone),
                view: ViewParameters(filter: .missed, limit: 10, tz: 60), callIds: ["c-2", "c-0"]),
            ListAction(id: "k3", list: "bob", intent: .clear(scope: .me), view: .default),
            ListAction(id: "k4", list: "bob", intent: .setEditing(false), view: .default),
        ]
        try store.save(actions)
        #expect(try store.load() == actions)
        try store.save(Array(actions.dropFirst()))
        #expect(try store.load() == Array(actions.dropFirst()))
        // The atomic write leaves no temporary file behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["actions.json"])
        let text = try String(contentsOf: store.url, encoding: .utf8)
        #expect(text.hasPrefix(#"{"actions":["#) && text.contains(#""format":1"#))
    }

    @Test func aTornFileIsAnErrorNotAnEmptyQueue() throws {
        let scratch = try ScratchDirectory()
        try Data("{\"actions\":[{\"id\":".utf8).write(to: scratch.store.url)
        #expect(throws: (any Error).self) {
            _ = try ActionQueue(client: LiveServer.offlineClient, store: scratch.store)
        }
    }
}

extension LiveServer {
    /// A client of no server, for tests that never send.
    static var offlineClient: RecentsClient {
        RecentsClient(
            baseURL: URL(string: "http://127.0.0.1:9")!,
            transport: CannedTransport { _ in TransportResponse(status: 503) })
    }
}
