import Foundation
import RecentsCore

// recents-bench: times RecentsCore's diff and row building, and the API's JSONWriter.
// Prints a table and one JSON line per figure.
//   recents-bench diff [--sizes 1000,10000,100000] [--iterations N] [--stdlib-max 10000]
//   recents-bench rows [--calls 100000] [--iterations N]
//   recents-bench json [--iterations N]
//   recents-bench jwt [--iterations N]
//   recents-bench jwks [--iterations N]
//   recents-bench ratelimit [--iterations N]
//   recents-bench all

struct Options {
    var command = "all"
    var sizes = [1000, 10000, 100_000]
    var calls = 100_000
    var iterations: Int?
    var stdlibMax = 10_000
}

func parseOptions(_ arguments: [String]) -> Options? {
    var options = Options()
    var rest = arguments[...]
    if let first = rest.first, !first.hasPrefix("-") {
        options.command = first
        rest = rest.dropFirst()
    }
    guard ["all", "diff", "rows", "json", "jwt", "jwks", "ratelimit"].contains(options.command) else { return nil }
    while let flag = rest.popFirst() {
        guard let value = rest.popFirst() else { return nil }
        switch flag {
        case "--sizes":
            let sizes = value.split(separator: ",").compactMap { Int($0) }
            guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else { return nil }
            options.sizes = sizes
        case "--calls":
            guard let calls = Int(value), calls > 0 else { return nil }
            options.calls = calls
        case "--iterations":
            guard let iterations = Int(value), iterations > 0 else { return nil }
            options.iterations = iterations
        case "--stdlib-max":
            guard let limit = Int(value), limit >= 0 else { return nil }
            options.stdlibMax = limit
        default:
            return nil
        }
    }
    return options
}

func format(_ value: Double?) -> String {
    guard let value else { return "-" }
    return String(format: "%.3f", value)
}

func jsonNumber(_ value: Double?) -> String {
    guard let value else { return "null" }
    return String(format: "%.4f", value)
}

guard let options = parseOptions(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(
        Data(
            """
            usage: recents-bench diff [--sizes 1000,10000,100000] [--iterations N] [--stdlib-max N]
                   recents-bench rows [--calls 100000] [--iterations N]
                   recents-bench json [--iterations N]
                   recents-bench jwt [--iterations N]
                   recents-bench jwks [--iterations N]
                   recents-bench ratelimit [--iterations N]
                   recents-bench all

            """.utf8))
    exit(2)
}

var sink = 0
var jsonLines: [String] = []

if options.command == "all" || options.command == "diff" {
    let figures = try DiffBench.run(
        sizes: options.sizes, iterations: options.iterations, stdlibLimit: options.stdlibMax, sink: &sink)
    print("diff: 10% deletes, 10% inserts, 5% updates; general adds 1% moves (medians, ms; cpu = thread CPU time)")
    print("       n  path      ours_ms  ours_cpu  stdlib_ms  stdlib_cpu  stdlib/ours")
    for figure in figures {
        let ratio = figure.stdlib.map { $0.wall / figure.ours.wall }
        let cells = [
            String(figure.n).leftPad(8), figure.path.rightPad(8), format(figure.ours.wall).leftPad(8),
            format(figure.ours.cpu).leftPad(8), format(figure.stdlib?.wall).leftPad(9),
            format(figure.stdlib?.cpu).leftPad(10), (ratio.map { String(format: "%.1fx", $0) } ?? "-").leftPad(11),
        ]
        print(cells.joined(separator: "  "))
        jsonLines.append(
            #"{"bench":"diff","n":\#(figure.n),"path":"\#(figure.path)","median_ms":\#(jsonNumber(figure.ours.wall)),"#
                + #""cpu_median_ms":\#(jsonNumber(figure.ours.cpu)),"#
                + #""stdlib_median_ms":\#(jsonNumber(figure.stdlib?.wall)),"#
                + #""stdlib_cpu_median_ms":\#(jsonNumber(figure.stdlib?.cpu)),"ratio":\#(jsonNumber(ratio))}"#)
    }
    if let skipped = options.sizes.first(where: { $0 > options.stdlibMax }) {
        print(
            "  (stdlib skipped from n=\(skipped): Myers' O(n·d) time and O(d²) memory at 20% churn; --stdlib-max to force)"
        )
    }
}

if options.command == "all" || options.command == "rows" {
    let figures = RowsBench.run(calls: options.calls, iterations: options.iterations, sink: &sink)
    print("rows: RowBuilder over ordered calls (medians, ms)")
    print("   calls  limit      rows  median_ms    cpu_ms")
    for figure in figures {
        let limit = figure.limit.map(String.init) ?? "all"
        let cells = [
            String(figure.calls).leftPad(8), limit.leftPad(5), String(figure.rows).leftPad(8),
            format(figure.median.wall).leftPad(9), format(figure.median.cpu).leftPad(8),
        ]
        print(cells.joined(separator: "  "))
        let limitJSON = figure.limit.map(String.init) ?? "null"
        jsonLines.append(
            #"{"bench":"rows","calls":\#(figure.calls),"limit":\#(limitJSON),"rows":\#(figure.rows),"#
                + #""median_ms":\#(jsonNumber(figure.median.wall)),"cpu_median_ms":\#(jsonNumber(figure.median.cpu))}"#)
    }
}

if options.command == "all" || options.command == "json" {
    let figures = try JSONBench.run(iterations: options.iterations, sink: &sink)
    print("json: an initial transition of n rows, JSONWriter (medians, ms)")
    print("    rows     bytes   writer_ms   writer_cpu")
    for figure in figures {
        let cells = [
            String(figure.rows).leftPad(8), String(figure.bytes).leftPad(8), format(figure.writer.wall).leftPad(10),
            format(figure.writer.cpu).leftPad(11),
        ]
        print(cells.joined(separator: "  "))
        jsonLines.append(
            #"{"bench":"json","rows":\#(figure.rows),"bytes":\#(figure.bytes),"#
                + #""median_ms":\#(jsonNumber(figure.writer.wall)),"cpu_median_ms":\#(jsonNumber(figure.writer.cpu))}"#)
    }
}

/// Prints token-check figures as a table and queues their JSON lines under `bench`.
func report(_ figures: [JWTBench.Figure], bench: String, nameWidth: Int, into jsonLines: inout [String]) {
    print("  " + "operation".rightPad(nameWidth) + "  us_per_op  cpu_us_per_op")
    for figure in figures {
        let cpu = figure.median.cpu * 1000 / Double(figure.perBatch)
        let cells = [
            figure.name.rightPad(nameWidth), String(format: "%.2f", figure.microseconds).leftPad(10),
            String(format: "%.2f", cpu).leftPad(13),
        ]
        print("  " + cells.joined(separator: "  "))
        jsonLines.append(
            #"{"bench":"\#(bench)","operation":"\#(figure.name)","per_batch":\#(figure.perBatch),"#
                + #""median_ms":\#(jsonNumber(figure.median.wall / Double(figure.perBatch))),"#
                + #""us_per_op":\#(jsonNumber(figure.microseconds))}"#)
    }
}

if options.command == "all" || options.command == "jwt" {
    let figures = try JWTBench.run(iterations: options.iterations, sink: &sink)
    print("jwt: an HS256 bearer token (medians of batches; µs per token)")
    report(figures, bench: "jwt", nameWidth: 18, into: &jsonLines)
}

if options.command == "all" || options.command == "jwks",
    let figures = try JWKSBench.run(iterations: options.iterations, sink: &sink)
{
    print("jwks: a PyJWT token of each algorithm: signature alone, and verify+authorize as a request pays it")
    print("  (first use: cache off, the whole check; cached: the verified-token cache's hit; medians, µs per token)")
    report(figures, bench: "jwks", nameWidth: 47, into: &jsonLines)
}

if options.command == "all" || options.command == "ratelimit" {
    let figures = RateLimitBench.run(iterations: options.iterations, sink: &sink)
    print("ratelimit: RateLimiter.admit (medians of batches; ns per call of the measured thread)")
    for figure in figures {
        print("  " + figure.name.rightPad(64) + String(format: "%.1f", figure.nanoseconds).leftPad(9))
        jsonLines.append(
            #"{"bench":"ratelimit","operation":"\#(figure.name)","median_ms":\#(jsonNumber(figure.nanoseconds / 1e6)),"#
                + #""ns_per_op":\#(jsonNumber(figure.nanoseconds))}"#)
    }
}

// The checksum keeps the measured work observable to the optimiser.
print("checksum \(sink)")
for line in jsonLines { print(line) }

extension String {
    func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    func rightPad(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
