/// Help text, generated from the flag tables so it cannot drift from what the parser accepts
/// or from the defaults the code uses.
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
        for command in commands {
            lines.append("  " + pad(command.name, to: 14) + command.summary)
        }
        lines += [
            "  " + pad("help", to: 14) + "show this text, or 'recents help <command>' for a command's flags",
            "",
            "flags:",
            "  " + pad("--help, -h", to: 14) + "show help (also after a command)",
            "  " + pad("--version", to: 14) + "print the version",
            "",
            "Every flag of a command can also be set by the environment variable shown in its help;",
            "a flag given on the command line wins over the variable.",
            "",
            "exit status: 0 ok; 1 when the work fails (the database, the port, the network, the server's",
            "answer); 2 on a usage error (an unknown flag or command, a bad or missing value, an auth secret",
            "that is missing where one is needed, too short or unreadable), before anything is started.",
        ]
        return lines.joined(separator: "\n")
    }

    /// `recents <command> --help`.
    static func command(_ command: any Command.Type) -> String {
        var lines = [
            "usage: recents \(command.name) [flags]",
            "",
            command.details,
            "",
            "flags (--flag value or --flag=value; the flag wins over its environment variable):",
        ]
        let usages = command.flagHelp.map { flag in
            flag.valueName.isEmpty ? "--\(flag.name)" : "--\(flag.name) \(flag.valueName)"
        }
        // One column for every help line: as wide as the longest flag and its value, plus two spaces.
        let width = max(28, (usages.map(\.count).max() ?? 0) + 2)
        for (flag, usage) in zip(command.flagHelp, usages) {
            lines.append("  " + pad(usage, to: width) + flag.help)
            var details: [String] = []
            if let variable = flag.environmentName { details.append("env \(variable)") }
            details.append(flag.isRequired ? "required" : flag.defaultText.map { "default \($0)" } ?? "no default")
            lines.append("  " + pad("", to: width) + details.joined(separator: ", "))
        }
        lines.append("  " + pad("--help, -h", to: width) + "show this text")
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
