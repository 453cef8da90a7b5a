import Foundation

/// Content-hashed names for a folder of web files: each file's references to other files of the
/// folder (a module's imports, a stylesheet's `url()`, the page's `href`/`src`) are renamed to
/// those files' hashed names, `stem.<hash>.ext`, where the hash is of the file's rewritten bytes.
/// So a file's name changes exactly when it or anything it loads changes, and every hashed file
/// can be cached for good (`immutable`); only the page that names them is revalidated.
///
/// References the patterns do not see (a service worker registered by a string in code) keep
/// their stable names: such a file must keep its URL.
struct HashedNames {
    private let byPath: [String: ListedFile]
    private var rewritten: [String: [UInt8]] = [:]
    private var names: [String: String] = [:]
    private var visiting: Set<String> = []

    /// What references look like in each kind of file: (prefix)(reference)(suffix).
    private static let references: [String: NSRegularExpression] = {
        let patterns = [
            "js": #"((?:\bfrom|\bimport)\s*\(?\s*['"])(\.{0,2}/?[^'"]+\.js)(['"])"#,
            "css": #"(url\(\s*['"]?)([^'")]+)(['"]?\s*\))"#,
            "html": #"((?:href|src)=")([^"]+)(")"#,
        ]
        return patterns.mapValues { pattern in
            guard let regex = try? NSRegularExpression(pattern: pattern) else { fail("bad pattern \(pattern)") }
            return regex
        }
    }()

    init(_ files: [ListedFile]) {
        byPath = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `path`'s bytes with its references renamed.
    mutating func bytes(of path: String) -> [UInt8] {
        if let done = rewritten[path] { return done }
        guard let file = byPath[path] else { fail("\(path) is not in the folder") }
        guard visiting.insert(path).inserted else { fail("\(path) loads itself through its references") }
        defer { visiting.remove(path) }
        let ext = (path as NSString).pathExtension
        guard let pattern = Self.references[ext], let text = String(bytes: file.bytes, encoding: .utf8) else {
            rewritten[path] = file.bytes
            return file.bytes
        }
        let base = (path as NSString).deletingLastPathComponent
        var result = ""
        var last = text.startIndex
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
        for match in matches {
            guard let reference = Range(match.range(at: 2), in: text) else { continue }
            let ref = String(text[reference])
            let target = Self.normalized(base.isEmpty ? ref : base + "/" + ref)
            guard !ref.contains(":"), !ref.hasPrefix("/"), let target, byPath[target] != nil else { continue }
            result += text[last..<reference.lowerBound]
            result += Self.hashedReference(ref, hash: hash(of: target))
            last = reference.upperBound
        }
        result += text[last...]
        let bytes = Array(result.utf8)
        rewritten[path] = bytes
        return bytes
    }

    /// `path`'s hashed name, `dir/stem.<hash>.ext`.
    mutating func name(of path: String) -> String {
        if let done = names[path] { return done }
        let name = Self.hashedReference(path, hash: hash(of: path))
        names[path] = name
        return name
    }

    private mutating func hash(of path: String) -> String {
        let bytes = bytes(of: path)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `icons/app.svg` with hash `h` → `icons/app.h.svg`.
    private static func hashedReference(_ reference: String, hash: String) -> String {
        let ext = (reference as NSString).pathExtension
        let stem = (reference as NSString).deletingPathExtension
        return ext.isEmpty ? stem + "." + hash : stem + "." + hash + "." + ext
    }

    /// `a/./b/../c.js` → `a/c.js`; nil when it climbs out of the folder.
    private static func normalized(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                guard parts.popLast() != nil else { return nil }
                continue
            }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }
}
