/// Help text, generated from the flag specs so it cannot drift from what the parser accepts.
enum Usage {
    /// `recents --help`.
    static func main() -> String {
        var lines = [
            "usage: recents <command> [flags]",
            "",
            "Serves a phone app's call list (\"Recents\") over HTTP/JSON, stored in SQLite.",
            "",
            "commands:",
        ]
        for command in Command.allCases {
            lines.append("  " + pad(command.rawValue, to: 14) + command.summary)
        }
        lines += [
            "  " + pad("help", to: 14) + "show this text, or 'recents help <command>' for a command's flags",
            "",
            "flags:",
            "  " + pad("--help, -h", to: 14) + "show help (also after a command)",
            "  " + pad("--version", to: 14) + "print the version",
            "",
            "Every flag of a command can also be set by the environment variable shown in its help;",
            "a flag given on the command line wins over the variable. Exit status: 0 ok, 1 failure, 2 usage error.",
        ]
        return lines.joined(separator: "\n")
    }

    /// `recents <command> --help`.
    static func command(_ command: Command) -> String {
        var lines = [
            "usage: recents \(command.rawValue) [flags]",
            "",
            description(of: command),
            "",
            "flags (--flag value or --flag=value; the flag wins over its environment variable):",
        ]
        for flag in command.flags {
            lines.append("  " + pad("--\(flag.name) \(flag.valueName)", to: 28) + flag.help)
            var details: [String] = []
            if let variable = flag.environmentName { details.append("env \(variable)") }
            details.append(flag.isRequired ? "required" : flag.defaultText.map { "default \($0)" } ?? "no default")
            lines.append("  " + pad("", to: 28) + details.joined(separator: ", "))
        }
        lines.append("  " + pad("--help, -h", to: 28) + "show this text")
        return lines.joined(separator: "\n")
    }

    private static func description(of command: Command) -> String {
        switch command {
        case .serve:
            """
            Runs the HTTP service. Logs one logfmt line per event to stderr (the effective configuration
            at --log-level debug), stops gracefully on SIGTERM or SIGINT and exits 0; exits 1 when it
            cannot start (database cannot be opened, port in use).
            """
        case .migrate:
            """
            Applies pending migrations to the database and prints the name of each one applied, or
            'database is up to date'. Exits 1 when the database cannot be opened or migrated.
            """
        case .healthcheck:
            """
            Sends GET /healthz to a running server (0.0.0.0 and :: mean 127.0.0.1) and exits 0 when the
            answer is 200 with "status":"ok", else prints the problem to stderr and exits 1.
            Reads the same RECENTS_HOST and RECENTS_PORT as serve, so it works unchanged in the container.
            """
        case .seed:
            """
            Posts a realistic, deterministic demo history (peers, grouped runs, missed, video and busy calls
            over the 30 days before --now) to a running server, at most 1000 calls per request, and prints
            'seeded N calls into LIST (version V)'. Exits 1 on any answer other than 200 or 201.
            """
        }
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
