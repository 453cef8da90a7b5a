import Glibc
import RecentsCompression

// Measurements for issue 23's event-stream decision and the Accept-Encoding parser; run in release:
//   swift build -c release --product compression-bench
//   python3 Benchmarks/compression.py          (the whole table, one process per setting)
//   .build/release/compression-bench stream gzip 6 12 5 [encoders] [events]
//   .build/release/compression-bench stream br 5 14 [encoders] [events]
//   .build/release/compression-bench negotiate ["gzip, deflate, br, zstd" [ITERATIONS]]
//   .build/release/compression-bench oneshot [BYTES]      (a rows-shaped body coded at each level)
// A stream line: coding, setting, first event bytes (coded, identity), steady-state mean bytes per
// event (coded, identity; events 101-1000 of one stream), µs of CPU to code one event, encoders opened,
// RSS growth per encoder after one event and after `events` events each.

func usage() -> Never {
    print("usage: compression-bench stream gzip LEVEL WBITS MEMLEVEL [N] [EVENTS]")
    print("       compression-bench stream br QUALITY LGWIN [N] [EVENTS] | stream identity")
    print("       compression-bench negotiate [FIELD [ITERATIONS]]")
    print("       compression-bench oneshot [BYTES]")
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let numbers = arguments.dropFirst(2).compactMap { Int($0) }
switch (arguments.first, arguments.dropFirst().first) {
case ("stream", "gzip") where numbers.count >= 3:
    var settings = StreamingSettings.lowMemory
    (settings.gzipLevel, settings.gzipWindowBits, settings.gzipMemoryLevel) = (numbers[0], numbers[1], numbers[2])
    StreamBench(
        coding: .gzip, settings: settings, encoders: numbers.count > 3 ? numbers[3] : 10_000,
        eventsPerEncoder: numbers.count > 4 ? numbers[4] : 30, memoryCap: 4 << 30
    ).run()
case ("stream", "br") where numbers.count >= 2:
    var settings = StreamingSettings.lowMemory
    (settings.brotliQuality, settings.brotliWindow) = (numbers[0], numbers[1])
    StreamBench(
        coding: .br, settings: settings, encoders: numbers.count > 2 ? numbers[2] : 10_000,
        eventsPerEncoder: numbers.count > 3 ? numbers[3] : 30, memoryCap: 4 << 30
    ).run()
case ("stream", "identity"):
    StreamBench(
        coding: .identity, settings: .lowMemory, encoders: 0, eventsPerEncoder: 1, memoryCap: 0
    ).run()
case ("oneshot", _):
    OneShotBench.run(bytes: arguments.count > 1 ? Int(arguments[1]) ?? 15_400 : 15_400)
case ("negotiate", _):
    NegotiationBench.run(
        field: arguments.count > 1 ? arguments[1] : "gzip, deflate, br, zstd",
        iterations: arguments.count > 2 ? Int(arguments[2]) ?? 2_000_000 : 2_000_000)
default:
    usage()
}
