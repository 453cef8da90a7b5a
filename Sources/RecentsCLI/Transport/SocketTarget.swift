import RecentsClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// Where a request URL points for a plain-socket client: host, port and request target.
struct SocketTarget: Sendable {
    /// The host name or address, without IPv6 brackets.
    let host: String
    /// The TCP port (80 when the URL names none).
    let port: Int
    /// The path and query as sent on the request line.
    let target: String

    /// The parts of an `http` URL.
    /// - Throws: `.transport` for another scheme (the command line speaks no TLS) or no host.
    init(_ url: URL) throws(RecentsClientError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            components.scheme?.lowercased() == "http", let host = components.host, !host.isEmpty
        else {
            throw .transport("\(url.absoluteString): only http:// URLs with a host are supported here")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? 80
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        target = components.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }
}
