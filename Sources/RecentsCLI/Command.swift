/// One `recents <command>`: its flag table over typed options, its help and what it does.
protocol Command {
    /// What the flags fill in.
    associatedtype Options
    /// The command's name on the command line.
    static var name: String { get }
    /// One line for the top-level command list.
    static var summary: String { get }
    /// The paragraph under the usage line of the command's help.
    static var details: String { get }
    /// The options before any flag or variable is read: the documented defaults.
    static var defaults: Options { get }
    /// Every flag, in help order.
    static var flags: [Flag<Options>] { get }
    /// Does the work and returns the exit status (0 ok, 1 failure).
    static func run(_ options: Options, output: Output) -> Int32
    /// Completes the options from what no single flag holds (the auth secret's sources).
    static func resolve(_ options: inout Options, environment: [String: String]) throws(UsageError)
}

extension Command {
    /// Nothing beyond the flags, for most commands.
    static func resolve(_ options: inout Options, environment: [String: String]) throws(UsageError) {}

    /// The flags' help, defaults included.
    static var flagHelp: [FlagHelp] { flags.map { FlagHelp($0, defaults: defaults) } }

    /// Parses `arguments` (and the environment) and runs; nil when help was asked for instead.
    static func parseAndRun(
        _ arguments: [String], environment: [String: String], output: Output
    ) throws(UsageError) -> Int32? {
        switch try FlagParser.parse(arguments, flags: flags, defaults: defaults, environment: environment) {
        case .help: return nil
        case .options(var options):
            try resolve(&options, environment: environment)
            return run(options, output: output)
        }
    }
}

/// The commands, in help order.
var commands: [any Command.Type] {
    [
        ServeCommand.self, MigrateCommand.self, BackupCommand.self, NewEpochCommand.self, HealthcheckCommand.self,
        SeedCommand.self, FollowCommand.self, TokenCommand.self, ShardsCommand.self,
    ]
}
