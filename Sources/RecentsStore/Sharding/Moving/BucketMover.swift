import Glibc
import SystemSupport

/// Moves one bucket's lists from the shard holding it to another while every instance keeps
/// serving (`recents shards move`):
///
/// 1. copies every list of the bucket with all its rows (`BucketCopier`), list by list;
/// 2. catches up: copies again the lists whose version moved since their copy (and the keys
///    recorded since, which need no new version), until a pass finds at most `fenceWhenAtMost`
///    lists changed, holding at most `fenceWhenRowsAtMost` calls;
/// 3. fences the bucket's writes on the source (`BucketFence`: an exclusive advisory lock, taken
///    once the writes already in flight committed, each new one refused with 503), copies the
///    last changes, marks the bucket moved in the source (`moved_buckets`), unmarks it in the
///    target, and rewrites the placement file (`Placement.write(to:)`);
/// 4. lifts the fence. Writes that still reach the source, from an instance that has not yet read
///    the new file, are refused by the mark; once it has, they go to the target.
///
/// Versions, retained history and idempotency keys move with each list and every shard serves the
/// fleet's one epoch, so a client following a list sees the same versions after the move. The
/// source's copy stays until `dropSource()`, so an instance still reading from it meanwhile
/// answers what the list held when it moved, never an empty list.
public final class BucketMover {
    /// The bucket to move.
    public let bucket: Int
    /// The placement file every instance follows.
    public let placementPath: String
    /// The shard to move it to, by name.
    public let targetShard: String
    /// A catch-up pass that finds at most this many lists changed ends the catching up: the last
    /// copy, under the fence, is about as small.
    public var fenceWhenAtMost = 64
    /// ... and whose live calls together are at most this many: the last copy copies each
    /// changed list whole, so this bounds the fence (5,000 rows took about 0.3 s in
    /// check-shard-move.py's runs on a debug build).
    public var fenceWhenRowsAtMost = 10_000
    /// Catch-up passes at most, however busy the bucket: then the fence is taken anyway.
    public var maxPasses = 20
    /// How long the fence waits for the bucket's writes in flight before the move gives up
    /// (nothing switched; the bucket stays where it was).
    public var lockTimeoutMilliseconds = 500
    /// About how many rows one copy reads in one snapshot.
    public var chunkRows = 20_000

    private let placement: Placement
    private let source: Int
    private let target: Int

    /// Reads the placement file and checks the move makes sense.
    /// - Throws: `BucketMoveError` for an unreadable file, an unknown shard or bucket, or a bucket
    ///   already on that shard.
    public init(bucket: Int, placement path: String, to shard: String) throws(BucketMoveError) {
        let placement: Placement
        do {
            placement = try PlacementFollower(path: path).placement
            _ = try placement.moving(bucket: bucket, to: shard)
        } catch {
            throw BucketMoveError("\(error)")
        }
        self.bucket = bucket
        self.placementPath = path
        self.targetShard = shard
        self.placement = placement
        self.source = placement.shardIndex(ofBucket: bucket)
        guard let target = placement.shards.firstIndex(where: { $0.name == shard }) else {
            throw BucketMoveError("no shard named '\(shard)'")
        }
        guard target != source else { throw BucketMoveError("bucket \(bucket) is already on shard '\(shard)'") }
        self.target = target
    }

    /// The shard the bucket leaves, by name.
    public var sourceShard: String { placement.shards[source].name }

    /// Moves the bucket, telling `progress` each step; returns what it did.
    /// - Throws: `BucketMoveError` (nothing switched: the bucket stays on its shard, unfenced; a
    ///   partial copy on the target is replaced by the next attempt).
    public func run(progress: (BucketMoveStep) -> Void = { _ in }) throws(BucketMoveError) -> BucketMoveReport {
        try BucketMoveError.wrapping {
            let copier = BucketCopier(
                source: try PGConnection(uri: placement.shards[source].uri),
                target: try PGConnection(uri: placement.shards[target].uri))
            try checkEpochs(copier)
            return try move(copier, progress: progress)
        }
    }

    private func move(_ copier: BucketCopier, progress: (BucketMoveStep) -> Void) throws -> BucketMoveReport {
        // Keys are copied again from a little before each pass began: a key's time is taken when
        // its batch starts, a moment before it commits.
        var keysSince = Int64(time(nil)) - 10
        var lists = try copier.lists(in: bucket)
        progress(.counted(lists: lists.count, rows: lists.reduce(lists.count) { $0 + $1.calls }))
        var copied: [String: Int64] = [:]
        var rowsCopied = 0
        var listsCopied = 0
        try copyInChunks(lists, copier, into: &copied) { lists, rows in
            rowsCopied += rows
            listsCopied += lists
            progress(.copied(lists: listsCopied, rows: rowsCopied))
        }
        var passes = 0
        while true {
            let passStart = Int64(time(nil))
            lists = try copier.lists(in: bucket)
            let changed = lists.filter { copied[$0.name] != $0.version }
            let rows = changed.reduce(changed.count) { $0 + $1.calls }
            if (changed.count <= fenceWhenAtMost && rows <= fenceWhenRowsAtMost) || passes >= maxPasses { break }
            passes += 1
            progress(.catchingUp(pass: passes, lists: changed.count))
            try copyInChunks(changed, copier, into: &copied) { _, rows in rowsCopied += rows }
            _ = try copier.copyKeys(of: lists.map(\.name), since: keysSince)
            keysSince = passStart - 10
        }
        progress(.fenced)
        let (fenceSeconds, last, lastRows, count) = try fenced(copier) {
            let lists = try copier.lists(in: bucket)
            let changed = lists.filter { copied[$0.name] != $0.version }
            var rows = 0
            try copyInChunks(changed, copier, into: &copied) { _, copiedRows in rows += copiedRows }
            rows += try copier.copyKeys(of: lists.map(\.name), since: keysSince)
            return (changed.count, rows, lists.count)
        }
        rowsCopied += lastRows
        progress(.switched(fenceSeconds: fenceSeconds, lists: last))
        return BucketMoveReport(
            bucket: bucket, lists: count, rowsCopied: rowsCopied, passes: passes, fenceSeconds: fenceSeconds)
    }

    /// Runs `lastCopy` under the fence, then marks, switches and unfences; returns the fence's
    /// duration and what `lastCopy` returned. A failure before the switch takes the mark back.
    private func fenced(
        _ copier: BucketCopier, lastCopy: () throws -> (lists: Int, rows: Int, count: Int)
    ) throws -> (Double, Int, Int, Int) {
        let start = SystemClock.monotonicNanoseconds()
        try copier.source.execute("SET lock_timeout = \(lockTimeoutMilliseconds)")
        do {
            _ = try copier.source.query("SELECT pg_advisory_lock($1, $2)", Int(BucketFence.lockSpace), bucket)
        } catch let error as PGError where error.sqlState == "55P03" {
            throw BucketMoveError(
                "writes to bucket \(bucket) did not finish within \(lockTimeoutMilliseconds) ms; nothing was switched")
        }
        defer { _ = try? copier.source.query("SELECT pg_advisory_unlock($1, $2)", Int(BucketFence.lockSpace), bucket) }
        try copier.source.execute("SET lock_timeout = 0")
        let last = try lastCopy()
        try copier.source.query(
            """
            INSERT INTO moved_buckets (bucket, to_shard, moved_at) VALUES ($1, $2, $3)
            ON CONFLICT (bucket) DO UPDATE SET to_shard = excluded.to_shard, moved_at = excluded.moved_at
            """, bucket, targetShard, Int64(time(nil)))
        do {
            try copier.target.query("DELETE FROM moved_buckets WHERE bucket = $1", bucket)
            // Read again: the file may have changed since the move began (another bucket moved).
            let current = try PlacementFollower(path: placementPath).placement
            try current.moving(bucket: bucket, to: targetShard).write(to: placementPath)
        } catch {
            _ = try? copier.source.query("DELETE FROM moved_buckets WHERE bucket = $1", bucket)
            throw error
        }
        let seconds = Double(SystemClock.monotonicNanoseconds() - start) / 1e9
        return (seconds, last.lists, last.rows, last.count)
    }

    /// Copies `lists` in chunks of about `chunkRows` rows, noting each list's copied version.
    private func copyInChunks(
        _ lists: [(name: String, version: Int64, calls: Int)], _ copier: BucketCopier,
        into copied: inout [String: Int64], each: (_ lists: Int, _ rows: Int) -> Void
    ) throws {
        var chunk: [String] = []
        var rows = 0
        func flush() throws {
            let done = try copier.copy(chunk)
            copied.merge(done.versions) { _, new in new }
            each(chunk.count, done.rows)
            chunk.removeAll()
            rows = 0
        }
        for list in lists {
            chunk.append(list.name)
            rows += list.calls + 1
            if rows >= chunkRows { try flush() }
        }
        if !chunk.isEmpty { try flush() }
    }

    /// The target must already serve the fleet's epoch (an instance opened it with the placement),
    /// or the versions copied would be read under another.
    private func checkEpochs(_ copier: BucketCopier) throws {
        let query = "SELECT value FROM meta WHERE key = $1"
        let epochs = try [copier.source, copier.target].map { try $0.query(query, DatabaseEpoch.key) }
        guard epochs.allSatisfy({ $0.count == 1 }), epochs[0].string(0, 0) == epochs[1].string(0, 0) else {
            throw BucketMoveError(
                "shard '\(targetShard)' does not serve the fleet's epoch yet; start an instance with this placement first"
            )
        }
    }

    /// Removes the source's copy of the bucket, once every instance follows the new placement
    /// (`PlacementFollower.interval`: wait a few of them after `run`). Only a bucket the source
    /// marks moved; returns the lists and rows removed.
    /// - Throws: `BucketMoveError` when the source does not mark the bucket moved.
    public func dropSource(progress: (BucketMoveStep) -> Void = { _ in }) throws(BucketMoveError) -> (Int, Int) {
        try BucketMoveError.wrapping {
            let connection = try PGConnection(uri: placement.shards[source].uri)
            let marked = try connection.query("SELECT 1 FROM moved_buckets WHERE bucket = $1", bucket)
            guard marked.count == 1 else {
                throw BucketMoveError("shard '\(sourceShard)' does not mark bucket \(bucket) moved; nothing dropped")
            }
            let copier = BucketCopier(source: connection, target: connection)
            let lists = try copier.lists(in: bucket).map(\.name)
            var rows = 0
            for start in stride(from: 0, to: lists.count, by: 100) {
                let names = Array(lists[start..<min(lists.count, start + 100)])
                let deletes = ListTable.all.reversed().map { table in
                    PGStatement("DELETE FROM \(table.name) t WHERE \(table.rows(of: 1, alias: "t"))", PGArray(names))
                }
                let results = try connection.pipeline([PGStatement("BEGIN")] + deletes + [PGStatement("COMMIT")])
                rows += results.reduce(0) { $0 + $1.affectedRows }
            }
            progress(.dropped(lists: lists.count, rows: rows))
            return (lists.count, rows)
        }
    }
}

/// Why a bucket could not be moved; `description` is a sentence for the operator.
public struct BucketMoveError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    /// `body`'s value, its failures said as sentences (a database's without SQL or values).
    static func wrapping<T>(_ body: () throws -> T) throws(BucketMoveError) -> T {
        do {
            return try body()
        } catch let error as BucketMoveError {
            throw error
        } catch let error as PGError {
            throw BucketMoveError("\(error.storeError)")
        } catch {
            throw BucketMoveError("\(error)")
        }
    }
}
