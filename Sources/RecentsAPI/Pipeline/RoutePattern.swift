/// A path pattern such as `/v1/lists/{list}/rows/{rowId}`, split once at start-up: each `{name}`
/// segment captures one non-empty, already percent-decoded path segment.
struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// One `/`-separated piece of a pattern.
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    /// The pattern as written, the label of /metrics and the path of the OpenAPI document.
    let description: String
    let segments: [Segment]
    /// Where each `{name}` stands among the path's segments, in the pattern's order.
    let parameterPositions: [Int]

    /// Splits `pattern`; `/` is the root.
    init(_ pattern: String) {
        description = pattern
        var parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
        if parts.first == "" { parts.removeFirst() }
        if parts == [""] { parts = [] }
        let segments = parts.map { part -> Segment in
            part.count >= 2 && part.hasPrefix("{") && part.hasSuffix("}")
                ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        self.segments = segments
        parameterPositions = segments.indices.filter {
            if case .parameter = segments[$0] { return true }
            return false
        }
    }

    /// The names of the `{…}` segments, in order.
    var parameterNames: [String] {
        segments.compactMap {
            if case .parameter(let name) = $0 { return name }
            return nil
        }
    }

    /// Whether the decoded `path` segments fit this pattern (the caller compared the counts).
    func matches(_ path: [String]) -> Bool {
        for (segment, value) in zip(segments, path) {
            switch segment {
            case .literal(let literal): if literal != value { return false }
            case .parameter: if value.isEmpty { return false }
            }
        }
        return true
    }

    /// Whether some path would fit both patterns (then a lookup could not tell them apart).
    func overlaps(_ other: RoutePattern) -> Bool {
        guard segments.count == other.segments.count else { return false }
        for (mine, theirs) in zip(segments, other.segments) {
            if case .literal(let a) = mine, case .literal(let b) = theirs, a != b { return false }
        }
        return true
    }
}
