/// The wake-up notifications between instances: one `NOTIFY` per committed batch on one channel,
/// naming each list it changed with its new version (`name:version`, comma-separated), split
/// into payloads under PostgreSQL's 8000-byte limit.
///
/// List names are `[A-Za-z0-9._-]`, so `:` and `,` cannot occur in them.
enum PGNotifications {
    /// The channel every instance on one database listens on: named after the database's epoch,
    /// so databases (or schemas) on one server never hear each other. Epochs are lowercase
    /// letters and digits, so the name is a plain identifier.
    static func channel(epoch: String) -> String { "recents_" + epoch }
    /// The largest payload sent (PostgreSQL refuses 8000 bytes and more).
    static let maxPayloadBytes = 7900

    /// The payloads naming `versions`, each under `maxPayloadBytes`.
    static func payloads(_ versions: [String: Int64]) -> [String] {
        var payloads: [String] = []
        var current = ""
        for (list, version) in versions.sorted(by: { $0.key < $1.key }) {
            let entry = "\(list):\(version)"
            if !current.isEmpty, current.utf8.count + 1 + entry.utf8.count > maxPayloadBytes {
                payloads.append(current)
                current = ""
            }
            current += current.isEmpty ? entry : "," + entry
        }
        if !current.isEmpty { payloads.append(current) }
        return payloads
    }

    /// The lists and versions a payload names; malformed entries are skipped.
    static func parse(_ payload: String) -> [String: Int64] {
        var versions: [String: Int64] = [:]
        for entry in payload.split(separator: ",") {
            let parts = entry.split(separator: ":")
            guard parts.count == 2, let version = Int64(parts[1]) else { continue }
            versions[String(parts[0])] = max(versions[String(parts[0])] ?? 0, version)
        }
        return versions
    }
}
