/// The version `recents --version` prints.
let recentsVersion = "0.1.0"

/// The subcommands, their flags and help text.
enum Command: String, CaseIterable {
    case serve
    case migrate
    case healthcheck
    case seed

    /// One line for the top-level command list.
    var summary: String {
        switch self {
        case .serve: "run the HTTP service until SIGTERM or SIGINT"
        case .migrate: "apply pending database migrations, then exit"
        case .healthcheck: "exit 0 when a running server answers GET /healthz with status ok"
        case .seed: "post a realistic demo call history to a running server"
        }
    }

    /// The flags the command accepts, in usage order.
    var flags: [FlagSpec] {
        switch self {
        case .serve: ServeCommand.flags
        case .migrate: MigrateCommand.flags
        case .healthcheck: HealthcheckCommand.flags
        case .seed: SeedCommand.flags
        }
    }

    /// Runs the command with parsed flags and returns its exit status.
    func run(_ flags: ParsedFlags, environment: [String: String]) throws(UsageError) -> Int32 {
        switch self {
        case .serve: try ServeCommand.run(flags)
        case .migrate: try MigrateCommand.run(flags)
        case .healthcheck: try HealthcheckCommand.run(flags)
        case .seed: try SeedCommand.run(flags)
        }
    }
}

/// Dispatches `recents <command> [flags]` and maps outcomes to exit statuses (0 ok, 1 failure, 2 usage).
enum CLI {
    /// Exit status for a command-line mistake, the BSD `EX_USAGE`-style convention most CLIs follow.
    static let usageStatus: Int32 = 2

    /// Runs the command named by `arguments` (without the program name) and returns the exit status.
    static func run(arguments: [String], environment: [String: String]) -> Int32 {
        guard let first = arguments.first else {
            Output.error(Usage.main())
            return usageStatus
        }
        switch first {
        case "--help", "-h":
            Output.standard(Usage.main())
            return 0
        case "help":
            guard arguments.count > 1 else {
                Output.standard(Usage.main())
                return 0
            }
            guard let command = Command(rawValue: arguments[1]) else {
                return usageFailure("recents", "unknown command '\(arguments[1])'", help: "recents --help")
            }
            Output.standard(Usage.command(command))
            return 0
        case "--version", "version":
            Output.standard("recents \(recentsVersion)")
            return 0
        default:
            break
        }
        guard let command = Command(rawValue: first) else {
            let what = first.hasPrefix("-") ? "unknown flag '\(first)'" : "unknown command '\(first)'"
            return usageFailure("recents", what, help: "recents --help")
        }
        do throws(UsageError) {
            switch try ParsedFlags.parse(Array(arguments.dropFirst()), specs: command.flags, environment: environment)
            {
            case .help:
                Output.standard(Usage.command(command))
                return 0
            case .flags(let flags):
                return try command.run(flags, environment: environment)
            }
        } catch {
            return usageFailure(
                "recents \(command.rawValue)", error.message, help: "recents \(command.rawValue) --help")
        }
    }

    private static func usageFailure(_ prefix: String, _ message: String, help: String) -> Int32 {
        Output.error("\(prefix): error: \(message)")
        Output.error("run '\(help)'")
        return usageStatus
    }
}
