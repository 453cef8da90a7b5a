import RecentsAPI
import RecentsStore

/// `recents migrate`: applies pending migrations without serving, for deploy pipelines.
enum MigrateCommand: Command {
    /// What `migrate` reads: only where the database is.
    struct Options {
        /// The SQLite file; serve's default, so both commands find the same database.
        var database = AppConfiguration().store.path
    }

    static let name = "migrate"
    static let summary = "apply pending database migrations, then exit"
    static let details = """
        Applies pending migrations to the database and prints the name of each one applied, or
        'database is up to date'. Exits 1 when the database cannot be opened or migrated.
        """
    static var defaults: Options { Options() }
    static var flags: [Flag<Options>] {
        [
            Flag(
                "db", "PATH", \.database, .nonEmpty,
                help: "SQLite database file (created if missing) or postgresql:// URI")
        ]
    }

    /// Applies migrations and prints what was applied; returns the exit status.
    static func run(_ options: Options, output: Output) -> Int32 {
        let applied: [String]
        do {
            applied = try RecentsApp.migrate(databasePath: options.database)
        } catch {
            output.error(
                "recents migrate: error: cannot migrate \(Store.redacted(options.database)): \(sentence(error))")
            return 1
        }
        if applied.isEmpty {
            output.standard("database is up to date")
        } else {
            applied.forEach(output.standard)
        }
        return 0
    }
}
