/// Dispatches `recents <command> [flags]` and maps outcomes to exit statuses (0 ok, 1 failure, 2 usage).
public enum CLI {
    /// The version `recents --version` prints.
    public static let version = "0.1.0"

    /// Fields every request of `healthcheck` and `seed` sends: one exchange per connection.
    static let requestHeaders = [
        ("User-Agent", "recents/\(version)"), ("Accept", "application/json"), ("Connection", "close"),
    ]

    /// Exit status for a command-line mistake, the BSD `EX_USAGE`-style convention most CLIs follow.
    public static let usageStatus: Int32 = 2

    /// Runs the command named by `arguments` (without the program name) and returns the exit status.
    public static func run(arguments: [String], environment: [String: String], output: Output = .process) -> Int32 {
        let arguments = ShardsCommand.normalized(arguments)
        guard let first = arguments.first else {
            output.error(Usage.main())
            return usageStatus
        }
        switch first {
        case "--help", "-h":
            output.standard(Usage.main())
            return 0
        case "help":
            guard arguments.count > 1 else {
                output.standard(Usage.main())
                return 0
            }
            guard let command = command(named: arguments[1]) else {
                return usageFailure("recents", "unknown command '\(arguments[1])'", help: "recents --help", output)
            }
            output.standard(Usage.command(command))
            return 0
        case "--version", "version":
            output.standard("recents \(version)")
            return 0
        default:
            break
        }
        guard let command = command(named: first) else {
            let what = first.hasPrefix("-") ? "unknown flag '\(first)'" : "unknown command '\(first)'"
            return usageFailure("recents", what, help: "recents --help", output)
        }
        do throws(UsageError) {
            guard
                let status = try command.parseAndRun(
                    Array(arguments.dropFirst()), environment: environment, output: output)
            else {
                output.standard(Usage.command(command))
                return 0
            }
            return status
        } catch {
            return usageFailure(
                "recents \(command.name)", error.message, help: "recents \(command.name) --help", output)
        }
    }

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    private static func usageFailure(_ prefix: String, _ message: String, help: String, _ output: Output) -> Int32 {
        output.error("\(prefix): error: \(message)")
        output.error("run '\(help)'")
        return usageStatus
    }
}
