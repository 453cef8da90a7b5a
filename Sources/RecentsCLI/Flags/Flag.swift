/// One `--name VALUE` flag of a command, declared once: its variable, help, where it is stored in
/// the command's options and how its text is read. The default shown in help is read from the
/// command's default options, so it is the value the code really uses.
struct Flag<Options> {
    /// The name without dashes, e.g. `max-head-bytes`.
    let name: String
    /// The placeholder in help, e.g. `BYTES`.
    let valueName: String
    /// One line of help.
    let help: String
    /// The environment variable read when the flag is absent; nil when it has none.
    let environmentName: String?
    /// Whether the command refuses to run without it.
    let isRequired: Bool
    /// Whether it takes no value: `--json` alone means true (`--json=false` is allowed too).
    var isSwitch = false
    /// Reads `raw` into `options`.
    let apply: (inout Options, RawValue) throws(UsageError) -> Void
    /// The value held by `options` as the flag's text; nil when there is none.
    let text: (Options) -> String?

    /// A flag stored at `keyPath`, read by `value`; its variable is `variable`, or `RECENTS_<NAME>`
    /// by default, and none when `env` is false.
    init<Value>(
        _ name: String, _ valueName: String, _ keyPath: WritableKeyPath<Options, Value>, _ value: FlagValue<Value>,
        help: String, env: Bool = true, variable: String? = nil, required: Bool = false
    ) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.environmentName = env ? (variable ?? Self.environmentName(for: name)) : nil
        self.isRequired = required
        self.apply = { (options: inout Options, raw: RawValue) throws(UsageError) in
            options[keyPath: keyPath] = try value.parse(raw)
        }
        self.text = { value.format($0[keyPath: keyPath]) }
    }

    /// A switch stored at `keyPath`: present means true; it has no variable.
    static func `switch`(_ name: String, _ keyPath: WritableKeyPath<Options, Bool>, help: String) -> Flag {
        var flag = Flag(name, "", keyPath, .boolean, help: help, env: false)
        flag.isSwitch = true
        return flag
    }

    /// `max-head-bytes` → `RECENTS_MAX_HEAD_BYTES`.
    static func environmentName(for name: String) -> String {
        "RECENTS_" + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
    }
}

/// The command-independent part of a flag, for help text.
struct FlagHelp: Equatable {
    let name: String
    let valueName: String
    let help: String
    let environmentName: String?
    let isRequired: Bool
    /// The default as a user would type it; nil when there is none.
    let defaultText: String?

    /// The help of `flag` with its default read from `defaults`.
    init<Options>(_ flag: Flag<Options>, defaults: Options) {
        name = flag.name
        valueName = flag.valueName
        help = flag.help
        environmentName = flag.environmentName
        isRequired = flag.isRequired
        defaultText = flag.text(defaults)
    }
}
