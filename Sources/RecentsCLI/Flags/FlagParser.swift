/// What a command's arguments asked for.
enum Parsed<Options> {
    /// `--help` or `-h`: print the command's usage and exit 0.
    case help
    /// The options: defaults, overridden by environment variables, overridden by flags.
    case options(Options)
}

/// Reads `--flag value` and `--flag=value` arguments against a command's flag table.
enum FlagParser {
    /// Parses `arguments` over `defaults`, falling back to `environment` for flags not given.
    ///
    /// Empty environment variables count as unset, so `RECENTS_CORS_ORIGIN=` in a compose file does not
    /// turn into a value. The last occurrence of a repeated flag wins, like most Unix tools. Values are
    /// checked in table order, then required flags, so the first error is the same on every run.
    static func parse<Options>(
        _ arguments: [String], flags: [Flag<Options>], defaults: Options, environment: [String: String]
    ) throws(UsageError) -> Parsed<Options> {
        let known = Set(flags.map(\.name))
        let switches = Set(flags.filter(\.isSwitch).map(\.name))
        var given: [String: RawValue] = [:]
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
                if switches.contains(name) {
                    given[name] = RawValue(text: "true", origin: "--\(name)")
                    continue
                }
                // A following `--flag` is almost surely a forgotten value, not a value starting with dashes.
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    guard known.contains(name) else { throw UsageError(message: "unknown flag '--\(name)'") }
                    throw UsageError(message: "missing value for '--\(name)'")
                }
                value = arguments[index]
                index += 1
            }
            guard known.contains(name) else { throw UsageError(message: "unknown flag '--\(name)'") }
            given[name] = RawValue(text: value, origin: "--\(name)")
        }

        var options = defaults
        for flag in flags {
            let fromEnvironment = flag.environmentName.flatMap { variable in
                environment[variable].flatMap { $0.isEmpty ? nil : RawValue(text: $0, origin: variable) }
            }
            if let raw = given[flag.name] ?? fromEnvironment { try flag.apply(&options, raw) }
        }
        for flag in flags where flag.isRequired && flag.text(options) == nil {
            throw UsageError(message: "missing required flag '--\(flag.name)'")
        }
        return .options(options)
    }
}
