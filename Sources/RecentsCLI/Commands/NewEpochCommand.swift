import RecentsAPI
import RecentsStore

/// `recents new-epoch`: a new epoch for a database restored by other tools than `recents backup`.
enum NewEpochCommand: Command {
    /// What `new-epoch` reads, as `migrate`: only where the database is.
    typealias Options = MigrateCommand.Options

    static let name = "new-epoch"
    static let summary = "give a restored database a new epoch, so clients reload"
    static let details = """
        Gives the database a new epoch, after a restore made by other tools than 'recents backup'
        (cp of a stopped database, pg_restore, point-in-time recovery): clients that saw versions the
        restore took back are answered 410 and reload, instead of taking the versions written again
        for the ones they know. Run it after the restore and before a server opens the database. On
        PostgreSQL stop every instance first and start them afterwards: a running instance keeps the
        old epoch (and its notification channel recents_<epoch>) until it restarts. A copy made by
        'recents backup' needs none: its first open renews its epoch. Exits 1 when there is no
        database to open.
        """
    static var defaults: Options { Options() }
    static var flags: [Flag<Options>] {
        [
            Flag("db", "PATH", \.database, .nonEmpty, help: "SQLite database file or postgresql:// URI")
        ]
    }

    /// Renews the epoch and prints the old and new one; returns the exit status.
    static func run(_ options: Options, output: Output) -> Int32 {
        let database = Store.redacted(options.database)
        do {
            let renewal = try Store.renewEpoch(StoreConfiguration(path: options.database))
            output.standard("new epoch \(renewal.current) for \(database) (was \(renewal.previous ?? "none"))")
            return 0
        } catch {
            output.error("recents new-epoch: error: \(sentence(error))")
            return 1
        }
    }
}
