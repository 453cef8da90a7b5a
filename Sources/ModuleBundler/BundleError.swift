/// Why a set of modules cannot be bundled: the build stops with it rather than ship a bundle that
/// behaves differently from its modules.
public struct BundleError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// A comment, string, template or regular expression that does not end.
        case unreadable
        /// An `import` or `export` of a form the bundler does not rewrite (default, namespace,
        /// side-effect, dynamic, `import.meta`, re-exports, `let`/`var` bindings).
        case unsupported
        /// An import of a file that is not among the modules, or not a relative `.js` path.
        case missingModule
        /// A name imported that its module does not export.
        case missingExport
        /// Modules that import each other.
        case cycle
    }

    public var kind: Kind
    /// The module at fault (its path among the files), and the line, when there is one.
    public var file: String
    public var line: Int?
    public var detail: String

    init(_ kind: Kind, _ detail: String, file: String = "", line: Int? = nil) {
        self.kind = kind
        self.detail = detail
        self.file = file
        self.line = line
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return place.isEmpty ? detail : "\(place): \(detail)"
    }
}
