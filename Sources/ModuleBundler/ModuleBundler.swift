/// One ES module made from an entry module and every module it imports, so a page loads its
/// script in one request instead of one round trip per level of imports.
///
/// Each module's body runs in its own function scope, in the order a browser evaluates them (each
/// module after the modules it imports, depth first, in import order, once); its exports are the
/// object that scope returns, and its imports read the earlier scopes' objects. That is exact for
/// the forms `ModuleSource` accepts: every export is a declaration evaluated before any importer
/// runs (no `let` reassigned later, no cycles), so a copy of a binding equals the live binding. No
/// renaming, no minifying: the bundle reads as its modules do, and each keeps its line numbers
/// after a `// path` line.
public enum ModuleBundler {
    /// A file of the folder: its path (`/`-separated, relative) and bytes.
    public struct File: Sendable {
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// The bundle of `entry` (a path among `files`) and everything it imports.
    /// - Throws: `BundleError` for a form it does not rewrite, a missing module or export, a cycle.
    public static func bundle(entry: String, files: [File]) throws(BundleError) -> [UInt8] {
        let byPath = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        var order: [ModuleSource] = []
        var parsed: [String: ModuleSource] = [:]
        var visiting: [String] = []
        try visit(entry, byPath: byPath, parsed: &parsed, visiting: &visiting, order: &order)

        var bindings: [String: String] = [:]
        for module in order.dropLast() {
            var name = "__bundle_" + String(module.path.dropLast(3).map { $0.isLetter || $0.isNumber ? $0 : "_" })
            while bindings.values.contains(name) { name += "_" }
            bindings[module.path] = name
        }
        var text = """
            // \(entry) and the modules it imports, made into one module at build time by embed-files
            // (Sources/ModuleBundler): each module's body in its own function scope, in the order a
            // browser runs them, its imports read from the scopes before it. Do not edit; edit the modules.

            """
        for module in order {
            let body = module.body { statement in
                bindings[resolve(statement.specifier, from: module.path) ?? ""] ?? "undefined"
            }
            let head = bindings[module.path].map { "const \($0) = (() => {" } ?? "(() => {"
            text += head + "\n// \(module.path)\n" + body
            if !body.hasSuffix("\n") { text += "\n" }
            if bindings[module.path] != nil { text += "return { \(module.exports.joined(separator: ", ")) };\n" }
            text += "})();\n"
        }
        return Array(text.utf8)
    }

    /// Parses `path` and, first, the modules it imports (depth first, in import order, once).
    private static func visit(
        _ path: String, byPath: [String: [UInt8]], parsed: inout [String: ModuleSource], visiting: inout [String],
        order: inout [ModuleSource]
    ) throws(BundleError) {
        if parsed[path] != nil { return }
        if let start = visiting.firstIndex(of: path) {
            let loop = (visiting[start...] + [path]).joined(separator: " → ")
            throw BundleError(.cycle, "modules import each other: \(loop)", file: path)
        }
        guard let bytes = byPath[path] else { throw BundleError(.missingModule, "no module \(path)") }
        let module = try ModuleSource(path: path, source: bytes)
        visiting.append(path)
        for statement in module.imports {
            guard let target = resolve(statement.specifier, from: path), byPath[target] != nil else {
                throw BundleError(
                    .missingModule, "'\(statement.specifier)' is not a module of the folder (a relative .js path)",
                    file: path, line: statement.line)
            }
            try visit(target, byPath: byPath, parsed: &parsed, visiting: &visiting, order: &order)
            let exported = Set(parsed[target]?.exports ?? [])
            for name in statement.names where !exported.contains(name.imported) {
                throw BundleError(
                    .missingExport, "'\(name.imported)' is not exported by \(target)", file: path, line: statement.line)
            }
        }
        visiting.removeLast()
        parsed[path] = module
        order.append(module)
    }

    /// The path a relative specifier (`./x.js`, `../x.js`) names from the module at `path`; nil for
    /// a bare name, a URL, an absolute path, one that is not `.js`, or one that climbs out of the folder.
    static func resolve(_ specifier: String, from path: String) -> String? {
        guard specifier.hasPrefix("./") || specifier.hasPrefix("../"), specifier.hasSuffix(".js") else { return nil }
        var parts = path.split(separator: "/").dropLast().map(String.init)
        for part in specifier.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                guard parts.popLast() != nil else { return nil }
                continue
            }
            parts.append(String(part))
        }
        return parts.joined(separator: "/")
    }
}
