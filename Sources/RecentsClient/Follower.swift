import Foundation
import RecentsCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
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
    private var since: Int?
    private var epoch: String?
    private var fromView: ViewParameters?
    private var eventStreamUsable: Bool
    private var connection: EventStreamConnection?
    private var failures = 0
    private var generator = SystemRandomNumberGenerator()

    init(client: RecentsClient, list: String, view: ViewParameters, resuming model: ListModel?, options: FollowOptions)
    {
        self.client = client
        self.list = list
        self.view = view
        self.options = options
        self.since = model?.version
        self.epoch = model?.version == nil ? nil : model?.epoch
        self.fromView = model.map(\.view).flatMap { $0 == view ? nil : $0 }
        self.eventStreamUsable = options.useEventStream
    }

    /// The next transition that changes the view or its version; nil when the consumer was cancelled.
    func next() async throws -> TransitionEvent? {
        while !Task.isCancelled {
            do {
                guard let event = try await fetch() else { continue }
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
                do { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) } catch { break }
            } catch {
                closeConnection()
                throw error
            }
        }
        closeConnection()
        return nil
    }

    /// Whether an answer to `GET …/events` means "this server has no event stream".
    static func noStream(_ problem: Problem) -> Bool { [404, 405, 406, 501].contains(problem.status) }

    /// One step: the next stream event, or one long-poll. Nil when there is nothing new to hand out.
    private func fetch() async throws(RecentsClientError) -> TransitionEvent? {
        if eventStreamUsable && fromView == nil { return try await nextStreamEvent() }
        let event = try await client.transition(
            of: list, since: since, epoch: epoch, view: view, fromView: fromView, wait: since == nil ? 0 : options.wait)
        return event.from == nil || event.to != event.from || !event.transition.isEmpty ? event : nil
    }

    /// The next `transition` event of the open stream, opening one when needed.
    private func nextStreamEvent() async throws(RecentsClientError) -> TransitionEvent? {
        let connection = try openConnection()
        var iterator = connection.events.makeAsyncIterator()
        let event: ServerSentEvent?
        do {
            event = try await iterator.next()
        } catch let error as RecentsClientError {
            self.connection = nil
            throw error
        } catch {
            self.connection = nil
            throw .transport("\(error)")
        }
        guard let event else {
            // A clean end (max-age, or the consumer fell behind): reconnect from the last delivered version.
            self.connection = nil
            if Task.isCancelled { throw .cancelled }
            return nil
        }
        switch event.type {
        case "transition":
            do {
                let wire = try JSONDecoder().decode(WireTransition.self, from: Data(event.data.utf8))
                let transition = wire.event(view: view)
                return transition.from == nil || transition.to != transition.from || !transition.transition.isEmpty
                    ? transition : nil
            } catch {
                self.connection = nil
                connection.close()
                throw .invalidResponse("event stream transition: \(error)")
            }
        case "resync":
            throw .problem(Problem(type: "resync-required", title: "Resync required", status: 410))
        default:
            return nil
        }
    }

    /// The open event-stream connection, or a new one from `since`.
    private func openConnection() throws(RecentsClientError) -> EventStreamConnection {
        if let connection { return connection }
        var query = view.query
        if let since { query.append(("since", String(since))) }
        if let epoch { query.append(("epoch", epoch)) }
        let url = try client.url(["v1", "lists", list, "events"], query: query)
        // Heartbeats arrive every 15 s by default: a minute of silence means the connection is dead.
        let request = client.request("GET", url, accept: "text/event-stream", timeout: 60)
        let connection = EventStreamConnection(
            request: request, configuration: client.session.configuration, capacity: options.eventBufferCapacity)
        self.connection = connection
        return connection
    }

    private func closeConnection() {
        connection?.close()
        connection = nil
    }

    deinit { connection?.close() }
}

extension RecentsClient {
    /// A live feed of the view's transitions: first an `initial` one (unless resuming `model`), then one per change.
    ///
    /// Uses the event stream when the server has it and long-polls otherwise; on 410 it yields a
    /// fresh `initial` transition (so `ListModel.apply` replaces, never corrupts); it reconnects
    /// after failures with jittered exponential backoff; cancelling the consuming task (or
    /// dropping the stream) closes the connection. Ends with an error only for answers a retry
    /// cannot fix (a bad list name or view: 400/404) or after `options.maximumFailures`.
    public func follow(
        list: String, view: ViewParameters = .default, resuming model: ListModel? = nil,
        options: FollowOptions = FollowOptions()
    ) -> AsyncThrowingStream<TransitionEvent, any Error> {
        let follower = Follower(client: self, list: list, view: view, resuming: model, options: options)
        return AsyncThrowingStream { try await follower.next() }
    }
}
