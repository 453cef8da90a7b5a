import RecentsJSON

@testable import RecentsAPI

/// Checks JSON against a schema of the embedded docs/openapi.json, for the keywords the document
/// uses on answers: `$ref`, `type` (one or a list), `enum`, `properties` (members in the order the
/// schema lists them: the contract's field order), `required`, `additionalProperties: false`
/// (no member the schema lacks) and `items`.
struct SchemaConformance {
    let document: JSONValue

    init() throws {
        document = try JSONParser.parse(EmbeddedOpenAPI.file.bytes)
    }

    /// What is wrong with `value` as an instance of `#/components/schemas/NAME` (empty: nothing).
    func problems(_ value: JSONValue, schema name: String) -> [String] {
        problems(value, against: .object([("$ref", .string("#/components/schemas/\(name)"))]), at: name)
    }

    private func problems(_ value: JSONValue, against schema: JSONValue, at path: String) -> [String] {
        if case .string(let reference)? = schema["$ref"] {
            guard reference.hasPrefix("#/") else { return ["\(path): unsupported $ref \(reference)"] }
            var target = document
            for part in reference.dropFirst(2).split(separator: "/") {
                guard let next = target[String(part)] else { return ["\(path): unresolved $ref \(reference)"] }
                target = next
            }
            return problems(value, against: target, at: path)
        }
        var found: [String] = []
        if let type = schema["type"] {
            let allowed: [String]
            switch type {
            case .string(let one): allowed = [one]
            case .array(let many): allowed = many.compactMap { if case .string(let name) = $0 { name } else { nil } }
            default: allowed = []
            }
            if !allowed.contains(where: { Self.matches(value, type: $0) }) {
                found.append("\(path): \(value.typeName), want \(allowed.joined(separator: " or "))")
            }
        }
        if case .array(let allowed)? = schema["enum"], !allowed.contains(value) {
            found.append("\(path): \(value) is not one of \(allowed)")
        }
        if case .object(let properties)? = schema["properties"], case .object(let members) = value {
            let names = members.map(\.0)
            let declared = properties.map(\.0)
            if names != declared.filter(names.contains) {
                found.append("\(path): members \(names), want them in the schema's order \(declared)")
            }
            if case .array(let required)? = schema["required"] {
                for case .string(let name) in required where !names.contains(name) {
                    found.append("\(path): required member \(name) is missing")
                }
            }
            for (name, member) in members {
                if let property = properties.first(where: { $0.0 == name })?.1 {
                    found += problems(member, against: property, at: "\(path).\(name)")
                }
            }
        }
        if let items = schema["items"], case .array(let elements) = value {
            for (index, element) in elements.enumerated() {
                found += problems(element, against: items, at: "\(path)[\(index)]")
            }
        }
        return found
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): true
        case ("number", .number): true
        case ("integer", .number(_, let integer)): integer != nil
        default: false
        }
    }
}

extension JSONValue {
    /// The member `name` of an object, or nil.
    subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }
}
