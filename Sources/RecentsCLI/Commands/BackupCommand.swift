import RecentsAPI
import RecentsStore

/// `recents backup`: an online copy of the database while the server runs and writes.
enum BackupCommand: Command {
    /// What `backup` reads: the live database and the new file.
    struct Options {
        /// The SQLite file; serve's default, so both commands find the same database.
        var database = AppConfiguration().store.path
        /// The copy to create; required, never overwritten.
        var destination: String?
    }

    static let name = "backup"
    static let summary = "copy the database to a new file while the server runs"
    static let details = """
        Copies the database with SQLite's online backup API while the server keeps serving and
        writing: the copy holds every write acknowledged before the backup started, and opens with
        'recents serve --db FILE'. FILE must not exist; it appears only once complete, checked and
        synced. On a terminal, stderr shows the megabytes copied of the total, the rate and the time
        left; in a pipe or a log, one line per phase. Exits 1 when the copy fails.
        """
    static var defaults: Options { Options() }
    static var flags: [Flag<Options>] {
        [
            Flag("db", "PATH", \.database, .nonEmpty, help: "SQLite database file to copy"),
            Flag(
                "to", "FILE", \.destination, .optional(.nonEmpty), help: "new file to write the copy to", env: false,
                required: true),
        ]
    }

    /// Copies the database and prints where to; returns the exit status.
    static func run(_ options: Options, output: Output) -> Int32 {
        guard let destination = options.destination else { return CLI.usageStatus }  // the parser requires it
        var progress = Progress(task: "backup", sink: output.progress)
        var copying = false
        do {
            try SQLiteStore.backup(StoreConfiguration(path: options.database), to: destination) { step in
                switch step {
                case .copied(let bytes, let total):
                    if !copying {
                        copying = true
                        progress.begin("copying \(options.database)", total: total, unit: .bytes)
                    }
                    progress.advance(to: bytes)
                case .checking: progress.begin("checking the copy")
                case .syncing: progress.begin("syncing \(destination)")
                }
            }
            progress.finish("done")
            output.standard("backed up \(options.database) to \(destination)")
            return 0
        } catch {
            progress.erase()
            output.error("recents backup: error: \(sentence(error))")
            return 1
        }
    }
}
