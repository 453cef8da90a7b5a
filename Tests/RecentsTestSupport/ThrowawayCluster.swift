import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL cluster of one test's own (scripts/postgres-cluster.sh in a temporary directory),
/// which the test stops and starts again: an outage as a server sees it, without taking the
/// shared test server (`Backend.postgresURL`) away from the tests running beside it. Removed on
/// deinit.
public final class ThrowawayCluster {
    /// Whether PostgreSQL's server programs are installed; says once (per test process) when the
    /// tests that need them are skipped.
    public static let isAvailable: Bool = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let found = versions.contains { FileManager.default.isExecutableFile(atPath: "\(root)/\($0)/bin/initdb") }
        if !found { print("no PostgreSQL server programs (initdb) installed; the outage tests are skipped") }
        return found
    }()

    /// The connection URI (postgresql://USER@127.0.0.1:PORT/recents); the same after a restart.
    public let url: String
    private let directory: URL

    /// The server's `host:port` (from `url`: postgresql://USER@127.0.0.1:PORT/recents).
    public var address: String {
        url.split(separator: "@", maxSplits: 1).last?.split(separator: "/").first.map(String.init) ?? ""
    }

    /// One URI naming the servers of `clusters` in order (libpq tries them in turn), with `query`.
    public static func uri(_ clusters: [ThrowawayCluster], query: String) -> String {
        // The user is the same for all: the script's.
        let prefix = clusters.first?.url.split(separator: "@", maxSplits: 1).first.map(String.init) ?? "postgresql://"
        return "\(prefix)@\(clusters.map(\.address).joined(separator: ","))/recents?\(query)"
    }

    /// Makes and starts a cluster (a few seconds: initdb).
    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("recents-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The cluster's own user must reach its directory under this one.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        url = try Self.script("start", directory.appendingPathComponent("cluster").path)
    }

    deinit {
        _ = try? Self.script("kill", directory.appendingPathComponent("cluster").path)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the server as an administrator or a switchover does: each session gets a FATAL
    /// (SQLSTATE 57P01) and later connections are refused.
    public func stop() throws { _ = try Self.script("stop", directory.appendingPathComponent("cluster").path) }

    /// Stops the server as a crash does: sessions vanish without a word.
    public func kill() throws { _ = try Self.script("kill", directory.appendingPathComponent("cluster").path) }

    /// Starts the stopped server again, on the same port.
    public func start() throws { _ = try Self.script("start", directory.appendingPathComponent("cluster").path) }

    /// Runs scripts/postgres-cluster.sh `command` on `path`; the last line it printed (the URI).
    ///
    /// Spawned and waited for directly: Foundation's `Process` hung in `waitUntilExit` when tests
    /// ran two at once. The shell closes every descriptor it inherited first, so the server that
    /// the script starts holds none of this process's sockets or pipes, and moves to `/`: initdb
    /// runs as the cluster's user, who may not be able to read the test runner's working directory
    /// ("could not locate my own executable path").
    private static func script(_ command: String, _ path: String) throws -> String {
        let script = RecentsExecutable.packageRoot.appendingPathComponent("scripts/postgres-cluster.sh").path
        let output = "\(path).\(command).out"
        let line = """
            for fd in /proc/$$/fd/*; do fd=${fd##*/}; [[ $fd -gt 2 ]] && eval "exec $fd>&-"; done 2>/dev/null
            cd / && exec bash "$0" "$1" "$2" >"$3" 2>&1
            """
        let words: [String] = ["/bin/bash", "-c", line, script, command, path, output]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { word in word.withCString { strdup($0) } }
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", nil, nil, arguments + [nil], environ)
        guard spawned == 0 else {
            throw ClusterError(description: "posix_spawn: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw ClusterError(description: "postgres-cluster.sh \(command) \(path): \(printed)")
        }
        return printed.split(separator: "\n").last.map(String.init) ?? ""
    }
}

/// scripts/postgres-cluster.sh failed.
public struct ClusterError: Error, CustomStringConvertible {
    public var description: String
}
