import RecentsCompression

/// Size and CPU of one-shot coding at several levels, for a body shaped like `GET rows` (the
/// view cache's copies): what each level costs per cache fill and saves per answer.
enum OneShotBench {
    /// Codes about `bytes` of rows-shaped JSON at each setting and prints one line per setting.
    static func run(bytes: Int) {
        var events = SampleEvents()
        var body = Array("{\"list\":\"alice\",\"version\":1000,\"rows\":[".utf8)
        var version = 1
        while body.count < bytes {
            // The `row` object of an event is the shape of one row of `GET rows`.
            let event = events.event(version: version)
            if let start = find(Array("\"row\":".utf8), in: event),
                let end = find(Array(",\"directionHint\"".utf8), in: event)
            {
                body += event[(start + 6)..<end] + [UInt8(ascii: ",")]
            }
            version += 1
        }
        body[body.count - 1] = UInt8(ascii: "]")
        body += Array("}".utf8)
        let settings: [(String, ([UInt8]) -> [UInt8])] = [
            ("gzip level 1", { Gzip.encode($0, level: 1) }), ("gzip level 6", { Gzip.encode($0, level: 6) }),
            ("gzip level 9", { Gzip.encode($0, level: 9) }), ("br quality 1", { Brotli.encode($0, quality: 1) }),
            ("br quality 4", { Brotli.encode($0, quality: 4) }), ("br quality 5", { Brotli.encode($0, quality: 5) }),
            ("br quality 6", { Brotli.encode($0, quality: 6) }), ("br quality 9", { Brotli.encode($0, quality: 9) }),
            ("br quality 11", { Brotli.encode($0, quality: 11) }),
        ]
        print("body of \(body.count) bytes (\(version - 1) rows); CPU per coding, mean of 5")
        for (name, encode) in settings {
            var size = 0
            let start = StreamBench.threadCPUNanoseconds()
            let rounds = 5
            for _ in 0..<rounds { size = encode(body).count }
            let milliseconds = Double(StreamBench.threadCPUNanoseconds() - start) / Double(rounds) / 1e6
            let ratio = Double(size) / Double(body.count) * 100
            let tenths = Int((ratio * 10).rounded())
            let hundredths = Int((milliseconds * 100).rounded())
            let cpu = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) ms CPU"
            print("oneshot\t\(body.count)\t\(name)\t\(size)\t\(tenths / 10).\(tenths % 10)%\t\(cpu)")
        }
    }

    /// The first index of `pattern` in `bytes`.
    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return (0...(bytes.count - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }
}
