import RecentsCore
import RecentsJSON

/// Reads typed members out of a JSON object, collecting a `FieldError` for each member that is
/// missing, of the wrong type or unknown, so one 422 can name every problem at once.
struct JSONObjectReader {
    private let members: [(String, JSONValue)]
    private let prefix: String
    /// Which members were asked for, by position (the parser refuses duplicate names, so a
    /// position stands for a name). An array, not a Set of names: ~4% of an event loop's CPU
    /// per POST of one call went to growing and hashing those sets (perf).
    private var consumed: [Bool]
    /// Every problem found so far, with full member paths.
    private(set) var errors: [FieldError] = []

    /// Starts reading `value`, which must be an object; otherwise records one error at `path`.
    init(_ value: JSONValue, path: String) {
        prefix = path.isEmpty ? "" : path + "."
        if case .object(let members) = value {
            self.members = members
            consumed = Array(repeating: false, count: members.count)
        } else {
            self.members = []
            consumed = []
            errors.append(
                FieldError(field: path.isEmpty ? "body" : path, message: "must be an object, not \(value.typeName)"))
        }
    }

    private func path(_ name: String) -> String { prefix + name }

    /// The raw member, marking it as known.
    mutating func value(_ name: String) -> JSONValue? {
        guard let position = members.firstIndex(where: { $0.0 == name }) else { return nil }
        consumed[position] = true
        return members[position].1
    }

    private mutating func fail(_ name: String, _ message: String) {
        errors.append(FieldError(field: path(name), message: message))
    }

    /// The member, marking it as known; nil, with an error when it is required, when absent.
    private mutating func present(_ name: String, required: Bool) -> JSONValue? {
        let member = value(name)
        if required, member == nil { fail(name, "is required") }
        return member
    }

    /// A member of one JSON type, `kind` in words, taken out by `read` (nil when it is another type).
    private mutating func typed<T>(_ name: String, required: Bool, _ kind: String, _ read: (JSONValue) -> T?) -> T? {
        guard let member = present(name, required: required) else { return nil }
        guard let typed = read(member) else {
            fail(name, "must be \(kind), not \(member.typeName)")
            return nil
        }
        return typed
    }

    /// A string member; nil (with an error when required) when absent or not a string.
    mutating func string(_ name: String, required: Bool) -> String? {
        typed(name, required: required, "a string") { if case .string(let text) = $0 { text } else { nil } }
    }

    /// An integer member in `range`; integral numbers written with a fraction or exponent (10.0,
    /// 1e3) are accepted. One outside `range`, also beyond 64 bits, is "out of range" with the range.
    mutating func integer(_ name: String, required: Bool, in range: ClosedRange<Int64>) -> Int64? {
        let number = typed(name, required: required, "an integer") { (value: JSONValue) -> (Double, Int64?)? in
            if case .number(let number, let integer) = value { (number, integer) } else { nil }
        }
        guard let (number, integer) = number else { return nil }
        if let integer, range.contains(integer) { return integer }
        // 1.5 is no integer; 1e30 and 99999999999999999999 are, just not one that fits.
        if integer != nil || number.rounded() == number {
            errors.append(.outOfRange(path(name), range))
        } else {
            fail(name, "must be an integer")
        }
        return nil
    }

    /// A finite number member.
    mutating func number(_ name: String, required: Bool) -> Double? {
        typed(name, required: required, "a number") { if case .number(let number, _) = $0 { number } else { nil } }
    }

    /// A boolean member.
    mutating func bool(_ name: String, required: Bool) -> Bool? {
        typed(name, required: required, "a boolean") { if case .bool(let flag) = $0 { flag } else { nil } }
    }

    /// A string member restricted to an enumeration's raw values.
    mutating func enumeration<E: RawRepresentable & CaseIterable>(_ name: String, required: Bool) -> E?
    where E.RawValue == String {
        guard let text = string(name, required: required) else { return nil }
        if let parsed = E(rawValue: text) { return parsed }
        fail(name, "must be one of " + E.allCases.map(\.rawValue).joined(separator: ", "))
        return nil
    }

    /// A nested object member, read by `body` with its own path.
    mutating func object<T>(_ name: String, required: Bool, _ body: (inout JSONObjectReader) -> T?) -> T? {
        guard let member = present(name, required: required) else { return nil }
        var nested = JSONObjectReader(member, path: path(name))
        let result = body(&nested)
        nested.finish()
        errors.append(contentsOf: nested.errors)
        return nested.errors.isEmpty ? result : nil
    }

    /// Records an error for every member nobody asked for: unknown members are rejected so
    /// that a typo (`"endreason"`) does not pass silently.
    mutating func finish() {
        for (position, (name, _)) in members.enumerated() where !consumed[position] {
            fail(name, "is not a known member")
        }
        consumed = Array(repeating: true, count: members.count)
    }

    /// Records a rule broken by a value that was read successfully.
    mutating func reject(_ name: String, _ message: String) { fail(name, message) }

    /// Adds errors found elsewhere (already carrying full paths).
    mutating func append(_ more: [FieldError]) { errors.append(contentsOf: more) }
}
