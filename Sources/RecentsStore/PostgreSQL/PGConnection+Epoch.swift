/// PostgreSQL's reads and writes of the database's epoch (`DatabaseEpoch`).
extension PGConnection {
    /// The epoch to serve under: created in a new database (the first instance to commit one
    /// wins, every other reads it), renewed in a marked copy opened for the first time. The mark's
    /// `DELETE` locks its row, so of two instances opening a marked database at once only the one
    /// that deleted it renews the epoch; the other reads the renewed one.
    ///
    /// A shard other than the first (`fleet`: the first shard's epoch) serves under the fleet's
    /// epoch, so a client sees one epoch for a list wherever it lives: a shard that holds no list
    /// yet takes it; one that holds lists under another epoch, or is a marked copy, is refused.
    func claimEpoch(fleet: String? = nil) throws -> EpochClaim {
        try transaction {
            try query(
                "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", DatabaseEpoch.key,
                fleet ?? DatabaseEpoch.random())
            let renewed = try query("DELETE FROM meta WHERE key = $1", DatabaseEpoch.renewalKey).affectedRows > 0
            if let fleet {
                guard !renewed else {
                    throw StoreError.cannotOpen(
                        "this shard is a restored copy (recents backup); restoring one shard of many is not supported")
                }
                let stored = try storedEpoch()
                if stored != fleet {
                    guard try query("SELECT NOT EXISTS (SELECT 1 FROM lists)").bool(0, 0) else {
                        throw StoreError.cannotOpen(
                            "this shard holds lists under epoch '\(stored)', not the first shard's '\(fleet)': "
                                + "versions of one epoch cannot be served under another")
                    }
                    try query("UPDATE meta SET value = $1 WHERE key = $2", fleet, DatabaseEpoch.key)
                }
            } else if renewed {
                try query("UPDATE meta SET value = $1 WHERE key = $2", DatabaseEpoch.random(), DatabaseEpoch.key)
            }
            return EpochClaim(epoch: try storedEpoch(), renewed: renewed)
        }
    }

    /// Gives the database a new epoch whatever it had (`recents new-epoch`), removing any mark.
    func renewEpoch() throws -> EpochRenewal {
        try transaction {
            let before = try query("SELECT value FROM meta WHERE key = $1 FOR UPDATE", DatabaseEpoch.key)
            let previous = before.count == 1 ? before.string(0, 0) : nil
            try query(
                "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                DatabaseEpoch.key, DatabaseEpoch.random())
            try query("DELETE FROM meta WHERE key = $1", DatabaseEpoch.renewalKey)
            return EpochRenewal(previous: previous, current: try storedEpoch())
        }
    }

    private func storedEpoch() throws -> String {
        let result = try query("SELECT value FROM meta WHERE key = $1", DatabaseEpoch.key)
        guard result.count == 1 else { throw StoreError.corruptRow("meta.epoch missing") }
        return result.string(0, 0)
    }
}
