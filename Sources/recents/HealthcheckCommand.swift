/// `recents healthcheck`: the container's HEALTHCHECK, so the image needs no curl.
enum HealthcheckCommand {
    static let flags: [FlagSpec] = [
        FlagSpec("host", value: "ADDR", default: "127.0.0.1", help: "server address (0.0.0.0 and :: mean 127.0.0.1)"),
        FlagSpec("port", value: "PORT", default: "8080", help: "server port, 1..65535"),
        FlagSpec(
            "timeout", value: "SECONDS", default: "5", help: "give up after this long", env: false),
    ]

    /// Maps a bind-all address to loopback: a server bound to every interface is reachable there.
    static func connectHost(for host: String) -> String {
        ["0.0.0.0", "::", "[::]", ""].contains(host) ? "127.0.0.1" : host
    }

    /// Checks `/healthz` and returns 0 when healthy, 1 otherwise.
    static func run(_ flags: ParsedFlags) throws(UsageError) -> Int32 {
        let host = connectHost(for: flags.string("host") ?? "127.0.0.1")
        let port = try flags.integer("port", in: 1...65_535) ?? 8080
        let timeout = try flags.seconds("timeout", maximum: 3600) ?? 5
        let client = MiniHTTPClient(host: host, port: port, timeout: timeout)
        let response: HTTPResponse
        do {
            response = try client.request(method: "GET", path: "/healthz")
        } catch {
            Output.error("recents healthcheck: unhealthy: \(error)")
            return 1
        }
        let compact = String(response.bodyText.filter { !$0.isWhitespace })
        guard response.status == 200, compact.contains("\"status\":\"ok\"") else {
            Output.error(
                "recents healthcheck: unhealthy: GET /healthz answered \(response.status) "
                    + "\(String(response.bodyText.prefix(200)))")
            return 1
        }
        return 0
    }
}
