import Foundation
import RecentsTestSupport
import Synchronization
import Testing

/// The real `recents` binary, killed with SIGKILL while 32 clients write: every acknowledged
/// write must be there after a restart, and each list's versions must be gap-free.
/// SQLite only: PostgreSQL's kill -9 and immediate-restart cases run in scripts/check-two-instances.sh.
@Suite(.serialized) struct CrashSafetyTests {
    /// The built binary and a fresh directory named after `prefix`; the caller removes the directory.
    static func scratch(_ prefix: String) throws -> (binary: URL, directory: URL) {
        let binary = try #require(RecentsExecutable.url, "build the recents executable first")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (binary, directory)
    }

    /// A running server process and the port it announced.
    final class ServerProcess {
        let process = Process()
        let port: Int

        init(binary: URL, database: String) throws {
            process.executableURL = binary
            process.arguments = [
                "serve", "--port", "0", "--db", database, "--retain-versions", "1000000", "--log-level", "info",
            ]
            let stderr = Pipe()
            process.standardError = stderr
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // The server logs `msg=listening ... port=N` once bound; read until then (bounded).
            var seen = ""
            let deadline = Date().addingTimeInterval(20)
            var found: Int?
            while found == nil, Date() < deadline {
                let data = stderr.fileHandleForReading.availableData
                if data.isEmpty { break }
                seen += String(decoding: data, as: UTF8.self)
                if let range = seen.range(of: #"port=(\d+)"#, options: .regularExpression) {
                    found = Int(seen[range].dropFirst("port=".count))
                }
            }
            guard let found, found > 0 else {
                process.terminate()
                throw TestClientError(description: "server did not announce a port: \(seen)")
            }
            port = found
            // Keep draining stderr so the server never blocks on a full pipe.
            stderr.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
        }

        func kill9() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// Stops the server as an init system does; returns its exit status.
        func terminate() -> Int32 {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// DEPLOY.md's promise: a server stopped with SIGTERM leaves no `-wal`, and its file alone,
    /// copied elsewhere, holds every acknowledged write.
    @Test func aCleanStopLeavesEveryWriteInTheDatabaseFileAlone() throws {
        let (binary, directory) = try Self.scratch("recents-stop")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("stop.sqlite").path
        let server = try ServerProcess(binary: binary, database: database)
        let client = try TestHTTPClient(port: server.port)
        let ids = (0..<20).map { "s-\($0)" }
        for (n, id) in ids.enumerated() {
            let body = callJSON(id, peer: "p\(n % 3)", timestamp: 1_764_460_800 + n)
            #expect(try client.request("POST", "/v1/lists/stop-\(n % 2)/calls", body: body).status == 201)
        }
        // Reads from several clients at once, so every reader connection has the WAL open when
        // they all close together: the case that used to skip the checkpoint.
        let readers = DispatchGroup()
        let port = server.port
        for _ in 0..<8 {
            readers.enter()
            Thread.detachNewThread {
                defer { readers.leave() }
                guard let client = try? TestHTTPClient(port: port) else { return }
                for id in ids { _ = try? client.request("GET", "/v1/lists/stop-0/calls/\(id)") }
            }
        }
        #expect(readers.wait(timeout: .now() + 30) == .success)
        #expect(server.terminate() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["stop.sqlite"])

        let copy = directory.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: database, toPath: copy.appendingPathComponent("stop.sqlite").path)
        let restarted = try ServerProcess(binary: binary, database: copy.appendingPathComponent("stop.sqlite").path)
        defer { restarted.kill9() }
        let reader = try TestHTTPClient(port: restarted.port)
        for (n, id) in ids.enumerated() {
            #expect(try reader.request("GET", "/v1/lists/stop-\(n % 2)/calls/\(id)").status == 200, "\(id) lost")
        }
    }

    /// One acknowledged write.
    struct Ack: Hashable {
        var list: String
        var id: String
        var version: Int
    }

    /// Kills `server` with SIGKILL at a random moment once writes are flowing (`acknowledged()` has
    /// reached a random number in `targets`, or 10 s passed), then waits for its `writers` to
    /// return; the number it aimed for.
    static func killNineWhileWriting(
        _ server: ServerProcess, writers: DispatchGroup, targets: ClosedRange<Int>, acknowledged: () -> Int
    ) -> Int {
        let deadline = Date().addingTimeInterval(10)
        let target = Int.random(in: targets)
        while acknowledged() < target, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        Thread.sleep(forTimeInterval: Double.random(in: 0...0.2))
        server.kill9()
        #expect(writers.wait(timeout: .now() + 30) == .success)
        return target
    }

    /// Posts call `id` (the `n`th of its writer: a peer of three, a second apart) to `list`; its
    /// `Ack` once acknowledged (201 with a version), nil when the write failed.
    static func postCall(_ id: String, n: Int, to list: String, client: TestHTTPClient) -> Ack? {
        let body = callJSON(id, peer: "p\(n % 3)", timestamp: 1_764_460_800 + n)
        guard let response = try? client.request("POST", "/v1/lists/\(list)/calls", body: body),
            response.status == 201, let version = int(response.json["version"])
        else { return nil }
        return Ack(list: list, id: id, version: version)
    }

    /// Each acknowledged write in `acks` reads back (200) from the server `client` talks to;
    /// `lost(ack)` says what a missing one means.
    static func expectStored(
        _ acks: [Ack], by client: TestHTTPClient, _ lost: (Ack) -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for ack in acks {
            let response = try client.request("GET", "/v1/lists/\(ack.list)/calls/\(ack.id)")
            #expect(response.status == 200, Comment(rawValue: lost(ack)), sourceLocation: sourceLocation)
        }
    }

    @Test func acknowledgedWritesSurviveKillNine() throws {
        let (binary, directory) = try Self.scratch("recents-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("crash.sqlite").path
        var allAcks: [Ack] = []
        for round in 1...5 {
            let server = try ServerProcess(binary: binary, database: database)
            let acks = Mutex<[Ack]>([])
            let group = WriterThreads.start(32, port: server.port) { writer, client in
                for n in 0..<10_000 {
                    let id = "r\(round)-w\(writer)-n\(n)"
                    guard let ack = Self.postCall(id, n: n, to: "crash-\(writer % 4)", client: client) else { return }
                    acks.withLock { $0.append(ack) }
                }
            }
            let target = Self.killNineWhileWriting(server, writers: group, targets: 50...400) {
                acks.withLock { $0.count }
            }
            allAcks += acks.withLock { $0 }
            #expect(acks.withLock { $0.count } >= target, "round \(round) wrote too little before the kill")

            let restarted = try ServerProcess(binary: binary, database: database)
            defer { restarted.kill9() }
            let client = try TestHTTPClient(port: restarted.port)
            try Self.expectStored(allAcks, by: client) { "round \(round): acknowledged \($0.id) lost" }
            for list in Set(allAcks.map(\.list)) {
                let versions = allAcks.filter { $0.list == list }.map(\.version)
                #expect(Set(versions).count == versions.count, "two writes acknowledged with one version")
                let current = int(try client.request("GET", "/v1/lists/\(list)").json["version"]) ?? -1
                #expect(current >= versions.max() ?? 0)
                // Every version from 1 to current must be one the list had: a gap answers 410.
                for version in 1...max(current, 1) {
                    let response = try client.request("GET", "/v1/lists/\(list)/transitions?since=\(version)")
                    #expect(response.status == 200, "\(list): version \(version) of \(current) missing")
                }
            }
        }
    }
}
