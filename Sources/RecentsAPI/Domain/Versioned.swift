/// What a write body returns: its value, and the list's version before it, so the reply names the
/// new version if this request changed the list and the unchanged one otherwise.
struct Versioned<Value: Sendable>: Sendable {
    var value: Value
    var versionBefore: Int64
}
