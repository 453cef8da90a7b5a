import Foundation
import RecentsClient
import RecentsCore
import Testing

/// One phone in a property test: an optimistic screen of one list, its offline queue in a file,
/// a link that can be cut or lose answers, and app restarts; every step is chosen by a seeded
/// generator, and every batch update it shows is checked against the screen it came from.
struct OptimisticDevice {
    let list: String
    let client: RecentsClient
    let link: FlakyTransport
    /// Reads and the other device's writes go around the flaky link.
    let reader: RecentsClient
    let scratch: ScratchDirectory
    var queue: ActionQueue
    var model: OptimisticListModel
    var otherDevice: RandomHistory
    var generator: SplitMix64
    var offline = false
    var log: [String] = []
    var updates = 0
    var notices = 0
    var landed: [String] = []

    init(server: LiveServer, list: String, seed: UInt64) throws {
        self.list = list
        (client, link) = server.flakyClient()
        reader = server.client()
        scratch = try ScratchDirectory()
        queue = try ActionQueue(client: client, store: scratch.store)
        model = OptimisticListModel(list: list)
        otherDevice = RandomHistory(client: reader, list: list, seed: seed ^ 0x5EED)
        generator = SplitMix64(seed: seed)
    }

    func context(_ seed: UInt64) -> String { "seed \(seed) list \(list) after \(log.suffix(12))" }

    /// One random step.
    mutating func step() async throws {
        // The link goes down now and then and comes back after about six steps.
        if offline && Int.random(in: 0..<6, using: &generator) == 0 {
            offline = false
            log.append("link up")
        }
        let pick = Int.random(in: 0..<100, using: &generator)
        switch pick {
        case 0..<25: try await act()
        case 25..<52: try await send()
        case 52..<70: log.append("other: " + (try await otherDevice.step()))
        case 70..<88: try await follow()
        case 88..<93:
            offline = true
            log.append("link down")
        default: try await restart()
        }
    }

    /// An own action on what the screen shows, queued.
    mutating func act() async throws {
        let rows = model.rows
        let row = rows.randomElement(using: &generator)
        let pick = Int.random(in: 0..<100, using: &generator)
        let intent: ListIntent
        switch (pick, row) {
        case (0..<20, _),
            (_, nil) where pick < 95:
            intent = .setEditing(Bool.random(using: &generator))
        case (20..<45, let row?):
            // Sometimes a call inside the row: the server opens it by call id, as the client does.
            let id = row.callIds.randomElement(using: &generator) ?? row.id
            intent = .reveal(rowId: id, revealed: Int.random(in: 0..<3, using: &generator) > 0)
        case (45..<70, let row?):
            let gesture = Gesture(
                initialOffset: row.revealed ? -74 : 0, offset: -Double.random(in: -20...200, using: &generator),
                velocity: Double.random(in: -500...500, using: &generator))
            intent = .release(rowId: row.id, gesture: gesture)
        case (70..<95, let row?):
            intent = .deleteRow(rowId: row.id, scope: Bool.random(using: &generator) ? .me : .everyone)
        default:
            intent = .clear(scope: Bool.random(using: &generator) ? .me : .everyone)
        }
        let before = model.rows
        let performed = model.perform(intent)
        log.append("act \(intent)")
        check(performed.update, from: before)
        try await queue.enqueue(performed.action)
    }

    /// The queue's head sent once over the link as it is now (down, losing the answer, or up).
    mutating func send() async throws {
        link.mode = offline ? .offline : Int.random(in: 0..<4, using: &generator) == 0 ? .dropReply : .online
        let result = await queue.sendNext()
        log.append("send \(link.mode == .online ? "" : "(\(link.mode)) ")→ \(result)")
        if case .answered(let outcome) = result { deliver(outcome) }
    }

    /// The queue's outcome, fed to the screen.
    mutating func deliver(_ outcome: ActionOutcome) {
        if case .landed(let action, _, _) = outcome { landed.append(action.id) }
        let before = model.rows
        let reconciliation = model.handle(outcome)
        notices += reconciliation.notices.count
        check(reconciliation.update, from: before)
    }

    /// One transition from the server's view to now, sometimes into another view (nothing while offline).
    mutating func follow() async throws {
        guard !offline else { return }
        let view = Int.random(in: 0..<8, using: &generator) == 0 ? otherDevice.randomView() : model.view
        let server = model.server
        let (reader, list) = (self.reader, self.list)
        var event = try await resyncOrEvent { () async throws(RecentsClientError) -> TransitionEvent in
            try await reader.transition(
                of: list, since: server.version, epoch: server.epoch, view: view, fromView: server.view)
        }
        if event == nil { event = try await reader.transition(of: list, view: view) }
        guard let event else { return }
        log.append("follow v\(server.version ?? -1) → v\(event.to) \(view == server.view ? "" : "\(view)")")
        let before = model.rows
        let reconciliation = try model.apply(event)
        notices += reconciliation.notices.count
        check(reconciliation.update, from: before)
    }

    /// The app is killed and started again: the queue comes back from its file, the screen from nothing.
    mutating func restart() async throws {
        log.append("restart")
        queue = try ActionQueue(client: client, store: scratch.store)
        var fresh = OptimisticListModel(list: list, view: model.view)
        check(fresh.restore(await queue.waiting), from: [], model: fresh)
        model = fresh
        try await follow()
    }

    /// The link returns for good: everything waiting is sent, the screen catches up.
    mutating func settle() async throws {
        offline = false
        link.mode = .online
        let (outcomes, stalled) = await queue.flush()
        #expect(stalled == nil, "\(log.suffix(5))")
        for outcome in outcomes { deliver(outcome) }
        try await follow()
    }

    /// Checks that `update` passes UIKit's rules and takes the screen from `before` to the model's rows:
    /// the rows kept keep their order, and every kept row whose content changed is reloaded.
    mutating func check(_ update: BatchUpdate, from before: [Row], model: OptimisticListModel? = nil) {
        updates += 1
        let after = (model ?? self.model).rows
        let where_ = log.suffix(6).joined(separator: " | ")
        #expect(
            BatchUpdateValidator.violations(of: update).isEmpty,
            "\(BatchUpdateValidator.violations(of: update)): \(where_)")
        #expect(update.numberOfRowsBefore == before.count, "\(where_)")
        #expect(update.itemIdentifiers == after.map(\.id), "\(where_)")
        let deleted = Set(update.deletions)
        let inserted = Set(update.insertions)
        let kept = before.indices.filter { !deleted.contains($0) }
        let arrived = after.indices.filter { !inserted.contains($0) }
        #expect(kept.map { before[$0].id } == arrived.map { after[$0].id }, "kept rows: \(where_)")
        guard kept.count == arrived.count else { return }
        let reloaded = Set(update.reloads)
        for (old, new) in zip(kept, arrived) where before[old] != after[new] {
            #expect(reloaded.contains(old), "row \(before[old].id) changed but is not reloaded: \(where_)")
        }
    }
}
