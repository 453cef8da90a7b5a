/// One ES module as the bundler reads it: its static named imports, the names its declarations
/// export, and its body rewritten to run in a function scope.
///
/// The forms understood are the ones the page's modules use: `import { a, b as c } from './x.js';`,
/// `import './x.js';` (a module run for its effect, such as the page's word tables), and `export` before `function`, `async function`, `class` or `const` (one name, no destructuring).
/// Any other `import` or `export` in code is an error naming its line, so a module written in a new
/// form fails the build instead of shipping a bundle that behaves differently.
struct ModuleSource {
    /// One `import { … } from '…';` statement, or `import '…';` (no names).
    struct Import {
        var specifier: String
        var names: [(imported: String, local: String)]
        /// Where the statement stands in the source (replaced whole in the body).
        var range: Range<Int>
        var line: Int
    }

    let path: String
    let source: [UInt8]
    private(set) var imports: [Import] = []
    private(set) var exports: [String] = []
    /// The `export` keywords (with the blanks after them), dropped from the body.
    private var exportKeywords: [Range<Int>] = []

    init(path: String, source: [UInt8]) throws(BundleError) {
        self.path = path
        self.source = source
        let code: [UInt8]
        do {
            code = try ScriptScanner.code(source)
        } catch {
            throw BundleError(error.kind, error.detail, file: path, line: error.line)
        }
        var reader = Reader(code: code, source: source, path: path)
        while let (word, start) = reader.nextWord() {
            guard word == "import" || word == "export" else { continue }
            guard !reader.followsDot(start) else { continue }  // a property named so: `x.import`
            guard start == 0 || code[start - 1] == 0x0A else {
                throw reader.unsupported("'\(word)' is not at the start of a line", at: start)
            }
            if word == "import" {
                imports.append(try reader.importStatement(at: start))
            } else {
                exports.append(try reader.exportedName(at: start))
                var end = start + 6
                while end < code.count && (code[end] == 0x20 || code[end] == 0x09) { end += 1 }
                exportKeywords.append(start..<end)
            }
        }
    }

    /// The body: each import replaced by `const { a, b: c } = <its module's binding>;` (as many
    /// lines as it had, so line numbers inside the module stay its own), each `export` dropped.
    func body(binding: (Import) -> String) -> String {
        var edits: [(range: Range<Int>, text: String)] = exportKeywords.map { ($0, "") }
        for statement in imports {
            let names = statement.names.map { $0.imported == $0.local ? $0.imported : "\($0.imported): \($0.local)" }
            let lines = source[statement.range].filter { $0 == 0x0A }.count
            // A module imported for its effect has run before this one: nothing to bind.
            let text = names.isEmpty ? "" : "const { \(names.joined(separator: ", ")) } = \(binding(statement));"
            edits.append((statement.range, text + String(repeating: "\n", count: lines)))
        }
        var out: [UInt8] = []
        out.reserveCapacity(source.count)
        var last = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            out += source[last..<edit.range.lowerBound]
            out += Array(edit.text.utf8)
            last = edit.range.upperBound
        }
        out += source[last...]
        return String(decoding: out, as: UTF8.self)
    }
}

/// Reads statements off a module's blanked code (`code`), its strings off the source.
private struct Reader {
    let code: [UInt8]
    let source: [UInt8]
    let path: String
    var index = 0

    func line(_ offset: Int) -> Int { code[..<offset].filter { $0 == 0x0A }.count + 1 }

    func unsupported(_ what: String, at offset: Int) -> BundleError {
        let end = code[offset...].firstIndex(of: 0x0A) ?? code.count
        let text = String(decoding: source[offset..<min(end, offset + 80)], as: UTF8.self)
        return BundleError(.unsupported, "\(what): \(text)", file: path, line: line(offset))
    }

    /// The next identifier or keyword of the code and its offset.
    mutating func nextWord() -> (String, Int)? {
        while index < code.count {
            guard ScriptScanner.isIdentifierByte(code[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < code.count && ScriptScanner.isIdentifierByte(code[index]) { index += 1 }
            return (String(decoding: code[start..<index], as: UTF8.self), start)
        }
        return nil
    }

    func followsDot(_ offset: Int) -> Bool {
        var k = offset - 1
        while k >= 0 && isSpace(code[k]) { k -= 1 }
        return k >= 0 && code[k] == 0x2E && !(k >= 2 && code[k - 1] == 0x2E && code[k - 2] == 0x2E)
    }

    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    mutating func skipSpace() {
        while index < code.count && isSpace(code[index]) { index += 1 }
    }

    mutating func expect(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < code.count, code[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func identifier() -> String? {
        skipSpace()
        let start = index
        while index < code.count && ScriptScanner.isIdentifierByte(code[index]) { index += 1 }
        guard index > start, !(code[start] >= 0x30 && code[start] <= 0x39) else { return nil }
        return String(decoding: code[start..<index], as: UTF8.self)
    }

    /// `import { a, b as c } from './x.js';` or `import './x.js';` starting at `start` (the keyword).
    mutating func importStatement(at start: Int) throws(BundleError) -> ModuleSource.Import {
        let form = "only `import { a, b as c } from './x.js';` and `import './x.js';` are bundled"
        index = start + 6
        var names: [(imported: String, local: String)] = []
        // The specifier is blanked in the code, so a side-effect import shows as a quote in the source.
        var peek = index
        while peek < source.count && isSpace(source[peek]) { peek += 1 }
        let sideEffect = peek < source.count && (source[peek] == 0x27 || source[peek] == 0x22)
        guard sideEffect || expect(0x7B) else { throw unsupported(form, at: start) }
        while !sideEffect && !expect(0x7D) {
            guard let imported = identifier() else { throw unsupported(form, at: start) }
            var local = imported
            let mark = index
            if identifier() == "as", let alias = identifier() {
                local = alias
            } else {
                index = mark
            }
            names.append((imported, local))
            if !expect(0x2C) {
                guard expect(0x7D) else { throw unsupported(form, at: start) }
                break
            }
        }
        guard sideEffect || identifier() == "from" else { throw unsupported(form, at: start) }
        // The specifier is blanked in the code: read it off the source.
        while index < source.count && isSpace(source[index]) { index += 1 }
        guard index < source.count, source[index] == 0x27 || source[index] == 0x22 else {
            throw unsupported(form, at: start)
        }
        let quote = source[index]
        let open = index + 1
        guard let close = source[open...].firstIndex(of: quote) else { throw unsupported(form, at: start) }
        index = close + 1
        guard expect(0x3B) else { throw unsupported("an import ends with ';'", at: start) }
        let specifier = String(decoding: source[open..<close], as: UTF8.self)
        return ModuleSource.Import(specifier: specifier, names: names, range: start..<index, line: line(start))
    }

    /// The name `export function|async function|class|const NAME` at `start` declares.
    mutating func exportedName(at start: Int) throws(BundleError) -> String {
        let form = "only `export` before function, async function, class or const NAME = is bundled"
        index = start + 6
        var keyword = identifier()
        if keyword == "async" { keyword = identifier() }
        switch keyword {
        case "function":
            _ = expect(0x2A)  // a generator's star
        case "class":
            break
        case "const":
            let mark = index
            guard identifier() != nil, expect(0x3D) else { throw unsupported(form, at: start) }
            index = mark
        default:
            throw unsupported(form, at: start)
        }
        guard let name = identifier() else { throw unsupported(form, at: start) }
        return name
    }
}
