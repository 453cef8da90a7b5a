import RecentsCompression

/// Nanoseconds per `Accept-Encoding` parse and choice, for a browser's field.
enum NegotiationBench {
    /// Parses `field` and picks among br, gzip and identity `iterations` times; prints ns per call
    /// of thread CPU time (median of 5 rounds).
    static func run(field: String, iterations: Int) {
        let available: [ContentCoding] = [.br, .gzip, .identity]
        var rounds: [Double] = []
        var sink = 0
        for _ in 0..<5 {
            // Thread CPU time: a busy neighbour on the shared machine does not count against the parser.
            let start = StreamBench.threadCPUNanoseconds()
            for _ in 0..<iterations {
                let choice = AcceptEncoding(field: field).preferred(among: available)
                sink &+= choice == .br ? 1 : 2
            }
            rounds.append(Double(StreamBench.threadCPUNanoseconds() - start) / Double(iterations))
        }
        rounds.sort()
        print(
            "accept-encoding\t\(field)\t\(Int(rounds[2].rounded())) ns per parse+choice (thread CPU, median of 5 x \(iterations))\t\(sink & 1)"
        )
    }
}
