import RecentsCore
import Testing

@testable import RecentsStore

/// Writes made at once by many tasks, and the rule they must keep: each list's acknowledged
/// versions are exactly 1…n, none given twice and none skipped, whoever wrote them.
enum ConcurrentWrites {
    /// Runs `tasks` tasks at once, each making `perTask` writes with `write(task, index)`, which
    /// returns the (list, version) pairs its write was acknowledged with; all of them.
    static func run(
        tasks: Int, perTask: Int,
        _ write: @escaping @Sendable (_ task: Int, _ index: Int) async throws -> [(String, Int64)]
    ) async throws -> [(String, Int64)] {
        try await withThrowingTaskGroup(of: [(String, Int64)].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var mine: [(String, Int64)] = []
                    for index in 0..<perTask { mine += try await write(task, index) }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// Each of `lists` was acknowledged versions 1…n with none repeated or skipped, and `store`
    /// holds n versions and n calls of it.
    static func expectEveryVersionOnce(
        _ acknowledged: [(String, Int64)], lists: [String], in store: PGListStore,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for list in lists {
            let versions = acknowledged.filter { $0.0 == list }.map(\.1).sorted()
            #expect(
                versions == Array(1...Int64(versions.count)), "\(list): a version repeated or skipped",
                sourceLocation: sourceLocation)
            let info = try await store.read { try $0.listInfo(list) }
            #expect(info.version == Int64(versions.count), sourceLocation: sourceLocation)
            #expect(info.callCount == versions.count, sourceLocation: sourceLocation)
        }
    }
}
