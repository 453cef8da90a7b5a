import Glibc
import RecentsJSON
import SystemSupport

// What `recents shards move` changes in a placement, and how it writes the file back.
extension Placement {
    /// This placement with `bucket` on the shard named `shard`.
    /// - Throws: `PlacementError` for an unknown shard or a bucket out of range.
    public func moving(bucket: Int, to shard: String) throws(PlacementError) -> Placement {
        guard (0..<Bucket.count).contains(bucket) else {
            throw PlacementError("bucket \(bucket) is not in 0-\(Bucket.count - 1)")
        }
        guard let index = shards.firstIndex(where: { $0.name == shard }) else {
            throw PlacementError("no shard named '\(shard)' (\(shards.map(\.name).joined(separator: ", ")))")
        }
        var table = table
        table[bucket] = UInt16(index)
        return Placement(shards: shards, table: table)
    }

    /// The buckets each shard holds, as inclusive ranges in bucket order.
    public var ranges: [(from: Int, to: Int, shard: String)] {
        var ranges: [(from: Int, to: Int, shard: String)] = []
        for (bucket, index) in table.enumerated() {
            let name = shards[Int(index)].name
            if let last = ranges.last, last.shard == name, last.to == bucket - 1 {
                ranges[ranges.count - 1].to = bucket
            } else {
                ranges.append((bucket, bucket, name))
            }
        }
        return ranges
    }

    /// The placement file's bytes: the shards in their order (the first gives the fleet its
    /// epoch), then the ranges, one a line; `parse` reads them back to an equal placement.
    public var fileBytes: [UInt8] {
        var writer = JSONWriter()
        // Each item on a line of its own, so a diff of two files shows the buckets that moved.
        func lines<Item>(_ items: [Item], _ write: (inout JSONWriter, Item) -> Void) {
            for (position, item) in items.enumerated() {
                writer.raw(position > 0 ? ",\n  " : "\n  ")
                write(&writer, item)
            }
        }
        writer.raw("{\"shards\": {")
        lines(shards) { writer, shard in
            writer.string(shard.name)
            writer.raw(": ")
            writer.string(shard.uri)
        }
        writer.raw("\n}, \"buckets\": [")
        lines(ranges) { writer, range in
            writer.raw("{\"from\": ")
            writer.int(range.from)
            writer.raw(", \"to\": ")
            writer.int(range.to)
            writer.raw(", \"shard\": ")
            writer.string(range.shard)
            writer.raw("}")
        }
        writer.raw("\n]}\n")
        return writer.bytes
    }

    /// Replaces the file at `path` with this placement at once: written to a temporary file
    /// beside it, synced, renamed over it, the directory synced. An instance polling the file
    /// reads the old placement or the new one, never a part of either.
    public func write(to path: String) throws(PlacementError) {
        let temporary = "\(path).moving-\(getpid())"
        let bytes = fileBytes
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PlacementError("cannot create \(temporary): \(Self.lastError())") }
        let failed = bytes.withUnsafeBytes { writeAll(fd: descriptor, $0) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard failed == nil, synced, rename(temporary, path) == 0 else {
            let reason = Self.lastError()
            unlink(temporary)
            throw PlacementError("cannot write \(path): \(reason)")
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let handle = open(directory, O_RDONLY | O_CLOEXEC)
        if handle >= 0 {
            _ = fsync(handle)
            close(handle)
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }

}
