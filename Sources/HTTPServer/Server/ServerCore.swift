import Synchronization
import SystemSupport

/// Handles one request: respond at once, park the responder and respond later from any thread,
/// or start a stream; never block.
public typealias HTTPHandler = @Sendable (HTTPRequest, HTTPResponder) -> Void

/// Configuration and counters shared by all loops (immutable or atomic, hence `Sendable`).
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let logger: Logger
    let handler: HTTPHandler
    let limits: RequestParser.Limits
    let openConnections = Atomic<Int>(0)
    let parkedCount = Atomic<Int>(0)
    let streamCount = Atomic<Int>(0)
    let draining = Atomic<Bool>(false)
    /// Bytes of `HTTPServerConfiguration.maxBodyMemory` that requests hold now.
    let bodyBytes = Atomic<Int>(0)
    let requestIdPrefix: String
    let scanIntervalNanos: UInt64
    let headTimeoutNanos: UInt64
    let idleTimeoutNanos: UInt64
    let bodyTimeoutNanos: UInt64
    let lingerNanos: UInt64

    init(configuration: HTTPServerConfiguration, logger: Logger, handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.logger = logger
        self.handler = handler
        limits = RequestParser.Limits(
            maxHeadBytes: configuration.maxHeadBytes, maxURIBytes: configuration.maxURIBytes,
            maxBodyBytes: configuration.maxBodyBytes)
        requestIdPrefix = String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 36) + "-"
        headTimeoutNanos = Self.nanos(configuration.headReadTimeout)
        idleTimeoutNanos = Self.nanos(configuration.idleTimeout)
        bodyTimeoutNanos = Self.nanos(configuration.bodyTimeout)
        // Scan often enough that a timeout fires within ~25% of its value, at most every 250 ms.
        scanIntervalNanos = max(
            5_000_000, min(250_000_000, min(headTimeoutNanos, idleTimeoutNanos, bodyTimeoutNanos) / 4))
        lingerNanos = min(1_000_000_000, headTimeoutNanos)
    }

    /// Takes `bytes` of the body budget; false (nothing taken) when that would exceed it.
    func reserveBody(_ bytes: Int) -> Bool {
        let budget = configuration.maxBodyMemory
        var held = bodyBytes.load(ordering: .relaxed)
        while true {
            guard held + bytes <= budget else { return false }
            let (exchanged, original) = bodyBytes.compareExchange(
                expected: held, desired: held + bytes, ordering: .relaxed)
            if exchanged { return true }
            held = original
        }
    }

    /// A timeout in nanoseconds, at least 1 ms.
    static func nanos(_ duration: Duration) -> UInt64 { max(1_000_000, SystemClock.nanoseconds(duration)) }
}
