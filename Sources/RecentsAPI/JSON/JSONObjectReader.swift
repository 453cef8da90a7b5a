import RecentsCore

/// Reads typed members out of a JSON object, collecting a `FieldError` for each member that is
/// missing, of the wrong type or unknown, so one 422 can name every problem at once.
struct JSONObjectReader {
    private let members: [(String, JSONValue)]
    private let prefix: String
    private var consumed: Set<String> = []
    /// Every problem found so far, with full member paths.
    private(set) var errors: [FieldError] = []

    /// Starts reading `value`, which must be an object; otherwise records one error at `path`.
    init(_ value: JSONValue, path: String) {
        prefix = path.isEmpty ? "" : path + "."
        if case .object(let members) = value {
            self.members = members
        } else {
            self.members = []
            errors.append(
                FieldError(field: path.isEmpty ? "body" : path, message: "must be an object, not \(value.typeName)"))
        }
    }

    private func path(_ name: String) -> String { prefix + name }

    /// The raw member, marking it as known.
    mutating func value(_ name: String) -> JSONValue? {
        consumed.insert(name)
        return members.first(where: { $0.0 == name })?.1
    }

    private mutating func fail(_ name: String, _ message: String) {
        errors.append(FieldError(field: path(name), message: message))
    }

    /// A string member; nil (with an error when required) when absent or not a string.
    mutating func string(_ name: String, required: Bool) -> String? {
        switch value(name) {
        case .string(let text): return text
        case nil:
            if required { fail(name, "is required") }
            return nil
        case .some(let other):
            fail(name, "must be a string, not \(other.typeName)")
            return nil
        }
    }

    /// An integer member; integral numbers written with a fraction or exponent (10.0, 1e3) are accepted.
    mutating func integer(_ name: String, required: Bool) -> Int64? {
        switch value(name) {
        case .number(_, let integer?): return integer
        case .number:
            fail(name, "must be an integer")
            return nil
        case nil:
            if required { fail(name, "is required") }
            return nil
        case .some(let other):
            fail(name, "must be an integer, not \(other.typeName)")
            return nil
        }
    }

    /// A finite number member.
    mutating func number(_ name: String, required: Bool) -> Double? {
        switch value(name) {
        case .number(let number, _): return number
        case nil:
            if required { fail(name, "is required") }
            return nil
        case .some(let other):
            fail(name, "must be a number, not \(other.typeName)")
            return nil
        }
    }

    /// A boolean member.
    mutating func bool(_ name: String, required: Bool) -> Bool? {
        switch value(name) {
        case .bool(let flag): return flag
        case nil:
            if required { fail(name, "is required") }
            return nil
        case .some(let other):
            fail(name, "must be a boolean, not \(other.typeName)")
            return nil
        }
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
        guard let member = value(name) else {
            if required { fail(name, "is required") }
            return nil
        }
        var nested = JSONObjectReader(member, path: path(name))
        let result = body(&nested)
        nested.finish()
        errors.append(contentsOf: nested.errors)
        return nested.errors.isEmpty ? result : nil
    }

    /// Records an error for every member nobody asked for: unknown members are rejected so
    /// that a typo (`"endreason"`) does not pass silently.
    mutating func finish() {
        for (name, _) in members where !consumed.contains(name) {
            fail(name, "is not a known member")
        }
        consumed = Set(members.map(\.0))
    }

    /// Records a rule broken by a value that was read successfully.
    mutating func reject(_ name: String, _ message: String) { fail(name, message) }

    /// Adds errors found elsewhere (already carrying full paths).
    mutating func append(_ more: [FieldError]) { errors.append(contentsOf: more) }
}
