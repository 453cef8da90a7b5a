import RecentsJSON

/// Which shard holds each bucket: the named shards (each a PostgreSQL URI, multi-host allowed)
/// and the bucket ranges each holds, every bucket exactly once. Read from a placement file:
///
///     {"shards": {"a": "postgresql://…/recents", "b": "postgresql://…/recents"},
///      "buckets": [{"from": 0, "to": 2047, "shard": "a"}, {"from": 2048, "to": 4095, "shard": "b"}]}
///
/// `from` and `to` are inclusive. The first shard named gives the fleet its epoch.
public struct Placement: Sendable, Hashable {
    /// The shards in the order the file names them: name and URI.
    public let shards: [(name: String, uri: String)]
    /// The index in `shards` of each bucket's shard.
    let table: [UInt16]

    /// The largest placement file read: 4,096 ranges with long URIs fit many times over.
    public static let maximumBytes = 1 << 20

    /// The index in `shards` of the shard holding `list`.
    public func shardIndex(of list: String) -> Int { Int(table[Bucket.of(list)]) }

    /// The index in `shards` of the shard holding `bucket` (0 ..< `Bucket.count`).
    public func shardIndex(ofBucket bucket: Int) -> Int { Int(table[bucket]) }

    /// Parses and checks a placement file's bytes.
    /// - Throws: `PlacementError` naming the first problem: bad JSON, an unknown member, a shard
    ///   that is not a PostgreSQL URI, a range naming an unknown shard, or buckets placed twice
    ///   or not at all.
    public static func parse(_ bytes: [UInt8]) throws(PlacementError) -> Placement {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw PlacementError("not JSON: \(error)")
        }
        guard case .object(let members) = document else { throw PlacementError("the file must hold an object") }
        var shards: [(name: String, uri: String)] = []
        var ranges: [JSONValue] = []
        for (name, value) in members {
            switch (name, value) {
            case ("shards", .object(let named)):
                shards = try named.map { name, uri throws(PlacementError) in try shard(name, uri) }
            case ("buckets", .array(let items)): ranges = items
            default: throw PlacementError("unexpected member '\(name)' (only \"shards\" and \"buckets\")")
            }
        }
        guard !shards.isEmpty else { throw PlacementError("\"shards\" must name at least one shard") }
        return Placement(shards: shards, table: try table(ranges, shards: shards.map(\.name)))
    }

    private static func shard(_ name: String, _ uri: JSONValue) throws(PlacementError) -> (name: String, uri: String) {
        guard !name.isEmpty, name.utf8.count <= 64,
            name.utf8.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        else { throw PlacementError("shard name '\(name)' must be 1-64 of a-z, 0-9, - and _") }
        guard case .string(let text) = uri, PostgreSQLStore.isPostgreSQL(text) else {
            throw PlacementError("shard '\(name)' must be a postgresql:// URI")
        }
        return (name, text)
    }

    /// Every bucket's shard index, from the ranges; each bucket must be placed exactly once.
    private static func table(_ ranges: [JSONValue], shards: [String]) throws(PlacementError) -> [UInt16] {
        var table = [UInt16?](repeating: nil, count: Bucket.count)
        for (position, item) in ranges.enumerated() {
            let range = try PlacementRange(item, position: position)
            guard let index = shards.firstIndex(of: range.shard) else {
                throw PlacementError("buckets[\(position)] names unknown shard '\(range.shard)'")
            }
            for bucket in range.buckets {
                if let earlier = table[bucket] {
                    throw PlacementError(
                        "bucket \(bucket) is placed twice (on '\(shards[Int(earlier)])' and, in buckets[\(position)], "
                            + "on '\(range.shard)')")
                }
                table[bucket] = UInt16(index)
            }
        }
        var placed: [UInt16] = []
        placed.reserveCapacity(Bucket.count)
        for (bucket, shard) in table.enumerated() {
            guard let shard else {
                let end = table[bucket...].firstIndex(where: { $0 != nil }).map { $0 - 1 } ?? Bucket.count - 1
                throw PlacementError("buckets \(bucket)-\(end) are on no shard (all 0-\(Bucket.count - 1) must be)")
            }
            placed.append(shard)
        }
        return placed
    }

    public static func == (lhs: Placement, rhs: Placement) -> Bool {
        lhs.table == rhs.table && lhs.shards.elementsEqual(rhs.shards) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(table)
        for shard in shards {
            hasher.combine(shard.name)
            hasher.combine(shard.uri)
        }
    }
}

/// One `{"from": F, "to": T, "shard": S}` of a placement file.
private struct PlacementRange {
    let buckets: ClosedRange<Int>
    let shard: String

    init(_ item: JSONValue, position: Int) throws(PlacementError) {
        let what = "buckets[\(position)]"
        guard case .object(let members) = item else { throw PlacementError("\(what) must be an object") }
        var from: Int64?
        var to: Int64?
        var shard: String?
        for (name, value) in members {
            switch (name, value) {
            case ("from", .number(_, let integer?)): from = integer
            case ("to", .number(_, let integer?)): to = integer
            case ("shard", .string(let text)): shard = text
            default: throw PlacementError("\(what): unexpected member '\(name)' (from, to: integers; shard: a name)")
            }
        }
        guard let from, let to, let shard else { throw PlacementError("\(what) needs from, to and shard") }
        guard 0 <= from, from <= to, to < Int64(Bucket.count) else {
            throw PlacementError("\(what): from \(from) to \(to) must satisfy 0 <= from <= to <= \(Bucket.count - 1)")
        }
        self.buckets = Int(from)...Int(to)
        self.shard = shard
    }
}
