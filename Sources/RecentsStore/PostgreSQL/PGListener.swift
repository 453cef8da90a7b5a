import Glibc
import Synchronization
import SystemSupport

/// The one `LISTEN` connection of an instance: turns other instances' commit notifications into
/// `onCommit` calls, so long-polls parked here wake when a list changes anywhere. (They may reach
/// `onCommit` after a later commit of this instance: consumers keep the larger version.)
///
/// Notifications only hurry wake-ups; answers never depend on them (a lost one, e.g. while the
/// connection is re-established with backoff, delays a wake-up until the next re-check). The
/// thread waits on the socket for at most `tick`, so `stop()` ends it within that time.
final class PGListener: Sendable {
    /// The longest the thread sleeps before looking at `stopped`.
    static let tick: Int32 = 250

    private let stopped = StopFlag()
    private let thread: JoinableThread

    init(connection: PGConnection, shared: StoreShared, instance: PGInstance) {
        let stopped = self.stopped
        let box = Transfer(connection)
        thread = startThread(named: "recents-pglisten") {
            guard let connection = box.take() else { return }
            PGListener.run(link: PGLink(connection), shared: shared, instance: instance, stopped: stopped)
        }
    }

    /// Ends the thread (within `tick`) and waits for it.
    func stop() {
        stopped.value.store(true, ordering: .releasing)
        if !isStoreThread { thread.join() }
    }

    private static func run(link: PGLink, shared: StoreShared, instance: PGInstance, stopped: StopFlag) {
        var listening = false
        while !stopped.value.load(ordering: .acquiring) {
            do {
                let connection = try link.usable()
                if !listening {
                    try connection.execute("LISTEN \(instance.channel)")
                    listening = true
                }
                var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, tick) > 0 else { continue }
                var versions: [String: Int64] = [:]
                let own = instance.writerPID.load(ordering: .relaxed)
                for notification in try connection.notifications()
                where notification.channel == instance.channel && notification.sender != own {
                    versions.merge(PGNotifications.parse(notification.payload)) { max($0, $1) }
                }
                if !versions.isEmpty, let onCommit = shared.onCommit.withLock({ $0 }) { onCommit(versions) }
            } catch {
                // Lost: the next round reconnects (with backoff) and listens again.
                listening = false
                var none = pollfd(fd: -1, events: 0, revents: 0)
                _ = poll(&none, 0, tick)
            }
        }
    }
}

/// A flag one thread sets and another polls (a class, so a thread's closure can share it).
final class StopFlag: Sendable {
    let value = Atomic(false)
}

/// What the writer and the listener of one instance share: the channel of the database, and the
/// writer's backend, whose own notifications the listener skips (its commits reached `onCommit`
/// already, in order).
final class PGInstance: Sendable {
    let channel: String
    let writerPID = Atomic<Int32>(0)

    init(epoch: String) { channel = PGNotifications.channel(epoch: epoch) }
}
