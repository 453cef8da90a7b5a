/// SQLite's reads and writes of the database's epoch (`DatabaseEpoch`).
extension SQLiteConnection {
    /// The epoch to serve under: created in a new database, renewed (and the mark removed) in a
    /// copy made by `recents backup` that is opened for the first time; one transaction.
    func claimEpoch() throws -> EpochClaim {
        try transaction(.immediate) {
            try run(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", DatabaseEpoch.key,
                DatabaseEpoch.random())
            let renewed = try run("DELETE FROM meta WHERE key = ?", DatabaseEpoch.renewalKey) > 0
            if renewed { try run("UPDATE meta SET value = ? WHERE key = ?", DatabaseEpoch.random(), DatabaseEpoch.key) }
            return EpochClaim(epoch: try storedEpoch(), renewed: renewed)
        }
    }

    /// Gives the database a new epoch whatever it had (`recents new-epoch`), removing any mark.
    func renewEpoch() throws -> EpochRenewal {
        try transaction(.immediate) {
            let previous = try queryText("SELECT value FROM meta WHERE key = '\(DatabaseEpoch.key)'")
            try run(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                DatabaseEpoch.key, DatabaseEpoch.random())
            try run("DELETE FROM meta WHERE key = ?", DatabaseEpoch.renewalKey)
            return EpochRenewal(previous: previous, current: try storedEpoch())
        }
    }

    /// Marks this database as a copy whose first open renews its epoch (`recents backup`);
    /// `madeAt` says when, for an operator reading the table.
    func markCopy(madeAt: String) throws {
        try run(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            DatabaseEpoch.renewalKey, madeAt)
    }

    private func storedEpoch() throws -> String {
        guard let epoch = try queryText("SELECT value FROM meta WHERE key = '\(DatabaseEpoch.key)'") else {
            throw StoreError.corruptRow("meta.epoch missing")
        }
        return epoch
    }
}
