import RecentsAPI

/// `recents migrate`: applies pending migrations without serving, for deploy pipelines.
enum MigrateCommand {
    static let flags: [FlagSpec] = [
        FlagSpec("db", value: "PATH", default: "./recents.sqlite", help: "SQLite database file, created if missing")
    ]

    /// Applies migrations and prints what was applied; returns the exit status.
    static func run(_ flags: ParsedFlags) throws(UsageError) -> Int32 {
        let path = try flags.nonEmptyString("db") ?? "./recents.sqlite"
        let applied: [String]
        do {
            applied = try RecentsApp.migrate(databasePath: path)
        } catch {
            Output.error("recents migrate: error: cannot migrate \(path): \(error)")
            return 1
        }
        if applied.isEmpty {
            Output.standard("database is up to date")
        } else {
            applied.forEach(Output.standard)
        }
        return 0
    }
}
