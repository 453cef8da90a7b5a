/// Where a responder's answer goes: the event loop of its connection, or an in-process exchange
/// (`InProcessConnection`). Every method may be called from any thread.
protocol ResponseChannel: AnyObject, Sendable {
    /// Whether the caller runs on the thread that owns the channel, so a stream's chunk may go out
    /// at once instead of through a mailbox.
    var isCurrentThread: Bool { get }
    /// Sends a whole answer.
    func respond(_ responder: HTTPResponder, _ response: HTTPResponse)
    /// Sends a stream's head; its body follows through `streamWrite`.
    func startStream(_ stream: HTTPStream, _ response: HTTPResponse)
    /// Sends one chunk of an open stream (`direct`: the caller is on the channel's thread and
    /// nothing of the stream can still wait in a mailbox).
    func streamWrite(_ stream: HTTPStream, _ bytes: [UInt8], direct: Bool)
    /// Ends a stream's body.
    func streamFinish(_ stream: HTTPStream, direct: Bool)
    /// Runs `work` on the channel's thread, with `responder` as the one being answered there.
    func run(_ work: @escaping @Sendable () -> Void, for responder: HTTPResponder)
    /// Keeps `memo` for the later requests of `responder`'s connection.
    func remember(_ memo: (any AnyObject & Sendable)?, for responder: HTTPResponder)
    /// A request now waits for an answer from another thread (+1), or got it (-1).
    func parkedChanged(by delta: Int)
}

extension EventLoop: ResponseChannel {
    func respond(_ responder: HTTPResponder, _ response: HTTPResponse) {
        // Fast path: answering during the handler call on the connection's own loop thread writes directly.
        if isCurrentThread && currentResponder === responder {
            complete(responder, response)
        } else {
            enqueue(.respond(responder, response))
        }
    }

    func startStream(_ stream: HTTPStream, _ response: HTTPResponse) {
        if isCurrentThread && currentResponder === stream.responder {
            openStream(stream, response)
        } else {
            enqueue(.startStream(stream, response))
        }
    }

    func streamWrite(_ stream: HTTPStream, _ bytes: [UInt8], direct: Bool) {
        if direct { streamWrite(stream, bytes) } else { enqueue(.streamWrite(stream, bytes)) }
    }

    func streamFinish(_ stream: HTTPStream, direct: Bool) {
        if direct { streamFinish(stream) } else { enqueue(.streamFinish(stream)) }
    }

    func run(_ work: @escaping @Sendable () -> Void, for responder: HTTPResponder) {
        // On the loop already (a completion called back inside some handler), running at once
        // keeps today's order; respond then chooses between writing and queueing as always.
        if isCurrentThread || !enqueue(.run(responder, work)) { work() }
    }

    func remember(_ memo: (any AnyObject & Sendable)?, for responder: HTTPResponder) {
        // The connection is this loop's alone: it is touched only on its thread, while its request
        // is being handled (any later, it may already serve another request or another client).
        guard isCurrentThread, currentResponder === responder, let conn = connection(responder.connection) else {
            return
        }
        conn.memo = memo
    }

    func parkedChanged(by delta: Int) {
        core.parkedCount.add(delta, ordering: .relaxed)
    }
}
