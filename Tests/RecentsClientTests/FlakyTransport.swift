import Foundation
import RecentsClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A link between a client and a live server that can be cut, or lose the answer to a request
/// the server has already carried out, and that counts what reached the server under each key.
///
/// Until the server honours `Idempotency-Key` on every write (clients contract item 2; see
/// /work/briefs/STATUS.md), it also keeps that promise itself: it remembers each key's first 2xx
/// answer with the request's target and body and replays it (with `Idempotent-Replayed: true`)
/// without forwarding, and answers 422 `idempotency-key-reused` for the same key with another
/// request. Set `emulatesIdempotency` to false once the server does it.
final class FlakyTransport: RecentsTransport {
    /// What happens to the next request.
    enum Mode: Sendable {
        /// Forwarded, answer returned.
        case online
        /// Not forwarded: a transport error, as with no network.
        case offline
        /// Forwarded, then the answer is lost (a transport error): the server wrote, the client never heard.
        case dropReply
    }

    private struct Remembered {
        var target: String
        var body: Data?
        var response: TransportResponse
    }

    private struct State {
        var mode = Mode.online
        var remembered: [String: Remembered] = [:]
        var writes: [String: Int] = [:]
        var keysSent: [String] = []
    }

    static let emulatesIdempotency = true

    private let inner: any RecentsTransport
    private let state = Locked(State())
    private let cutOff: AsyncStream<String>.Continuation
    /// The keys of requests refused because the link was down, as they happen.
    let refusals: AsyncStream<String>

    /// A link over `inner` (the real network).
    init(_ inner: any RecentsTransport) {
        self.inner = inner
        (refusals, cutOff) = AsyncStream.makeStream(of: String.self)
    }

    /// What happens to the following requests (`dropReply` applies to the next one only).
    var mode: Mode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }

    /// How many times a request under `key` reached the server and was written (2xx, not replayed).
    func writes(under key: String) -> Int { state.withLock { $0.writes[key] ?? 0 } }

    /// Every `Idempotency-Key` sent, in order, retries included.
    var keysSent: [String] { state.withLock { $0.keysSent } }

    func send(_ request: TransportRequest) async throws(RecentsClientError) -> TransportResponse {
        let key = request.header("Idempotency-Key")
        let target = "\(request.method) \(request.url.absoluteString)"
        let (mode, replay) = state.withLock { state -> (Mode, TransportResponse?) in
            let mode = state.mode
            if state.mode == .dropReply { state.mode = .online }
            guard mode != .offline, let key else { return (mode, nil) }
            state.keysSent.append(key)
            guard Self.emulatesIdempotency, let first = state.remembered[key] else { return (mode, nil) }
            if first.target == target && first.body == request.body {
                var replay = first.response
                replay.headers.append(("Idempotent-Replayed", "true"))
                return (mode, replay)
            }
            let body = #"{"type":"idempotency-key-reused","title":"Idempotency key reused","status":422}"#
            return (mode, TransportResponse(status: 422, body: Data(body.utf8)))
        }
        if mode == .offline {
            cutOff.yield(key ?? "")
            throw .transport("\(request.method) \(request.url.path): the link is down")
        }
        let response: TransportResponse
        if let replay {
            response = replay
        } else {
            response = try await inner.send(request)
            if let key, (200..<300).contains(response.status) {
                state.withLock { state in
                    state.writes[key, default: 0] += 1
                    state.remembered[key] = Remembered(target: target, body: request.body, response: response)
                }
            }
        }
        if mode == .dropReply { throw .transport("\(request.method) \(request.url.path): the answer was lost") }
        return response
    }

    func stream(_ request: TransportRequest, capacity: Int) -> TransportStream {
        inner.stream(request, capacity: capacity)
    }
}

extension LiveServer {
    /// A client of this server over a `FlakyTransport`, and the transport.
    func flakyClient() -> (RecentsClient, FlakyTransport) {
        let transport = FlakyTransport(URLSessionTransport(session: URLSession(configuration: .ephemeral)))
        return (RecentsClient(baseURL: url, transport: transport), transport)
    }
}
