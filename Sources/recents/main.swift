import Foundation

// The executable only turns arguments and environment into calls on RecentsAPI;
// everything that decides an exit code lives in CLI.run so this file stays one line of logic.
exit(CLI.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
