import SystemSupport

/// What a reload of the key set file did.
public enum KeySetReload: Sendable, Hashable {
    /// The file looks as it did (or reads to the same keys): nothing changed.
    case unchanged
    /// New keys are in use: the `kid`s added, removed, and kept with new key material.
    case replaced(added: [String], removed: [String], changed: [String])
    /// The file could not be read or is not a valid set: the last good set stays in use.
    case failed(String)
}

extension IdentityProvider {
    /// Reads the file again when its stamp changed since the last attempt, or always when `force`
    /// (SIGHUP). A good file replaces the keys; a bad one keeps them and is logged at error level.
    @discardableResult
    public func reload(force: Bool = false) -> KeySetReload {
        reloading.withLock { _ in reloadLocked(force: force) }
    }

    private func reloadLocked(force: Bool) -> KeySetReload {
        let (lastSeen, failure) = state.withLock { ($0.lastSeen, $0.failure) }
        let stamp: KeySetFile.Stamp
        do {
            stamp = try file.stamp()
        } catch {
            return failed("cannot read \(file.path): \(error)", stamp: nil, known: failure, force: force)
        }
        if !force, stamp == lastSeen { return .unchanged }
        let parsed: KeySet
        let readStamp: KeySetFile.Stamp
        do {
            let (bytes, read) = try file.read()
            readStamp = read
            parsed = try KeySet.parse(bytes)
        } catch {
            return failed(error.description, stamp: stamp, known: failure, force: force)
        }
        let outcome = state.withLock { state -> KeySetReload in
            let old = state.keys
            let new = parsed.reusingKeys(of: old)
            state.lastSeen = readStamp
            state.failure = nil
            let added = new.kids.filter { old.entries[$0] == nil }
            let removed = old.kids.filter { new.entries[$0] == nil }
            let changed = new.kids.filter { kid in old.key(kid).map { $0.key !== new.key(kid)?.key } ?? false }
            guard !(added.isEmpty && removed.isEmpty && changed.isEmpty) else { return .unchanged }
            state.keys = new
            state.generation += 1
            // After the keys: a reader that sees the new generation finds the new keys under the lock.
            currentGeneration.store(state.generation, ordering: .releasing)
            return .replaced(added: added, removed: removed, changed: changed)
        }
        switch outcome {
        case .replaced(let added, let removed, let changed):
            logger.info(
                "key set reloaded",
                [
                    ("file", file.path), ("kids", parsed.kids.joined(separator: ",")),
                    ("added", added.joined(separator: ",")), ("removed", removed.joined(separator: ",")),
                    ("changed", changed.joined(separator: ",")),
                ])
        case .unchanged where failure != nil || force:
            logger.info(
                "key set read, keys unchanged", [("file", file.path), ("kids", parsed.kids.joined(separator: ","))])
        case .unchanged, .failed:
            break
        }
        return outcome
    }

    /// Records a refused file and logs it, unless the same refusal was already logged (the watcher
    /// checks every few seconds; one line per state of the file is loud enough, SIGHUP logs again).
    private func failed(
        _ reason: String, stamp: KeySetFile.Stamp?, known: String?, force: Bool
    ) -> KeySetReload {
        state.withLock { state in
            state.lastSeen = stamp
            state.failure = reason
        }
        if force || reason != known {
            let kids = keys.kids.joined(separator: ",")
            logger.error("key set file refused; keeping the last good key set", [("error", reason), ("kids", kids)])
        }
        return .failed(reason)
    }
}
