import Foundation
import RecentsTestSupport
import Synchronization
import Testing

/// `recents backup` against the real binary while a real server takes concurrent writes.
/// SQLite only: `recents backup` copies a SQLite file; PostgreSQL is backed up with its own tools.
@Suite(.serialized) struct BackupTests {
    @Test func aBackupTakenDuringWritesHoldsEveryWriteAcknowledgedBeforeItStarted() throws {
        let (binary, directory) = try CrashSafetyTests.scratch("recents-backup")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("live.sqlite").path
        let copy = directory.appendingPathComponent("copy.sqlite").path

        let server = try CrashSafetyTests.ServerProcess(binary: binary, database: database)
        let acks = Mutex<[CrashSafetyTests.Ack]>([])
        let stop = Atomic(false)
        let group = WriterThreads.start(8, port: server.port) { writer, client in
            var n = 0
            while !stop.load(ordering: .relaxed) {
                let id = "w\(writer)-n\(n)"
                guard let ack = CrashSafetyTests.postCall(id, n: n, to: "backup-\(writer % 2)", client: client)
                else { return }
                acks.withLock { $0.append(ack) }
                n += 1
            }
        }
        let deadline = Date().addingTimeInterval(20)
        while acks.withLock({ $0.count }) < 300, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        // Everything acknowledged by now must be in the copy; writes go on while it is taken.
        let before = acks.withLock { $0 }
        let backup = Process()
        backup.executableURL = binary
        backup.arguments = ["backup", "--db", database, "--to", copy]
        let output = Pipe()
        backup.standardOutput = output
        backup.standardError = output
        try backup.run()
        backup.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let duringBackup = acks.withLock { $0.count } - before.count
        stop.store(true, ordering: .relaxed)
        #expect(group.wait(timeout: .now() + 30) == .success)
        print("backup under load: \(before.count) writes acknowledged before it, \(duringBackup) while it ran")
        server.kill9()
        #expect(backup.terminationStatus == 0, "\(printed)")
        #expect(before.count >= 300, "the writers wrote too little")

        let restored = try CrashSafetyTests.ServerProcess(binary: binary, database: copy)
        defer { restored.kill9() }
        let client = try TestHTTPClient(port: restored.port)
        try CrashSafetyTests.expectStored(before, by: client) {
            "acknowledged \($0.id) (version \($0.version)) missing from the backup"
        }
        for list in Set(before.map(\.list)) {
            let newest = before.filter { $0.list == list }.map(\.version).max() ?? 0
            let current = int(try client.request("GET", "/v1/lists/\(list)").json["version"]) ?? -1
            #expect(current >= newest)
            // The copy is one snapshot: every version up to its current one is there.
            #expect(try client.request("GET", "/v1/lists/\(list)/transitions?since=1").status == 200)
        }
    }

    /// Issue 39: backup, write, restore, serve. The restored history went back, so it answers under
    /// a new epoch: a client at a lost version is told to reload (410) instead of being told that
    /// nothing changed, and its old ETag no longer matches. Each restore of the same backup file
    /// gets an epoch of its own, so versions written again are never under an epoch seen before.
    @Test func aRestoredBackupAnswersUnderANewEpochEveryTimeItIsRestored() throws {
        let (binary, directory) = try CrashSafetyTests.scratch("recents-restore")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let post = { (client: TestHTTPClient, id: String) throws -> (version: Int?, epoch: String?) in
            let reply = try client.request("POST", "/v1/lists/l/calls", body: callJSON(id, timestamp: 1_764_460_800))
            return (int(reply.json["version"]), reply.json["epoch"] as? String)
        }

        let live = try CrashSafetyTests.ServerProcess(binary: binary, database: path("live.sqlite"))
        var client = try TestHTTPClient(port: live.port)
        #expect(try post(client, "a").version == 1)
        let backup = try Process.run(
            binary, arguments: ["backup", "--db", path("live.sqlite"), "--to", path("b.sqlite")])
        backup.waitUntilExit()
        #expect(backup.terminationStatus == 0)
        let (version, epoch) = try post(client, "b")
        #expect(version == 2)
        let rows = try client.request("GET", "/v1/lists/l/rows")
        let etag = try #require(rows.header("ETag"))
        #expect(live.terminate() == 0)

        var seen = [try #require(epoch)]
        for restore in ["r1.sqlite", "r2.sqlite"] {
            // The README's and DEPLOY.md's restore: a copy of the backup file, served.
            try FileManager.default.copyItem(atPath: path("b.sqlite"), toPath: path(restore))
            let restored = try CrashSafetyTests.ServerProcess(binary: binary, database: path(restore))
            defer { restored.kill9() }
            client = try TestHTTPClient(port: restored.port)
            let written = try post(client, "c")
            #expect(written.version == 2, "the restore took version 2 back; it is written again")
            let renewed = try #require(written.epoch)
            #expect(!seen.contains(renewed), "\(restore): epoch \(renewed) was used before: \(seen)")
            seen.append(renewed)
            let stale = try client.request("GET", "/v1/lists/l/transitions?since=2&epoch=\(seen[0])")
            #expect(stale.status == 410 && stale.json["type"] as? String == "resync-required")
            let resumed = try client.request("GET", "/v1/lists/l/events", headers: [("Last-Event-ID", "\(seen[0]).2")])
            #expect(resumed.status == 410, "an EventSource resuming from the lost version reloads")
            let conditional = try client.request("GET", "/v1/lists/l/rows", headers: [("If-None-Match", etag)])
            #expect(conditional.status == 200 && conditional.header("ETag") != etag)
        }
        // The mark went with the first open: serving a restored file again keeps its epoch.
        let again = try CrashSafetyTests.ServerProcess(binary: binary, database: path("r1.sqlite"))
        defer { again.kill9() }
        let reread = try TestHTTPClient(port: again.port).request("GET", "/v1/lists/l")
        #expect(reread.json["epoch"] as? String == seen[1] && int(reread.json["version"]) == 2)
    }
}

extension Process {
    /// Starts `executable` with `arguments`, its output discarded.
    fileprivate static func run(_ executable: URL, arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
