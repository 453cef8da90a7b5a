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
}
