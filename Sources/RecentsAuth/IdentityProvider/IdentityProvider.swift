import RecentsCrypto
import Synchronization
import SystemSupport

/// An identity provider whose tokens this server accepts (issue 25): the issuer they must name,
/// the audience they must be for, and the provider's public keys, read from a JWKS file and read
/// again when it changes, so keys rotate without a restart.
///
/// A file that becomes unreadable or malformed keeps the last good set (tokens keep working) and
/// is logged at error level, once per state of the file rather than on every check.
public final class IdentityProvider: Sendable {
    /// The exact `iss` its tokens carry.
    public let issuer: String
    /// The value their `aud` must hold.
    public let audience: String
    let file: KeySetFile
    let logger: Logger

    struct State {
        var keys: KeySet
        /// Bumped when a reload changes the keys; a cached token carries the one it was verified under.
        var generation: UInt64 = 1
        /// The file's stamp at the last attempt to read it, good or bad (nil: it could not be examined).
        var lastSeen: KeySetFile.Stamp?
        /// Why the file was last refused, until it reads well again (so it is logged once).
        var failure: String?
    }

    let state: Mutex<State>
    /// `state.generation`, readable without the lock: the check every cached token makes.
    let currentGeneration = Atomic<UInt64>(1)
    /// Held by whoever reads the file, so the watcher and SIGHUP never publish out of order.
    let reloading = Mutex<Void>(())
    let watcher = Mutex<KeySetWatcher?>(nil)

    /// A provider whose keys are in the JWKS file at `path`, read now.
    /// - Throws: `KeySetError` when the file cannot be read, is not a key set, or a key breaks a rule.
    public init(issuer: String, audience: String, keySetFile path: String, logger: Logger) throws(KeySetError) {
        self.issuer = issuer
        self.audience = audience
        self.file = KeySetFile(path: path)
        self.logger = logger
        let (bytes, stamp) = try file.read()
        let keys: KeySet
        do {
            keys = try KeySet.parse(bytes)
        } catch {
            throw KeySetError(description: "\(path): \(error)")
        }
        state = Mutex(State(keys: keys, lastSeen: stamp))
        if !keys.skipped.isEmpty {
            logger.info("key set: keys not for signatures left out", [("kids", keys.skipped.joined(separator: ","))])
        }
    }

    deinit {
        watcher.withLock { $0?.stop() }
    }

    /// The keys in use now.
    public var keys: KeySet { state.withLock { $0.keys } }

    /// The generation of the keys in use now: it grows whenever a reload changes them.
    public var generation: UInt64 { currentGeneration.load(ordering: .acquiring) }

    /// The key `kid` names now, and the generation it was found in.
    func key(_ kid: String) -> (key: JWK, generation: UInt64)? {
        state.withLock { state in state.keys.key(kid).map { ($0, state.generation) } }
    }

    /// `stamp` brought up to the current generation if its key is still the one `kid` names now,
    /// nil when the key was removed or replaced since (its tokens are no longer honoured).
    func refreshed(_ stamp: KeyStamp) -> KeyStamp? {
        if stamp.generation == generation { return stamp }
        return state.withLock { state in
            guard state.keys.key(stamp.kid)?.key === stamp.key else { return nil }
            return KeyStamp(kid: stamp.kid, key: stamp.key, generation: state.generation)
        }
    }

    /// Checks the file every `interval` on a thread of its own and reads it again when it
    /// changed, until `stopWatching()` (or the provider is gone).
    public func startWatching(every interval: Duration) {
        watcher.withLock { current in
            guard current == nil else { return }
            current = KeySetWatcher(provider: self, interval: interval)
        }
    }

    /// Stops the thread `startWatching` started and waits for it; harmless when there is none.
    public func stopWatching() {
        let running = watcher.withLock { current in
            defer { current = nil }
            return current
        }
        running?.stop()
    }
}

/// Which key verified a cached token, and under which generation of the set.
struct KeyStamp: Sendable {
    let kid: String
    /// The key object itself: a reload keeps the object of an unchanged key, so identity is sameness.
    let key: PublicKey
    let generation: UInt64
}
