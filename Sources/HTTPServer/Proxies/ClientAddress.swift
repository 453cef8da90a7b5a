/// Who a request comes from when proxies stand between the client and the server: the peer's
/// address, or, when the peer is a trusted proxy, the address its forwarding header names.
///
/// The header is `Forwarded` (RFC 7239, its `for=` parameters) when the request has one, else
/// `X-Forwarded-For`. Each proxy appends the address it received the request from, so the list is
/// walked from the right, skipping trusted proxies: the first address that is not one is the
/// client. Everything to its left was written by that client and proves nothing, so prepending
/// addresses cannot pick a bucket. A hop that does not name an address (`unknown`, an obfuscated
/// `_name`, garbage) ends the walk at the peer: what lies beyond it cannot be trusted. When every
/// hop is a trusted proxy, the leftmost is the client (a proxy's own request, a health check).
public enum ClientAddress {
    /// The client's address for a request from `peer` (numeric text) with `headers`.
    public static func resolve(peer: String, headers: HTTPHeaders, trusted: TrustedProxies) -> String {
        guard trusted.contains(text: peer) else { return peer }
        let forwarded = headers.values(for: "Forwarded")
        let hops = forwarded.isEmpty ? forwardedFor(headers.values(for: "X-Forwarded-For")) : self.forwarded(forwarded)
        guard let hops, !hops.isEmpty else { return peer }
        for hop in hops.reversed() {
            guard let address = hop else { return peer }
            if !trusted.contains(address) { return address.text }
        }
        return hops.first??.text ?? peer
    }

    /// The hops of `X-Forwarded-For` fields, left to right; nil for a hop that is not an address.
    /// Some load balancers append a port (`192.0.2.7:1234`, `[2001:db8::1]:1234`); it is dropped.
    static func forwardedFor(_ values: [String]) -> [IPAddress?]? {
        var hops: [IPAddress?] = []
        for value in values {
            // An empty list element is ignored (RFC 9110 §5.6.1), not a hop.
            for item in value.split(separator: ",") where !item.trimmingSpaces.isEmpty {
                hops.append(node(item.trimmingSpaces))
            }
        }
        return hops
    }

    /// The `for=` nodes of `Forwarded` fields, one per element, left to right (RFC 7239 §4); nil for
    /// an element without `for=` or whose node is not an address. Nil for the whole when a field
    /// does not parse (an unterminated quoted string).
    static func forwarded(_ values: [String]) -> [IPAddress?]? {
        var hops: [IPAddress?] = []
        for value in values {
            guard let elements = split(value) else { return nil }
            for pairs in elements {
                var found: IPAddress?? = nil
                for (name, pairValue) in pairs where name.lowercased() == "for" {
                    found = .some(node(pairValue))
                    break
                }
                hops.append(found ?? nil)
            }
        }
        return hops
    }

    /// A node (RFC 7239 §6): `192.0.2.7`, `192.0.2.7:port`, `[2001:db8::1]`, `[2001:db8::1]:port`;
    /// nil for `unknown`, an obfuscated identifier or anything else. A bare IPv6 address (which the
    /// RFC would have bracketed) is taken as it is.
    static func node(_ text: Substring) -> IPAddress? {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && isPort(rest.dropFirst())) else { return nil }
            return IPAddress(text[text.index(after: text.startIndex)..<close])
        }
        let colons = text.utf8.count { $0 == UInt8(ascii: ":") }
        if colons == 1, let colon = text.firstIndex(of: ":") {
            guard isPort(text[text.index(after: colon)...]) else { return nil }
            let address = IPAddress(text[..<colon])
            return address?.isIPv4 == true ? address : nil
        }
        return IPAddress(text)
    }

    /// A port (RFC 7239 §6: digits, or an obfuscated `_port`, which names no address either way).
    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && (text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } || text.hasPrefix("_"))
    }

    /// A `Forwarded` field value as elements (split on `,`), each a list of `name=value` pairs (split
    /// on `;`), with quoted strings unquoted; separators inside quotes do not split. Nil when a quoted
    /// string does not end.
    static func split(_ value: String) -> [[(Substring, Substring)]]? {
        var elements: [[(Substring, Substring)]] = [[]]
        var pairStart = value.startIndex
        var quoted = false
        var escaped = false
        var index = value.startIndex
        func endPair(at end: String.Index) {
            let pair = value[pairStart..<end]
            guard let equals = pair.firstIndex(of: "=") else {
                // Not a pair: the element still counts (as a hop naming nobody) unless it is empty.
                if !pair.trimmingSpaces.isEmpty { elements[elements.count - 1].append(("", "")) }
                return
            }
            let name = pair[..<equals].trimmingSpaces
            var pairValue = pair[pair.index(after: equals)...].trimmingSpaces
            if pairValue.count >= 2, pairValue.hasPrefix("\""), pairValue.hasSuffix("\"") {
                pairValue = pairValue.dropFirst().dropLast()
            }
            elements[elements.count - 1].append((name, pairValue))
        }
        while index < value.endIndex {
            let character = value[index]
            if escaped {
                escaped = false
            } else if quoted {
                if character == "\\" { escaped = true } else if character == "\"" { quoted = false }
            } else if character == "\"" {
                quoted = true
            } else if character == ";" || character == "," {
                endPair(at: index)
                pairStart = value.index(after: index)
                if character == "," { elements.append([]) }
            }
            index = value.index(after: index)
        }
        guard !quoted else { return nil }
        endPair(at: value.endIndex)
        // An empty list element is ignored (RFC 9110 §5.6.1), not a hop.
        return elements.filter { !$0.isEmpty }
    }
}
