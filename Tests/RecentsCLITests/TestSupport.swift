import RecentsAPI
import Synchronization

@testable import RecentsCLI

/// What a run of the command line printed, and its exit status.
struct Run {
    let status: Int32
    let standard: [String]
    let error: [String]
}

/// Runs `recents ARGUMENTS` in-process with `environment`, capturing its output.
func run(_ arguments: [String], environment: [String: String] = [:]) -> Run {
    let lines = Mutex<(standard: [String], error: [String])>(([], []))
    let output = Output(
        standard: { line in lines.withLock { $0.standard.append(line) } },
        error: { line in lines.withLock { $0.error.append(line) } })
    let status = CLI.run(arguments: arguments, environment: environment, output: output)
    return lines.withLock { Run(status: status, standard: $0.standard, error: $0.error) }
}

/// Parses `serve`'s flags; fails the test on help or a usage error.
func serveConfiguration(
    _ arguments: [String], environment: [String: String] = [:]
) throws -> AppConfiguration {
    switch try FlagParser.parse(
        arguments, flags: ServeCommand.flags, defaults: ServeCommand.defaults, environment: environment)
    {
    case .help: throw UsageError(message: "help was asked for")
    case .options(let configuration): return configuration
    }
}

/// The usage error `serve ARGUMENTS` gives, or nil when it parses.
func serveError(_ arguments: [String], environment: [String: String] = [:]) -> String? {
    do {
        _ = try serveConfiguration(arguments, environment: environment)
        return nil
    } catch {
        return (error as? UsageError)?.message
    }
}
