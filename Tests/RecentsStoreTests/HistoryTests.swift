import Foundation
import RecentsCore
import RecentsTestSupport
import Testing

@testable import RecentsStore

/// One mutation of a random write request.
private enum Operation: Sendable {
    case insert([Call], String)
    case delete([String], String)
    case setState(ListState, String)
    case forget(String)
    case clear(String)
}

private struct Failure: Error {}

/// The replay model: what every list holds at every version.
private struct Model {
    struct List {
        var version: Int64 = 0
        var forgetFloor: Int64 = 0
        var live: [String: Call] = [:]
        var state = ListState()
        var history: [Int64: (calls: [String: Call], state: ListState)] = [0: ([:], ListState())]
    }

    var lists: [String: List] = [:]
    let retain: Int64

    func oldestRetained(_ list: List) -> Int64 { max(list.forgetFloor, list.version - retain) }

    /// The badge's definition, counted from scratch: live missed calls newer than the seen mark.
    static func unseenMissed(_ calls: [String: Call], _ state: ListState) -> Int {
        calls.values.count { $0.isMissed && $0.timestamp > state.seenThrough }
    }

    /// Applies one request; returns the new version of each changed list.
    mutating func apply(_ operations: [Operation]) -> [String: Int64] {
        var changed: [String: Int64] = [:]
        func touch(_ name: String, _ list: inout List) {
            if changed[name] == nil { changed[name] = list.version + 1 }
        }
        for operation in operations {
            switch operation {
            case .insert(let calls, let name):
                guard !calls.isEmpty else { continue }
                var list = lists[name] ?? List()
                touch(name, &list)
                for call in calls { list.live[call.id] = call }
                lists[name] = list
            case .delete(let ids, let name):
                var list = lists[name] ?? List()
                guard ids.contains(where: { list.live[$0] != nil }) else { continue }
                touch(name, &list)
                for id in ids { list.live[id] = nil }
                lists[name] = list
            case .setState(let state, let name):
                var list = lists[name] ?? List()
                guard list.state != state else { continue }
                touch(name, &list)
                list.state = state
                lists[name] = list
            case .clear(let name):
                // The naive clear: every live call deleted at the new version.
                var list = lists[name] ?? List()
                guard !list.live.isEmpty else { continue }
                touch(name, &list)
                list.live = [:]
                lists[name] = list
            case .forget(let name):
                var list = lists[name] ?? List()
                let current = changed[name] ?? list.version
                let oldest = max(list.forgetFloor, current - retain)
                if list.live.isEmpty && list.state == ListState() && oldest == current { continue }
                touch(name, &list)
                list.live = [:]
                list.state = ListState()
                list.forgetFloor = changed[name] ?? 0
                lists[name] = list
            }
        }
        for (name, version) in changed {
            guard var list = lists[name] else { continue }
            list.version = version
            list.history[version] = (list.live, list.state)
            list.history = list.history.filter { $0.key >= list.forgetFloor }
            lists[name] = list
        }
        return changed
    }
}

/// What `verify` reads of one list: info, per-version calls, state and stored badge, retention,
/// consistency.
private typealias Observation = (
    ListInfo, [Int64: (all: [Call], missed: [Call], state: ListState?, unseenMissed: Int)], [Int64: Bool], Bool
)

@Suite struct HistoryTests {
    static let listNames = ["alice", "bob", "carol.x", "dave_1"]

    @Test(arguments: Backend.available) func pruningRemovesExactlyWhatNoRetainedVersionNeeds(backend: Backend)
        async throws
    {
        try await withStore(backend, retainVersions: 3) { store in
            _ = try await store.write { try $0.insertCalls((0..<6).map { makeCall("c\($0)") }, into: "alice") }
            for index in 0..<6 {  // versions 2...7 each delete one call
                _ = try await store.write { try $0.deleteCalls(ids: ["c\(index)"], from: "alice") }
            }
            try await store.pruneNow()
            // Horizon 7 - 3 = 4: calls deleted at versions 2...4 are gone. State rows are written
            // only when the state changes: version 0's row still holds the state of 4...7, so it stays.
            #expect(try await queryInts(store, "SELECT count(*) FROM calls") == [3])
            #expect(try await queryInts(store, "SELECT version FROM list_versions") == [0])
            #expect(store.metrics.prunedRows == 3)
            let counts = try await store.read { t in try (4...7).map { Array(try t.calls(in: "alice", at: $0)).count } }
            #expect(counts == [3, 2, 1, 0])
        }
    }

    @Test(arguments: Backend.available) func randomHistoriesMatchAReplayModelAtEveryRetainedVersion(backend: Backend)
        async throws
    {
        let seed = testSeed("HistoryTests")
        var random = SplitMix64(seed: seed)
        let retain = 20
        try await withStore(backend, retainVersions: retain) { store in
            var model = Model(retain: Int64(retain))
            let idAlphabet = Array("aAbB019_-.:")
            for step in 1...600 {
                // Build a request of 1...4 operations over one or two lists.
                var operations: [Operation] = []
                var pendingLive: [String: Set<String>] = [:]
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let name = Self.listNames.randomElement(using: &random) ?? "alice"
                    var live = pendingLive[name] ?? Set(model.lists[name]?.live.keys.map { $0 } ?? [])
                    switch Int.random(in: 0..<100, using: &random) {
                    case 0..<45:
                        var calls: [Call] = []
                        for _ in 0..<Int.random(in: 0...3, using: &random) {
                            let id = String(
                                (0..<Int.random(in: 1...3, using: &random)).map { _ in
                                    idAlphabet.randomElement(using: &random) ?? "a"
                                })
                            guard !live.contains(id) else { continue }
                            live.insert(id)
                            calls.append(
                                makeCall(
                                    id, timestamp: Int64.random(in: 0..<8, using: &random),
                                    missed: Bool.random(using: &random)))
                        }
                        operations.append(.insert(calls, name))
                    case 45..<75:
                        var ids = live.sorted().shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random))
                            .map { $0 }
                        if Bool.random(using: &random) { ids.append("absent") }
                        for id in ids { live.remove(id) }
                        operations.append(.delete(ids, name))
                    case 93..<98:
                        live = []
                        operations.append(.clear(name))
                    case 75..<93:
                        // The seen mark among the calls' timestamps (0..<8): forward, back, or kept.
                        let state = ListState(
                            editing: Bool.random(using: &random),
                            revealedRowId: Bool.random(using: &random)
                                ? nil : live.sorted().randomElement(using: &random),
                            seenThrough: Int64.random(in: 0...8, using: &random))
                        operations.append(.setState(state, name))
                    default:
                        live = []
                        operations.append(.forget(name))
                    }
                    pendingLive[name] = live
                }
                let shouldThrow = Int.random(in: 0..<10, using: &random) == 0
                let request = operations
                let result: Result<WriteOutcome<Int>, Error>
                do {
                    result = .success(
                        try await store.write { transaction in
                            for operation in request {
                                switch operation {
                                case .insert(let calls, let list): try transaction.insertCalls(calls, into: list)
                                case .delete(let ids, let list): _ = try transaction.deleteCalls(ids: ids, from: list)
                                case .setState(let state, let list): try transaction.setState(state, of: list)
                                case .forget(let list): try transaction.forgetList(list)
                                case .clear(let list): try transaction.clearCalls(of: list)
                                }
                            }
                            if shouldThrow { throw Failure() }
                            return 0
                        })
                } catch {
                    result = .failure(error)
                }
                if shouldThrow {
                    #expect(throws: Failure.self) { try result.get() }
                } else {
                    let expected = model.apply(operations)
                    #expect(try result.get().versions == expected, "step \(step), seed \(seed)")
                }
                if step % 25 == 0 {
                    try await verify(store, model, seed: seed)
                }
                if step % 60 == 0 {
                    try await store.pruneNow()
                    try await verify(store, model, seed: seed)
                }
            }
            try await store.pruneNow()
            try await verifyPhysicallyPruned(store, model)
            try await verify(store, model, seed: seed)
        }
    }

    private func verify(_ store: any ListStore, _ model: Model, seed: UInt64) async throws {
        for name in Self.listNames + ["never-written"] {
            let list = model.lists[name] ?? Model.List()
            let oldest = model.oldestRetained(list)
            let observed = try await store.read { transaction -> Observation in
                let info = try transaction.listInfo(name)
                var versions: [Int64: (all: [Call], missed: [Call], state: ListState?, unseenMissed: Int)] = [:]
                var retained: [Int64: Bool] = [:]
                for version in 0...(info.version + 2) {
                    retained[version] = try transaction.isRetained(version, in: name)
                    guard retained[version] == true else {
                        if try transaction.state(of: name, at: version) != nil { return (info, [:], [:], false) }
                        continue
                    }
                    versions[version] = (
                        Array(try transaction.calls(in: name, at: version, filter: .all)),
                        Array(try transaction.calls(in: name, at: version, filter: .missed)),
                        try transaction.state(of: name, at: version),
                        try transaction.unseenMissed(in: name, at: version)
                    )
                }
                return (info, versions, retained, true)
            }
            let (info, versions, retained, consistent) = observed
            #expect(consistent, "state answered for an unretained version of \(name), seed \(seed)")
            #expect(info.version == list.version, "\(name) version, seed \(seed)")
            #expect(info.oldestRetainedVersion == oldest, "\(name) oldest, seed \(seed)")
            #expect(info.state == list.state && info.callCount == list.live.count, "\(name) info, seed \(seed)")
            #expect(info.exists == (model.lists[name] != nil))
            for version in 0...(list.version + 2) {
                let shouldBeRetained = version >= oldest && version <= list.version
                #expect(retained[version] == shouldBeRetained, "\(name)@\(version) retention, seed \(seed)")
                guard shouldBeRetained, let expected = list.history[version], let got = versions[version] else {
                    #expect(!shouldBeRetained, "\(name)@\(version) missing from the model, seed \(seed)")
                    continue
                }
                let all = expected.calls.values.sorted(by: viewOrder)
                #expect(got.all == all, "\(name)@\(version) calls, seed \(seed)")
                #expect(got.missed == all.filter(\.isMissed), "\(name)@\(version) missed calls, seed \(seed)")
                #expect(got.state == expected.state, "\(name)@\(version) state, seed \(seed)")
                // The stored badge against the model and against the walk the reads used to do.
                #expect(
                    got.unseenMissed == Model.unseenMissed(expected.calls, expected.state),
                    "\(name)@\(version) unseenMissed, seed \(seed)")
                #expect(
                    got.unseenMissed
                        == UnseenMissed.count(missedCalls: got.missed, seenThrough: got.state?.seenThrough ?? 0),
                    "\(name)@\(version) unseenMissed against the walk, seed \(seed)")
            }
        }
        // Every version of a store made after the count was stored reads a stored count (the walk
        // is only for rows written before the migration): a fallback must not hide a wrong count.
        #expect(try await queryInts(store, "SELECT count(*) FROM list_versions WHERE unseen_missed IS NULL") == [0])
    }

    /// After pruning, no row older than its list's retention horizon is left.
    private func verifyPhysicallyPruned(_ store: any ListStore, _ model: Model) async throws {
        let stale = try await queryInts(
            store,
            """
            SELECT (SELECT count(*) FROM calls c WHERE c.list_id = l.id
                        AND c.deleted_version <= \(greatest(store))(l.forgotten_below, l.version - \(model.retain)))
                 + (SELECT count(*) FROM list_versions v WHERE v.list_id = l.id
                        AND v.version < (SELECT max(w.version) FROM list_versions w WHERE w.list_id = l.id
                            AND w.version <= \(greatest(store))(l.forgotten_below, l.version - \(model.retain))))
            FROM lists l
            """)
        #expect(stale.allSatisfy { $0 == 0 }, "state rows below the horizon's own survived pruning: \(stale)")
        // Each list keeps exactly one state row at or below its horizon: the one the oldest
        // retained version reads (the states themselves are checked version by version by `verify`).
        let floors = try await queryInts(
            store,
            """
            SELECT (SELECT count(*) FROM list_versions v WHERE v.list_id = l.id
                        AND v.version <= \(greatest(store))(l.forgotten_below, l.version - \(model.retain)))
            FROM lists l
            """)
        #expect(floors.allSatisfy { $0 == 1 }, "\(floors)")
        // Every clear's calls are marked deleted (and those at or below the horizon gone).
        #expect(try await queryInts(store, "SELECT count(*) FROM list_clears") == [0])
        #expect(try await queryInts(store, "SELECT count(*) FROM lists WHERE cleared_below <> 0") == [0])
        print(
            "HistoryTests: pruned \(store.metrics.prunedRows) rows; versions \(model.lists.mapValues(\.version)), floors \(model.lists.mapValues(\.forgetFloor))"
        )
    }
}
