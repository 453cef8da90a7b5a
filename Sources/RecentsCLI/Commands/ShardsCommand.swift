import Glibc
import RecentsStore

/// `recents shards`: which shard holds which buckets, and `recents shards move BUCKET --to SHARD`,
/// moving a bucket online (`BucketMover`).
enum ShardsCommand: Command {
    /// What `shards` reads.
    struct Options {
        /// The placement file every instance follows.
        var placement: String?
        /// The bucket to move (`shards move BUCKET`); nil lists the placement.
        var move: Int?
        /// The shard to move it to.
        var to: String?
        /// Seconds to wait after the switch before removing the source's copy.
        var grace = 3
        /// Whether to leave the source's copy in place (remove it later with `--drop-source`).
        var keepSource = false
        /// Only remove the source's copy of a bucket moved earlier with `--keep-source`.
        var dropSource = false
    }

    static let name = "shards"
    static let summary = "list which shard holds which buckets, or move a bucket online"
    static let details = """
        'recents shards --placement FILE' (or 'shards status') prints each shard of the placement
        file with the bucket ranges it holds. 'recents shards move BUCKET --to SHARD --placement FILE'
        moves one bucket (0-4095; a list's bucket is on GET /v1/lists/{list}'s shard line in
        docs/DEPLOY.md) to another shard while every instance keeps serving: it copies the bucket's
        lists with their versions, history and idempotency keys, copies again what writers changed
        meanwhile, fences the bucket's writes for the last copy (they answer 503 with Retry-After,
        reads go on), rewrites the placement file and lifts the fence, then after --grace seconds
        (every instance has read the new file) removes the source's copy, unless --keep-source. On a
        terminal, stderr shows the lists and rows copied of the total, the rate and the time left; in
        a pipe or a log, one line per phase, the fence's with its duration. Exits 1 when the move
        fails: nothing is switched and the bucket stays where it was.
        """
    static var defaults: Options { Options() }
    static var flags: [Flag<Options>] {
        [
            Flag(
                "placement", "FILE", \.placement, .optional(.nonEmpty), help: "placement file (as serve's --placement)",
                required: true),
            Flag(
                "move", "BUCKET", \.move, .optional(.integer(0...(Bucket.count - 1))), help: "bucket to move",
                env: false),
            Flag("to", "SHARD", \.to, .optional(.nonEmpty), help: "shard to move the bucket to", env: false),
            Flag(
                "grace", "SECONDS", \.grace, .integer(0...3600), help: "wait before removing the source's copy",
                env: false),
            .switch("keep-source", \.keepSource, help: "leave the source's copy (remove it later with --drop-source)"),
            .switch("drop-source", \.dropSource, help: "only remove the source's copy of BUCKET, moved before"),
        ]
    }

    /// `shards move BUCKET …` → `shards --move BUCKET …`; `shards status` and `shards list` → `shards`.
    static func normalized(_ arguments: [String]) -> [String] {
        guard arguments.first == name, arguments.count > 1 else { return arguments }
        switch arguments[1] {
        case "move" where arguments.count > 2: return [name, "--move", arguments[2]] + arguments.dropFirst(3)
        case "status", "list": return [name] + arguments.dropFirst(2)
        default: return arguments
        }
    }

    static func run(_ options: Options, output: Output) -> Int32 {
        guard let path = options.placement else { return CLI.usageStatus }  // the parser requires it
        guard let bucket = options.move else { return list(path, output: output) }
        guard let shard = options.to else {
            output.error("recents shards: error: 'move' needs --to SHARD")
            return CLI.usageStatus
        }
        do {
            let mover = try BucketMover(bucket: bucket, placement: path, to: shard)
            if options.dropSource {
                let (lists, rows) = try mover.dropSource()
                output.standard(
                    "removed bucket \(bucket) from shard '\(mover.sourceShard)': \(lists) lists, \(rows) rows")
                return 0
            }
            var progress = Progress(task: "shards move \(bucket)", sink: output.progress)
            let report: BucketMoveReport
            do {
                report = try mover.run { step in show(step, &progress) }
            } catch {
                progress.erase()
                throw error
            }
            progress.finish("moved")
            output.standard(
                "moved bucket \(bucket) from shard '\(mover.sourceShard)' to '\(shard)': \(report.lists) lists, "
                    + "\(report.rowsCopied) rows copied, \(report.passes) catch-up passes, writes fenced for "
                    + "\(milliseconds(report.fenceSeconds)) ms")
            guard !options.keepSource else { return 0 }
            // Instances read the placement file every second; until each has, it reads the old copy.
            var pause = timespec(tv_sec: options.grace, tv_nsec: 0)
            var left = timespec()
            while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
            let (lists, rows) = try mover.dropSource()
            output.standard("removed bucket \(bucket) from shard '\(mover.sourceShard)': \(lists) lists, \(rows) rows")
            return 0
        } catch {
            output.error("recents shards: error: \(error)")
            return 1
        }
    }

    /// Each shard with the bucket ranges it holds.
    private static func list(_ path: String, output: Output) -> Int32 {
        do {
            let placement = try PlacementFollower(path: path).placement
            for shard in placement.shards {
                let ranges = placement.ranges.filter { $0.shard == shard.name }
                let count = ranges.reduce(0) { $0 + $1.to - $1.from + 1 }
                let text = ranges.map { $0.from == $0.to ? "\($0.from)" : "\($0.from)-\($0.to)" }
                output.standard(
                    "\(shard.name): \(count) buckets: \(text.isEmpty ? "none" : text.joined(separator: ", "))")
            }
            return 0
        } catch {
            output.error("recents shards: error: \(error)")
            return 1
        }
    }

    private static func show(_ step: BucketMoveStep, _ progress: inout Progress) {
        switch step {
        case .counted(let lists, let rows): progress.begin("copying \(lists) lists", total: rows, unit: .items("rows"))
        case .copied(_, let rows): progress.advance(to: rows)
        case .catchingUp(let pass, let lists): progress.begin("catch-up pass \(pass): \(lists) lists changed")
        case .fenced: progress.begin("fencing writes for the last copy")
        case .switched(let seconds, let lists):
            progress.begin("switched the placement; \(lists) lists copied under a fence of \(milliseconds(seconds)) ms")
        case .dropped(let lists, let rows): progress.begin("removed the source's copy: \(lists) lists, \(rows) rows")
        }
    }

    private static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }
}
