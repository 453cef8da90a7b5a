import RecentsCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The state behind one `follow` stream: where the view is, which transport works, how many failures in a row.
///
/// Pull-driven: nothing is fetched until the consumer asks for the next transition, so a slow
/// consumer costs nothing and its next long-poll answers one transition covering all it missed.
actor Follower {
    let client: RecentsClient
    let list: String
    let view: ViewParameters
    let options: FollowOptions
    /// Hears of failed attempts and of the first success after them.
    private let onLink: (@Sendable (FollowLink) -> Void)?
    var since: Int?
    var epoch: String?
    private var fromView: ViewParameters?
    private var eventStreamUsable: Bool
    var connection: EventStreamConnection?
    private var failures = 0
    /// Whether the last attempt failed, so the next success is reported as `restored`.
    private var linkDown = false
    private var generator = SystemRandomNumberGenerator()

    init(
        client: RecentsClient, list: String, view: ViewParameters, resuming model: ListModel?, options: FollowOptions,
        onLink: (@Sendable (FollowLink) -> Void)? = nil
    ) {
        self.client = client
        self.list = list
        self.view = view
        self.options = options
        self.onLink = onLink
        self.since = model?.version
        self.epoch = model?.version == nil ? nil : model?.epoch
        self.fromView = model.map(\.view).flatMap { $0 == view ? nil : $0 }
        self.eventStreamUsable = options.useEventStream
    }

    /// The next transition that changes the view or its version; nil when the consumer was cancelled.
    func next() async throws -> TransitionEvent? {
        while !Task.isCancelled {
            do {
                let fetched = try await fetch()
                // An answer came (the stream's first event, or a long-poll's): the link is back.
                if linkDown {
                    linkDown = false
                    onLink?(.restored)
                }
                guard let event = fetched else { continue }
                failures = 0
                since = event.to
                epoch = event.epoch
                fromView = nil
                return event
            } catch .cancelled {
                break
            } catch .problem(let problem) where problem.isResyncRequired {
                // Forget where we were: the next read is an `initial` transition that replaces the model.
                closeConnection()
                (since, epoch, fromView) = (nil, nil, nil)
            } catch .problem(let problem) where connection == nil && eventStreamUsable && Self.noStream(problem) {
                eventStreamUsable = false
            } catch let error where error.isTransient {
                closeConnection()
                failures += 1
                if let limit = options.maximumFailures, failures >= limit { throw error }
                // The server may have been replaced by one with the event stream: probe again.
                eventStreamUsable = options.useEventStream
                let delay = options.backoff(afterFailures: failures, using: &generator)
                linkDown = true
                onLink?(.retrying(attempt: failures, delay: delay, error: error))
                do { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) } catch { break }
            } catch {
                closeConnection()
                throw error
            }
        }
        closeConnection()
        return nil
    }

    /// Whether the event is worth handing out: a full load, a new version or a changed view.
    static func isNews(_ event: TransitionEvent) -> Bool {
        event.from == nil || event.to != event.from || !event.transition.isEmpty
    }

    /// Whether an answer to `GET …/events` means "this server has no event stream".
    static func noStream(_ problem: Problem) -> Bool { [404, 405, 406, 501].contains(problem.status) }

    /// One step: the next stream event, or one long-poll. Nil when there is nothing new to hand out.
    private func fetch() async throws(RecentsClientError) -> TransitionEvent? {
        if eventStreamUsable && fromView == nil { return try await nextStreamEvent() }
        let event = try await client.transition(
            of: list, since: since, epoch: epoch, view: view, fromView: fromView, wait: since == nil ? 0 : options.wait)
        return Self.isNews(event) ? event : nil
    }

    deinit { connection?.stream.close() }
}

extension RecentsClient {
    /// A live feed of the view's transitions: first an `initial` one (unless resuming `model`), then one per change.
    ///
    /// Uses the event stream when the server has it and long-polls otherwise; on 410 it yields a
    /// fresh `initial` transition (so `ListModel.apply` replaces, never corrupts); it reconnects
    /// after failures with jittered exponential backoff; cancelling the consuming task (or
    /// dropping the stream) closes the connection. Ends with an error only for answers a retry
    /// cannot fix (a bad list name or view: 400/404) or after `options.maximumFailures`.
    /// `onLink` hears of each failed attempt (with the delay before the next) and of the first
    /// answer after failures, on the follower's executor: keep it short.
    public func follow(
        list: String, view: ViewParameters = .default, resuming model: ListModel? = nil,
        options: FollowOptions = FollowOptions(), onLink: (@Sendable (FollowLink) -> Void)? = nil
    ) -> AsyncThrowingStream<TransitionEvent, any Error> {
        let follower = Follower(
            client: self, list: list, view: view, resuming: model, options: options, onLink: onLink)
        return AsyncThrowingStream { try await follower.next() }
    }
}
