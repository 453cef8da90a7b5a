#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where an `ActionQueue` keeps the actions that wait for the server, so they survive a restart.
///
/// The queue calls it from its own actor, one call at a time, after every change: `save` gets
/// the whole list, oldest first. An app may keep them in its own database; `FileActionStore` is
/// the default.
public protocol ActionStore: Sendable {
    /// The actions saved last, oldest first (empty when nothing was ever saved).
    func load() throws -> [ListAction]
    /// Replaces what is saved with `actions`, durably enough to survive the app being killed.
    func save(_ actions: [ListAction]) throws
}

/// An `ActionStore` in one JSON file, replaced atomically on each save.
///
/// `Data.write(options: .atomic)` writes a temporary file beside it and renames it over the old
/// one, so a crash mid-save leaves either the old list or the new one, never a torn file. The
/// file is small (a few hundred bytes per waiting action) and rewritten only when the queue changes.
public struct FileActionStore: ActionStore {
    /// The file (`{"format": 1, "actions": [...]}`).
    public var url: URL

    /// A store in `url`; its directory must exist.
    public init(url: URL) {
        self.url = url
    }

    /// The file's layout; `format` lets a later client read an older file.
    private struct Document: Codable {
        var format: Int
        var actions: [ListAction]
    }

    /// The actions in the file, or none when there is no file yet.
    public func load() throws -> [ListAction] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let document = try JSONDecoder().decode(Document.self, from: Data(contentsOf: url))
        return document.actions
    }

    /// Writes `actions` to a temporary file and renames it over the old one.
    public func save(_ actions: [ListAction]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try encoder.encode(Document(format: 1, actions: actions)).write(to: url, options: .atomic)
    }
}
