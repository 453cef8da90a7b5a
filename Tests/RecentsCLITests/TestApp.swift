import Glibc
import RecentsAPI
import RecentsAuth

/// A real server on a loopback port with its own database under /tmp, for the commands that talk to one.
final class TestApp: Sendable {
    let app: RecentsApp
    let path: String

    /// Starts a server; `secret` turns access control on.
    init(secret: String? = nil) throws {
        path = "/tmp/recents-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sqlite"
        var configuration = AppConfiguration()
        configuration.http.port = 0
        configuration.store.path = path
        configuration.logLevel = .error
        if let secret { configuration.authSecret = try AuthSecret(bytes: Array(secret.utf8)) }
        app = try RecentsApp.start(configuration)
    }

    /// The port it listens on, as a flag value.
    var port: String { String(app.port) }

    deinit {
        app.shutdown()
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }
}
