import Glibc
import RecentsCLI

// Everything that decides an exit status lives in RecentsCLI, where unit tests reach it.
exit(CLI.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: CLI.processEnvironment()))
