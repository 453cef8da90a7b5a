import SystemSupport

/// The database's epoch (`meta.epoch`): versions are comparable only within one epoch, so a
/// database whose history went back (a restored backup) must answer under a new one, or clients
/// that saw the lost versions would take the versions written again as the ones they know.
///
/// `recents backup` marks its copy (`meta.epoch-renewal`); the first open of a marked database by
/// the server or `recents migrate` gives it a new epoch and removes the mark in one transaction,
/// so every restore of the same backup file gets an epoch of its own. Restores made by other tools
/// (`cp` of a stopped database, `pg_restore`, point-in-time recovery) carry no mark: `recents
/// new-epoch` renews the epoch of those (`Store.renewEpoch`).
enum DatabaseEpoch {
    /// The `meta` key of the epoch.
    static let key = "epoch"
    /// The `meta` key of the mark a copy carries until it is first opened; its value is when the copy was made.
    static let renewalKey = "epoch-renewal"

    /// A new epoch: 8 random lowercase base-36 characters (the PostgreSQL channel name
    /// `recents_<epoch>` relies on that alphabet).
    static func random() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
    }
}

/// What opening a database found of its epoch.
struct EpochClaim: Sendable, Hashable {
    /// The epoch the database answers under from now on.
    let epoch: String
    /// Whether it was renewed now: the database was a marked copy opened for the first time.
    let renewed: Bool

    /// Tells the operator when a restored copy got its new epoch (clients will reload once).
    func log(to logger: Logger) {
        guard renewed else { return }
        logger.log(.info, "restored copy: new epoch, clients reload their lists", [("epoch", epoch)])
    }
}

/// What `recents new-epoch` changed.
public struct EpochRenewal: Sendable, Hashable {
    /// The epoch before; nil when the database had none yet.
    public let previous: String?
    /// The epoch from now on.
    public let current: String
}
