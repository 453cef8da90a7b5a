import RecentsClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

extension CLI {
    /// A `RecentsClient` of the server at `host`:`port` over plain sockets, as `seed` and `follow` use it.
    /// - Throws: a sentence when `host` cannot be part of a URL.
    static func client(
        host: String, port: Int, token: String?, timeout: Duration? = nil
    ) throws(ClientSetupError) -> RecentsClient {
        let host = HealthcheckCommand.connectHost(for: host)
        let authority = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
        guard let url = URL(string: "http://\(authority)"), url.host != nil else {
            throw ClientSetupError(description: "'\(host)' is not a host name or address")
        }
        return RecentsClient(
            baseURL: url, token: token, transport: SocketTransport(timeout: timeout),
            headers: [("User-Agent", "recents/\(version)")])
    }
}

/// Why `CLI.client` could not make a client, as one sentence.
struct ClientSetupError: Error, CustomStringConvertible {
    let description: String
}
