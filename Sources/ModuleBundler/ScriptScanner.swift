/// The code of a JavaScript source with everything that is not code blanked: comments, the text of
/// strings and templates, and regular expression literals become spaces (line breaks kept), so a
/// search for a keyword finds only real tokens, at the offsets it has in the source.
///
/// A tokenizer, not a parser: it tells a regular expression from a division by the token before
/// the slash (a value ends before a division; an operator, a keyword such as `return`, or the start
/// of the file before a regular expression), as every JavaScript minifier's lexer does. That is
/// wrong only for a regular expression right after `)` or a division right after `}`, forms the
/// page's modules do not use; a source it cannot read to the end (an unterminated string,
/// comment, template or regular expression) is an error, never a guess.
enum ScriptScanner {
    /// `source` with comments, string and template text and regular expressions blanked.
    /// - Throws: `BundleError` (`unreadable`) for a construct that does not end.
    static func code(_ source: [UInt8]) throws(BundleError) -> [UInt8] {
        var scanner = Scan(source: source)
        try scanner.run()
        return scanner.out
    }

    /// Keywords after which a slash starts a regular expression (they take an operand).
    static let operandKeywords: Set<String> = [
        "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "instanceof",
        "yield", "await",
    ]

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x5F || byte == 0x24 || byte >= 0x80
    }
}

/// One pass over a source (the state of `ScriptScanner.code`).
private struct Scan {
    let source: [UInt8]
    var out: [UInt8]
    var index = 0
    /// The brace depth of the code, and the depth at which each open `${` of a template began.
    var depth = 0
    var templates: [Int] = []
    /// Whether the last token was a value (so a slash now divides), and the last word read.
    var afterValue = false
    var lastWord = ""

    init(source: [UInt8]) {
        self.source = source
        out = source
    }

    /// The line of an offset, for errors.
    func line(_ offset: Int) -> Int { source[..<min(offset, source.count)].filter { $0 == 0x0A }.count + 1 }

    mutating func blank(_ range: Range<Int>) {
        for k in range where source[k] != 0x0A { out[k] = 0x20 }
    }

    func byte(_ offset: Int) -> UInt8? { offset < source.count ? source[offset] : nil }

    mutating func run() throws(BundleError) {
        while index < source.count {
            let c = source[index]
            switch c {
            case 0x2F:  // "/"
                try slash()
            case 0x27, 0x22:  // ' "
                try string(quote: c)
            case 0x60:  // `
                try template(from: index + 1, opening: index)
            case 0x7B:  // {
                depth += 1
                punctuator()
            case 0x7D:  // }
                if let open = templates.last, open == depth {
                    templates.removeLast()
                    try template(from: index + 1, opening: index)
                } else {
                    depth -= 1
                    punctuator()
                }
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            default:
                if ScriptScanner.isIdentifierByte(c) {
                    word()
                } else {
                    punctuator()
                }
            }
        }
        if !templates.isEmpty {
            throw BundleError(.unreadable, "a template's ${ does not end", line: line(source.count))
        }
    }

    mutating func punctuator() {
        // `)` and `]` end a value; every other punctuator expects one.
        afterValue = source[index] == 0x29 || source[index] == 0x5D
        lastWord = ""
        index += 1
    }

    mutating func word() {
        let start = index
        while let b = byte(index), ScriptScanner.isIdentifierByte(b) { index += 1 }
        // A number's decimal point and exponent sign belong to it (`1.5`, `2e-3`).
        if source[start] >= 0x30 && source[start] <= 0x39 {
            while let b = byte(index),
                b == 0x2E || ScriptScanner.isIdentifierByte(b)
                    || ((b == 0x2B || b == 0x2D) && (source[index - 1] | 0x20) == 0x65)
            { index += 1 }
        }
        lastWord = String(decoding: source[start..<index], as: UTF8.self)
        afterValue = !ScriptScanner.operandKeywords.contains(lastWord)
    }

    mutating func slash() throws(BundleError) {
        let start = index
        if byte(index + 1) == 0x2F {
            while let b = byte(index), b != 0x0A { index += 1 }
            blank(start..<index)
            return
        }
        if byte(index + 1) == 0x2A {
            index += 2
            while index < source.count && !(source[index] == 0x2A && byte(index + 1) == 0x2F) { index += 1 }
            guard index < source.count else {
                throw BundleError(.unreadable, "a /* comment does not end", line: line(start))
            }
            index += 2
            blank(start..<index)
            return
        }
        if afterValue {
            punctuator()
            return
        }
        // A regular expression: to the closing slash outside a [class], then its flags.
        index += 1
        var inClass = false
        while true {
            guard let b = byte(index), b != 0x0A else {
                throw BundleError(.unreadable, "a regular expression does not end on its line", line: line(start))
            }
            if b == 0x5C {
                index += 2
                continue
            }
            index += 1
            if b == 0x5B {
                inClass = true
            } else if b == 0x5D {
                inClass = false
            } else if b == 0x2F && !inClass {
                break
            }
        }
        while let b = byte(index), ScriptScanner.isIdentifierByte(b) { index += 1 }
        blank(start..<index)
        afterValue = true
        lastWord = ""
    }

    mutating func string(quote: UInt8) throws(BundleError) {
        let start = index
        index += 1
        while true {
            guard let b = byte(index), b != 0x0A else {
                throw BundleError(.unreadable, "a string does not end on its line", line: line(start))
            }
            index += b == 0x5C ? 2 : 1
            if b == quote { break }
        }
        blank(start..<index)
        afterValue = true
        lastWord = ""
    }

    /// Template text from `offset` to its end (a backtick) or to a `${`, whose code the main loop
    /// reads until the matching `}` resumes the text here.
    mutating func template(from offset: Int, opening: Int) throws(BundleError) {
        index = offset
        while true {
            guard let b = byte(index) else {
                throw BundleError(.unreadable, "a template does not end", line: line(opening))
            }
            if b == 0x5C {
                index += 2
                continue
            }
            if b == 0x60 {
                index += 1
                blank(opening..<index)
                afterValue = true
                lastWord = ""
                return
            }
            if b == 0x24 && byte(index + 1) == 0x7B {
                index += 2
                blank(opening..<index)
                templates.append(depth)
                afterValue = false
                lastWord = ""
                return
            }
            index += 1
        }
    }
}
