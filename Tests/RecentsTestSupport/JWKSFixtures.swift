import Foundation

/// Tests/RecentsAuthTests/Fixtures/jwks-tokens.json, written by make-jwks-tokens.py with PyJWT and
/// `cryptography`: an initial key set, the set after a rotation, and tokens with the verdict each
/// set must give them.
public struct JWKSFixtures: Sendable {
    /// A token of the table: its verdict under each set ("accept" or a refusal's name).
    public struct Token: Sendable, CustomStringConvertible {
        public var name: String
        public var token: String
        public var initial: String
        public var rotated: String
        public var list: String
        public var scope: String
        public var description: String { name }
    }

    /// The instant the table's tokens are verified at.
    public var now: Int64
    public var issuer: String
    public var audience: String
    /// The key sets, as file contents.
    public var initial: Data
    public var rotated: Data
    public var tokens: [Token]
    /// Tokens valid until 2100 by name (`alice-es256`, `bob-es256`, `ops-admin`, `bad-sub`, ...).
    public var live: [String: String]

    /// Loaded once; a missing or malformed file stops the tests that use it with its reason.
    public static let shared: JWKSFixtures = {
        do { return try load() } catch { fatalError("RecentsAuthTests/Fixtures/jwks-tokens.json: \(error)") }
    }()

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../RecentsAuthTests/Fixtures/jwks-tokens.json").standardized

    private static func load() throws -> JWKSFixtures {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        let tokens = (root["tokens"] as? [[String: Any]] ?? []).map { entry in
            Token(
                name: entry["name"] as? String ?? "", token: entry["token"] as? String ?? "",
                initial: entry["initial"] as? String ?? "", rotated: entry["rotated"] as? String ?? "",
                list: entry["list"] as? String ?? "", scope: entry["scope"] as? String ?? "")
        }
        return JWKSFixtures(
            now: (root["now"] as? NSNumber)?.int64Value ?? 0, issuer: root["issuer"] as? String ?? "",
            audience: root["audience"] as? String ?? "",
            initial: try JSONSerialization.data(withJSONObject: root["initial"] ?? [:]),
            rotated: try JSONSerialization.data(withJSONObject: root["rotated"] ?? [:]), tokens: tokens,
            live: root["live"] as? [String: String] ?? [:])
    }

    /// A live token by name ("" when the fixtures lack it, which fails the test that sends it).
    public func live(_ name: String) -> String { live[name] ?? "" }

    /// Writes `set` to a new file in a new temporary directory and returns its path.
    public static func writeKeySet(_ set: Data) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "recents-jwks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("jwks.json").path
        try set.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Replaces the file at `path` with `contents` by a rename, as deploy tools update a file.
    public static func replace(_ path: String, with contents: Data) throws {
        let next = path + ".next"
        try contents.write(to: URL(fileURLWithPath: next))
        guard rename(next, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Removes the directory `writeKeySet` made for `path`.
    public static func remove(_ path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }
}
