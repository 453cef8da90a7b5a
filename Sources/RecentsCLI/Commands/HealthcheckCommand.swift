import HTTPClient
import RecentsAPI

/// `recents healthcheck`: the container's HEALTHCHECK, so the image needs no curl.
enum HealthcheckCommand: Command {
    /// Where the server is and how long to wait for it.
    struct Options {
        /// The server's address; serve's default, and the same variable, so it works unchanged in the container.
        var host = AppConfiguration().http.host
        /// The server's port; serve's default.
        var port = AppConfiguration().http.port
        /// The bound on connecting, and then on the request and its answer.
        var timeout: Duration = .seconds(5)
    }

    static let name = "healthcheck"
    static let summary = "exit 0 when a running server answers GET /healthz with status ok"
    static let details = """
        Sends GET /healthz to a running server (0.0.0.0 and :: mean 127.0.0.1) and exits 0 when the
        answer is 200 with "status":"ok", else prints the problem to stderr and exits 1.
        Reads the same RECENTS_HOST and RECENTS_PORT as serve, so it works unchanged in the container.
        """
    static var defaults: Options { Options() }
    static var flags: [Flag<Options>] {
        serverFlags(\.host, \.port) + [
            Flag("timeout", "SECONDS", \.timeout, .seconds(maximum: 3600), help: "give up after this long", env: false)
        ]
    }

    /// `--host` and `--port` of a command that talks to a running server (`healthcheck`, `seed`): the
    /// same variables as `serve`, so they find the server it started.
    static func serverFlags<Options>(
        _ host: WritableKeyPath<Options, String>, _ port: WritableKeyPath<Options, Int>
    ) -> [Flag<Options>] {
        [
            Flag("host", "ADDR", host, .string, help: "server address (0.0.0.0 and :: mean 127.0.0.1)"),
            Flag("port", "PORT", port, .integer(1...65_535), help: "server port, 1..65535"),
        ]
    }

    /// Maps a bind-all address to loopback: a server bound to every interface is reachable there.
    static func connectHost(for host: String) -> String {
        ["0.0.0.0", "::", "[::]", ""].contains(host) ? "127.0.0.1" : host
    }

    /// Checks `/healthz` and returns 0 when healthy, 1 otherwise.
    static func run(_ options: Options, output: Output) -> Int32 {
        let response: HTTPClientResponse
        do throws(HTTPClientError) {
            let connection = try HTTPConnection(
                host: connectHost(for: options.host), port: options.port, timeout: options.timeout)
            response = try connection.request("GET", "/healthz", headers: CLI.requestHeaders)
        } catch {
            output.error("recents healthcheck: unhealthy: \(error.description)")
            return 1
        }
        let compact = String(response.text.filter { !$0.isWhitespace })
        guard response.status == 200, compact.contains("\"status\":\"ok\"") else {
            output.error(
                "recents healthcheck: unhealthy: GET /healthz answered \(response.status) "
                    + "\(String(response.text.prefix(200)))")
            return 1
        }
        return 0
    }
}
