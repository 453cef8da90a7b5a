import Glibc
import Synchronization
import SystemSupport

/// The one `LISTEN` connection of an instance: turns other instances' commit notifications into
/// `CommitObserver.storeCommitted` calls, so long-polls parked here wake when a list changes
/// anywhere. (They may arrive after a later commit of this instance: observers keep the larger version.)
///
/// Notifications only hurry wake-ups; answers never depend on them. One lost (e.g. while the
/// connection is re-established) is made up for by the re-check: at least every
/// `recheckInterval`, and right after `LISTEN` is (re)issued, the thread looks up the current
/// versions of the lists watched here (`CommitObserver.watchedLists`, one query for all of them) and
/// reports those that moved past what their watchers saw. The thread waits on the
/// socket for at most `tick`, so `stop()` ends it within that time.
///
/// While the database is away the thread is what keeps trying to reach it (`PGReconnects`: every
/// 100-250 ms), even when nothing reads or writes: once it is back, the re-check wakes streams and
/// long-polls whose lists moved during the outage (on another instance, or on the new primary).
final class PGListener: Sendable {
    /// The longest the thread sleeps before looking at `stopped` (milliseconds).
    static let tick: Int32 = 250
    /// How often watched lists are looked up in the database (issue 14: at least every 5 s).
    static let recheckInterval: Duration = .seconds(5)

    private let stopped = StopFlag()
    private let thread: JoinableThread

    init(connection: PGConnection, shared: StoreShared, instance: PGInstance, recheckInterval: Duration) {
        let stopped = self.stopped
        let link = PGLink(connection, role: "listener", logger: shared.logger, reconnects: instance.reconnects)
        thread = startThread(named: "recents-pglisten", owning: link) { link in
            PGListener.run(
                link: link, shared: shared, instance: instance, recheckInterval: recheckInterval, stopped: stopped)
        }
    }

    /// Ends the thread (within `tick`) and waits for it.
    func stop() {
        stopped.value.store(true, ordering: .releasing)
        if !isStoreThread { thread.join() }
    }

    private static func run(
        link: PGLink, shared: StoreShared, instance: PGInstance, recheckInterval: Duration, stopped: StopFlag
    ) {
        var listening = false
        /// The connection `LISTEN` went out on (`PGLink.generation`): a new one listens again.
        var listenedOn = -1
        var recheckAt = ContinuousClock.now
        while !stopped.value.load(ordering: .acquiring) {
            do {
                let connection = try link.usable()
                if !listening || listenedOn != link.generation {
                    try connection.execute("LISTEN \(instance.channel)")
                    listening = true
                    listenedOn = link.generation
                    // Whatever was notified while nobody listened here is lost: look now.
                    recheckAt = ContinuousClock.now
                }
                let now = ContinuousClock.now
                var versions: [String: Int64] = [:]
                if now >= recheckAt {
                    versions = try recheck(connection, shared: shared)
                    recheckAt = now + recheckInterval
                } else {
                    // The query above may have read notifications already; only then skip the wait.
                    var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
                    let untilRecheck = Int32(clamping: SystemClock.nanoseconds(recheckAt - now) / 1_000_000 + 1)
                    guard poll(&descriptor, 1, min(tick, untilRecheck)) > 0 else { continue }
                }
                let own = instance.writerPIDs.withLock { $0 }
                for notification in try connection.notifications()
                where notification.channel == instance.channel && !own.contains(notification.sender) {
                    versions.merge(PGNotifications.parse(notification.payload)) { max($0, $1) }
                }
                if !versions.isEmpty, let observer = shared.commitObserver { observer.storeCommitted(versions) }
            } catch {
                // Lost: the next round reconnects when its turn comes, listens again and re-checks.
                if let error = error as? PGError { link.failed(error) }
                if listening {
                    shared.logger.warn("stopped listening for other instances' commits", [("error", "\(error)")])
                }
                listening = false
                let wait = max(SystemClock.nanoseconds(link.untilNextTry) / 1_000_000, 50)
                var none = pollfd(fd: -1, events: 0, revents: 0)
                _ = poll(&none, 0, Int32(clamping: min(wait, UInt64(tick))))
            }
        }
    }

    /// The current version of each watched list that moved past what its watchers saw, from one
    /// indexed query (`lists.name` is unique).
    static func recheck(_ connection: PGConnection, shared: StoreShared) throws -> [String: Int64] {
        guard let observer = shared.commitObserver else { return [:] }
        let watched = observer.watchedLists()
        guard !watched.isEmpty else { return [:] }
        let result = try connection.query(
            "SELECT name, version FROM lists WHERE name = ANY($1::text[])", PGArray(watched.keys))
        var moved: [String: Int64] = [:]
        for row in 0..<result.count {
            let list = result.string(row, 0)
            let version = try result.int64(row, 1)
            if let seen = watched[list], version > seen { moved[list] = version }
        }
        return moved
    }
}

/// A flag one thread sets and another polls (a class, so a thread's closure can share it).
final class StopFlag: Sendable {
    let value = Atomic(false)
}

/// What the writers and the listener of one instance share: the channel of the database, the
/// writers' backends, whose own notifications the listener skips (their commits reached
/// observer already), and the way back after a lost connection (the readers share it too).
final class PGInstance: Sendable {
    let channel: String
    /// The backend process id of each writer connection, by writer index (0 until it connects).
    let writerPIDs: Mutex<[Int32]>
    let reconnects: PGReconnects

    init(epoch: String, writers: Int, reconnects: PGReconnects) {
        channel = PGNotifications.channel(epoch: epoch)
        writerPIDs = Mutex(Array(repeating: 0, count: max(1, writers)))
        self.reconnects = reconnects
    }

    /// Records that writer `index` now sends from backend `pid` (a reconnect changes it).
    func setWriterPID(_ pid: Int32, of index: Int) {
        writerPIDs.withLock { pids in
            if pids.indices.contains(index), pids[index] != pid { pids[index] = pid }
        }
    }
}
