import HTTPServer
import SystemSupport

/// How a flag's text becomes a typed value and back: the parse names the rule it checks in its error.
struct FlagValue<Value> {
    /// Reads `raw`; a text that breaks the rule is a usage error naming the flag or variable.
    let parse: (RawValue) throws(UsageError) -> Value
    /// The value as a user would type it; nil for "no value".
    let format: (Value) -> String?
}

extension FlagValue where Value == String {
    /// Any text, even empty.
    static var string: FlagValue {
        FlagValue(parse: { $0.text }, format: { $0 })
    }

    /// Text that must not be empty (a path, an address to bind).
    static var nonEmpty: FlagValue {
        FlagValue(
            parse: { (raw: RawValue) throws(UsageError) in
                guard !raw.text.isEmpty else { throw UsageError(message: "\(raw.origin) must not be empty") }
                return raw.text
            }, format: { $0 })
    }

    /// Text of up to `maximum` bytes, each accepted by `allowed`; `rule` says which in errors.
    static func restricted(maximum: Int, rule: String, _ allowed: @escaping (UInt8) -> Bool) -> FlagValue {
        FlagValue(
            parse: { (raw: RawValue) throws(UsageError) in
                guard (1...maximum).contains(raw.text.utf8.count), raw.text.utf8.allSatisfy(allowed) else {
                    throw raw.invalid(must: rule)
                }
                return raw.text
            }, format: { $0 })
    }
}

extension FlagValue where Value == Int {
    /// A decimal integer within `range`.
    static func integer(_ range: ClosedRange<Int>) -> FlagValue {
        let rule =
            range.upperBound == Int.max
            ? "an integer of at least \(range.lowerBound)"
            : "an integer from \(range.lowerBound) to \(range.upperBound)"
        return FlagValue(
            parse: { (raw: RawValue) throws(UsageError) in
                guard let number = Int(raw.text), range.contains(number) else { throw raw.invalid(must: rule) }
                return number
            }, format: { String($0) })
    }

    /// A decimal integer of at least `minimum`.
    static func integer(atLeast minimum: Int) -> FlagValue { integer(minimum...Int.max) }

    /// Event-loop threads, where 0 (the default) means `HTTPServerConfiguration.defaultLoopCount`.
    static var loopCount: FlagValue {
        let integer = FlagValue.integer(0...1024)
        let automatic = HTTPServerConfiguration.defaultLoopCount
        return FlagValue(
            parse: { (raw: RawValue) throws(UsageError) in
                let count = try integer.parse(raw)
                return count == 0 ? automatic : count
            }, format: { $0 == automatic ? "0" : String($0) })
    }
}

extension FlagValue where Value == Duration {
    /// A positive, finite number of seconds (fractions allowed) no larger than `maximum`.
    static func seconds(maximum: Int) -> FlagValue {
        FlagValue(
            parse: { (raw: RawValue) throws(UsageError) in
                guard let number = Double(raw.text), number.isFinite, number > 0, number <= Double(maximum) else {
                    throw raw.invalid(must: "a number of seconds above 0 and at most \(maximum)")
                }
                return .milliseconds(Int64((number * 1000).rounded()))
            }, format: { secondsText($0) })
    }

    /// `10`, or `0.25` for a fraction: how the duration would be typed as a flag.
    static func secondsText(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard attoseconds != 0 else { return String(seconds) }
        return String(SystemClock.seconds(duration))
    }
}

extension FlagValue where Value == Logger.Level {
    /// The levels the logger knows, lowest first: what help and errors list.
    static let levels: [Logger.Level] = [.debug, .info, .warn, .error]

    /// A log level, parsed by `Logger.Level(string:)`; anything else is an error, never a fallback.
    static var logLevel: FlagValue {
        FlagValue(
            parse: { (raw: RawValue) throws(UsageError) in
                guard let level = Logger.Level(string: raw.text) else {
                    throw raw.invalid(must: "one of " + levels.map(\.description).joined(separator: ", "))
                }
                return level
            }, format: { $0.description })
    }
}

extension FlagValue {
    /// `wrapped`, or nil when absent; an empty text is "no value" (so `RECENTS_CORS_ORIGIN=` in a
    /// compose file means none). `none` is how help shows the absence (nil: "no default").
    static func optional<Wrapped>(_ wrapped: FlagValue<Wrapped>, none: String? = nil) -> FlagValue
    where Value == Wrapped? {
        FlagValue(
            parse: { (raw: RawValue) throws(UsageError) in raw.text.isEmpty ? nil : try wrapped.parse(raw) },
            format: { value in value.map { wrapped.format($0) } ?? none })
    }
}

extension FlagValue where Value: Equatable {
    /// One of the words of `table`, each naming a value; any other text is refused as "must be A or B".
    static func choice(_ table: [(word: String, value: Value)]) -> FlagValue {
        let rule = table.map(\.word).joined(separator: " or ")
        return FlagValue(
            parse: { (raw: RawValue) throws(UsageError) in
                guard let entry = table.first(where: { $0.word == raw.text }) else { throw raw.invalid(must: rule) }
                return entry.value
            }, format: { value in table.first { $0.value == value }?.word })
    }
}

extension FlagValue where Value == TrustedProxies {
    /// Comma-separated CIDR blocks (`10.0.0.0/8,::1`); empty trusts no proxy.
    static var trustedProxies: FlagValue {
        FlagValue(
            parse: { (raw: RawValue) throws(UsageError) in
                switch TrustedProxies.parse(raw.text) {
                case .success(let proxies): return proxies
                case .failure(let error):
                    throw raw.invalid(
                        must: "addresses or CIDR blocks separated by commas (10.0.0.0/8,2001:db8::/32); "
                            + "'\(error.entry)' is not one")
                }
            }, format: { $0.isEmpty ? nil : $0.text })
    }
}

extension FlagValue where Value == Bool {
    /// `true` or `false` (a switch given alone reads as `true`).
    static var boolean: FlagValue { .choice([("true", true), ("false", false)]) }
}
