/// Conditional requests on entity tags (RFC 9110 §13.1.2).
enum EntityTag {
    /// Whether an `If-None-Match` value names `etag`: `*`, or a list of tags compared weakly (a
    /// `W/` prefix is ignored).
    static func matches(_ condition: String, etag: String) -> Bool {
        for candidate in condition.split(separator: ",") {
            var tag = candidate.trimmingSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}
