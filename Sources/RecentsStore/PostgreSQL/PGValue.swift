/// A value bound to a statement parameter, sent in PostgreSQL's text format.
protocol PGValue {
    /// The parameter's text, nil for SQL NULL.
    var pgText: String? { get }
}

extension String: PGValue {
    var pgText: String? { self }
}

extension Int64: PGValue {
    var pgText: String? { String(self) }
}

extension Int: PGValue {
    var pgText: String? { String(self) }
}

extension Bool: PGValue {
    var pgText: String? { self ? "t" : "f" }
}

extension Optional: PGValue where Wrapped: PGValue {
    var pgText: String? { self?.pgText }
}

extension Array: PGValue where Element: PGValue {
    /// An array literal (`text[]`, `bigint[]`, `boolean[]`, … by the statement's cast): every
    /// element quoted, with `"` and `\` escaped, so no element can change the array's shape; a nil
    /// element is an unquoted NULL.
    var pgText: String? {
        "{"
            + map { element in
                guard let text = element.pgText else { return "NULL" }
                var quoted = "\""
                for character in text {
                    if character == "\"" || character == "\\" { quoted.append("\\") }
                    quoted.append(character)
                }
                return quoted + "\""
            }.joined(separator: ",") + "}"
    }
}
