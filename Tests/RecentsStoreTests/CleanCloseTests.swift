import Foundation
import Testing

@testable import RecentsStore

/// A closed SQLite store leaves its whole database in its one file, so an operator who stops
/// the service and copies `recents.sqlite` copies every acknowledged write.
@Suite struct CleanCloseTests {
    @Test func closingCheckpointsTheWALIntoTheFileAndDeletesIt() async throws {
        // Repeated because the close order mattered only when readers happened to end together.
        for round in 0..<20 {
            try await withTemporaryDirectory { directory in
                let path = directory + "/store.sqlite"
                let store = try SQLiteListStore.open(StoreConfiguration(path: path, readers: 4))
                for index in 0..<3 {
                    _ = try await store.write { try $0.insertCalls([makeCall("c\(round)-\(index)")], into: "alice") }
                }
                // Every reader opens the WAL, so each of them holds it when they all close.
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<16 { group.addTask { try await store.read { try $0.listInfo("alice").callCount } } }
                    for try await count in group { #expect(count == 3) }
                }
                store.close()
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
                #expect(leftovers == ["store.sqlite"], "round \(round)")

                // The file alone, without any -wal beside it, holds every write.
                let copy = directory + "/copy.sqlite"
                try FileManager.default.copyItem(atPath: path, toPath: copy)
                let reopened = try SQLiteListStore.open(StoreConfiguration(path: copy))
                defer { reopened.close() }
                let info = try await reopened.read { try $0.listInfo("alice") }
                #expect(info.callCount == 3 && info.version == 3, "round \(round)")
            }
        }
    }
}
