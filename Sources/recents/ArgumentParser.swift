/// A command-line mistake: reported on stderr with a pointer to `--help`, exit status 2.
struct UsageError: Error {
    /// What was wrong, in one line.
    let message: String
}

/// One `--name value` flag a command accepts, with its environment fallback and default.
struct FlagSpec: Sendable {
    /// The flag's name without the leading dashes, e.g. `max-head-bytes`.
    let name: String
    /// The placeholder shown in usage text, e.g. `BYTES`.
    let valueName: String
    /// The default as shown in usage text; nil when there is none.
    let defaultText: String?
    /// One line of help.
    let help: String
    /// The environment variable read when the flag is absent; nil when the flag has none.
    let environmentName: String?
    /// Whether the command refuses to run without it (checked by the command, shown in usage).
    let isRequired: Bool

    /// A flag whose environment variable is `RECENTS_<NAME_IN_UPPER_SNAKE>` (or none when `env` is false).
    init(
        _ name: String, value: String, default defaultText: String?, help: String, env: Bool = true,
        required: Bool = false
    ) {
        self.name = name
        self.valueName = value
        self.defaultText = defaultText
        self.help = help
        self.environmentName = env ? FlagSpec.environmentName(for: name) : nil
        self.isRequired = required
    }

    /// `max-head-bytes` → `RECENTS_MAX_HEAD_BYTES`.
    static func environmentName(for name: String) -> String {
        "RECENTS_" + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
    }
}

/// Where a value came from, so error messages can name the flag or variable the user must fix.
struct RawValue {
    /// The text as given.
    let text: String
    /// `--port` or `RECENTS_PORT`.
    let origin: String
}

/// The outcome of parsing one command's arguments.
enum ParseOutcome {
    /// `--help` or `-h` was given: print the command's usage and exit 0.
    case help
    /// The flags, merged with the environment (flags win).
    case flags(ParsedFlags)
}

/// A command's flag values after merging arguments over environment variables.
struct ParsedFlags {
    private let values: [String: RawValue]

    init(values: [String: RawValue]) {
        self.values = values
    }

    /// Parses `arguments` (`--flag value` or `--flag=value`) against `specs`, falling back to `environment`.
    ///
    /// Empty environment variables count as unset, so `RECENTS_CORS_ORIGIN=` in a compose file does not
    /// turn into a value. The last occurrence of a repeated flag wins, like most Unix tools.
    static func parse(
        _ arguments: [String], specs: [FlagSpec], environment: [String: String]
    ) throws(UsageError) -> ParseOutcome {
        var byName: [String: FlagSpec] = [:]
        for spec in specs { byName[spec.name] = spec }

        var values: [String: RawValue] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return .help }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw UsageError(message: "unexpected argument '\(argument)'")
            }
            let body = argument.dropFirst(2)
            let name: String
            let value: String
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                value = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
                // A following `--flag` is almost surely a forgotten value, not a value starting with dashes.
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    guard byName[name] != nil else { throw UsageError(message: "unknown flag '--\(name)'") }
                    throw UsageError(message: "missing value for '--\(name)'")
                }
                value = arguments[index]
                index += 1
            }
            guard byName[name] != nil else { throw UsageError(message: "unknown flag '--\(name)'") }
            values[name] = RawValue(text: value, origin: "--\(name)")
        }
        for spec in specs where values[spec.name] == nil {
            if let variable = spec.environmentName, let text = environment[variable], !text.isEmpty {
                values[spec.name] = RawValue(text: text, origin: variable)
            }
        }
        return .flags(ParsedFlags(values: values))
    }

    /// The raw text of `name`, or nil when neither the flag nor its variable was given.
    func string(_ name: String) -> String? {
        values[name]?.text
    }

    /// A non-empty string value; an empty one is a usage error.
    func nonEmptyString(_ name: String) throws(UsageError) -> String? {
        guard let raw = values[name] else { return nil }
        guard !raw.text.isEmpty else { throw UsageError(message: "\(raw.origin) must not be empty") }
        return raw.text
    }

    /// A decimal integer within `range`, or nil when absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let raw = values[name] else { return nil }
        guard let number = Int(raw.text), range.contains(number) else {
            throw UsageError(message: "invalid value '\(raw.text)' for \(raw.origin): must be \(describe(range))")
        }
        return number
    }

    /// A positive, finite number of seconds no larger than `maximum`, or nil when absent.
    func seconds(_ name: String, maximum: Double) throws(UsageError) -> Double? {
        guard let raw = values[name] else { return nil }
        guard let number = Double(raw.text), number.isFinite, number > 0, number <= maximum else {
            throw UsageError(
                message: "invalid value '\(raw.text)' for \(raw.origin): must be a number of seconds above 0 "
                    + "and at most \(Int(maximum))")
        }
        return number
    }

    /// One of `choices`, or nil when absent.
    func choice(_ name: String, from choices: [String]) throws(UsageError) -> String? {
        guard let raw = values[name] else { return nil }
        guard choices.contains(raw.text) else {
            throw UsageError(
                message: "invalid value '\(raw.text)' for \(raw.origin): must be one of "
                    + choices.joined(separator: ", "))
        }
        return raw.text
    }

    private func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max
            ? "an integer of at least \(range.lowerBound)"
            : "an integer from \(range.lowerBound) to \(range.upperBound)"
    }
}
