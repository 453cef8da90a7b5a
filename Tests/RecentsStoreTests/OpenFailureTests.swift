import Foundation
import Testing

@testable import RecentsStore

/// Startup errors read as sentences naming the path and what is wrong with it.
@Suite struct OpenFailureTests {
    /// The sentence `SQLiteStore.open` fails with at `path`, or nil when it opened.
    func openingSentence(_ path: String) -> String? {
        do {
            let store = try SQLiteStore.open(StoreConfiguration(path: path))
            store.close()
            return nil
        } catch let error as StoreError {
            guard case .cannotOpen(let sentence) = error else { return "not cannotOpen: \(error)" }
            #expect(String(describing: error) == sentence)
            return sentence
        } catch {
            return "unexpected \(type(of: error)): \(error)"
        }
    }

    @Test func aMissingDirectorySaysSo() async throws {
        let relative = "./no-such-directory-\(UUID().uuidString)/recents.sqlite"
        #expect(openingSentence(relative) == "cannot create \(relative): directory does not exist")
        try await withTemporaryDirectory { directory in
            let path = directory + "/x/recents.sqlite"
            #expect(openingSentence(path) == "cannot create \(path): directory does not exist")
            // `recents migrate` opens the same way and says the same.
            #expect(throws: StoreError.cannotOpen("cannot create \(path): directory does not exist")) {
                try SQLiteStore.migrate(StoreConfiguration(path: path))
            }
        }
    }

    @Test func aPathThatIsADirectorySaysSo() async throws {
        try await withTemporaryDirectory { directory in
            #expect(openingSentence(directory) == "cannot open \(directory): it is a directory, not a database file")
        }
    }

    @Test func aParentThatIsAFileSaysSo() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory + "/plain"
            #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
            #expect(
                openingSentence(file + "/recents.sqlite")
                    == "cannot create \(file)/recents.sqlite: \(file) is not a directory")
        }
    }

    @Test func aDirectoryThatCannotBeWrittenSaysSo() {
        // Creating a file in /sys is refused even to root, unlike a chmod'ed directory.
        let path = "/sys/recents-\(UUID().uuidString).sqlite"
        #expect(openingSentence(path) == "cannot create \(path): permission denied")
    }

    @Test(.enabled(if: geteuid() != 0, "root may write a read-only file"))
    func aReadOnlyFileSaysSo() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/ro.sqlite"
            try SQLiteListStore.open(StoreConfiguration(path: path)).close()
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            #expect(openingSentence(path)?.hasPrefix("cannot open \(path): the file is read-only") == true)
        }
    }

    @Test func aFileThatIsNotADatabaseSaysSo() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/notes.txt"
            let text = String(repeating: "these are not the pages of a database\n", count: 200)
            #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
            #expect(openingSentence(path) == "cannot open \(path): the file is not a SQLite database")
        }
    }

    @Test func aCorruptDatabaseSaysSo() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/broken.sqlite"
            try SQLiteListStore.open(StoreConfiguration(path: path)).close()
            // Keep the 100-byte header (so it is still recognised as SQLite) and scramble the rest.
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            for index in 100..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 131 &+ 7) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(openingSentence(path) == "cannot open \(path): the database file is corrupt")
        }
    }
}
