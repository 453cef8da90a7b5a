import Synchronization
import SystemSupport

/// The placement file one instance follows: the placement in use, read again when the file's
/// stamp changes (checked every second by `startWatching`, or at once by `reload`). Every
/// instance reading the same file sees the same change within that second.
///
/// A file that cannot be read or parsed, or that adds, removes or re-points a shard, leaves the
/// placement in use and is logged: the shards are connected at start, so they change only with a
/// restart; what may change while running is which shard holds each bucket.
public final class PlacementFollower: Sendable {
    /// How often `startWatching` looks at the file.
    public static let interval = Duration.seconds(1)

    private let file: WatchedFile
    private let logger: Logger
    private let state: Mutex<(placement: Placement, stamp: WatchedFile.Stamp)>
    private let watcher = Mutex<PollingThread?>(nil)

    /// Reads the placement file at `path`.
    /// - Throws: `PlacementError` saying why the file cannot be read or used.
    public init(path: String, logger: Logger = Logger(level: .warn)) throws(PlacementError) {
        file = WatchedFile(path: path)
        self.logger = logger
        let (placement, stamp) = try Self.read(file)
        state = Mutex((placement, stamp))
    }

    deinit { stopWatching() }

    /// The placement in use.
    public var placement: Placement { state.withLock { $0.placement } }

    /// The index of the shard holding `list` in the placement in use.
    func shardIndex(of list: String) -> Int {
        shardIndex(ofBucket: Bucket.of(list))
    }

    /// The index of the shard holding `bucket` in the placement in use.
    func shardIndex(ofBucket bucket: Int) -> Int {
        state.withLock { $0.placement.shardIndex(ofBucket: bucket) }
    }

    /// Reads the file again if its stamp changed (always when `force`); returns whether the
    /// placement in use changed. A bad file keeps the placement in use and is logged.
    @discardableResult
    public func reload(force: Bool = false) -> Bool {
        let known = state.withLock { $0 }
        if !force, (try? file.stamp()) == known.stamp { return false }
        do {
            let (placement, stamp) = try Self.read(file)
            guard placement.shards.elementsEqual(known.placement.shards, by: { $0 == $1 }) else {
                throw PlacementError("the shards changed; restart every instance to add, remove or re-point a shard")
            }
            state.withLock { $0 = (placement, stamp) }
            guard placement != known.placement else { return false }
            logger.info("placement changed", [("file", file.path)])
            return true
        } catch {
            // Logged once per change of the file, not every second.
            if let stamp = try? file.stamp() { state.withLock { $0.stamp = stamp } }
            logger.error(
                "placement file not used; keeping the placement in use", [("file", file.path), ("error", "\(error)")])
            return false
        }
    }

    /// Checks the file every `interval` on a thread of its own until `stopWatching()`.
    public func startWatching(every interval: Duration = PlacementFollower.interval) {
        watcher.withLock { current in
            guard current == nil else { return }
            current = PollingThread(name: "recents-placement", interval: interval) { [weak self] in
                guard let self else { return false }
                reload()
                return true
            }
        }
    }

    /// Stops the thread `startWatching` started; harmless when there is none.
    public func stopWatching() {
        watcher.withLock { current in
            defer { current = nil }
            return current
        }?.stop()
    }

    private static func read(_ file: WatchedFile) throws(PlacementError) -> (Placement, WatchedFile.Stamp) {
        let read: (bytes: [UInt8], stamp: WatchedFile.Stamp)
        do {
            read = try file.read(limit: Placement.maximumBytes + 1)
        } catch {
            throw PlacementError("cannot read \(file.path): \(error)")
        }
        guard read.bytes.count <= Placement.maximumBytes else {
            throw PlacementError("\(file.path) is over \(Placement.maximumBytes) bytes")
        }
        do {
            return (try Placement.parse(read.bytes), read.stamp)
        } catch {
            throw PlacementError("\(file.path): \(error)")
        }
    }
}
