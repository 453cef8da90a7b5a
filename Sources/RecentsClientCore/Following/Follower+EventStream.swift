import RecentsCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Follower {
    /// The next `transition` event of the open stream, opening one when needed; nil when there is
    /// nothing to hand out yet (a comment, or a clean end after which the next call reconnects).
    func nextStreamEvent() async throws(RecentsClientError) -> TransitionEvent? {
        var connection: EventStreamConnection
        if let open = self.connection {
            connection = open
        } else {
            connection = try openConnection()
        }
        while connection.pending.isEmpty && !connection.overflowed {
            let part: TransportStreamPart?
            do {
                // The stream's iterators share its buffer: a fresh one per part reads on where the last stopped.
                var iterator = connection.stream.parts.makeAsyncIterator()
                part = try await iterator.next()
            } catch {
                closeConnection()
                throw (error as? RecentsClientError) ?? .transport("\(error)")
            }
            guard let part else {
                // A clean end (max-age, or the transport's buffer overflowed): reconnect from the last delivered version.
                closeConnection()
                if Task.isCancelled { throw .cancelled }
                if let error = connection.endError { throw error }
                return nil
            }
            do {
                try connection.take(part)
            } catch {
                closeConnection()
                throw error
            }
        }
        guard let event = connection.popEvent() else {
            // The consumer fell behind and has taken what was kept: reconnect.
            closeConnection()
            return nil
        }
        self.connection = connection
        return try streamTransition(event)
    }

    /// The transition an event carries; nil for other event types and for no news.
    private func streamTransition(_ event: ServerSentEvent) throws(RecentsClientError) -> TransitionEvent? {
        switch event.type {
        case "transition":
            do {
                let transition = try TransitionEvent.decoded(Data(event.data.utf8), view: view)
                return Self.isNews(transition) ? transition : nil
            } catch {
                closeConnection()
                throw .invalidResponse("event stream transition: \(error)")
            }
        case "resync":
            throw .problem(Problem(type: "resync-required", title: "Resync required", status: 410))
        default:
            return nil
        }
    }

    /// A new event-stream connection from `since`, remembered as the open one.
    private func openConnection() throws(RecentsClientError) -> EventStreamConnection {
        var query = view.query
        if let since { query.append(("since", String(since))) }
        if let epoch { query.append(("epoch", epoch)) }
        let url = try client.url(["v1", "lists", list, "events"], query: query)
        // Heartbeats arrive every 15 s by default: a minute of silence means the connection is dead.
        let request = client.request("GET", url, accept: "text/event-stream", timeout: 60)
        let capacity = options.eventBufferCapacity
        // One part more than events: the head comes first.
        let stream = client.transport.stream(request, capacity: capacity + 1)
        let connection = EventStreamConnection(stream: stream, capacity: capacity)
        self.connection = connection
        return connection
    }

    /// Closes the open connection, if any.
    func closeConnection() {
        connection?.stream.close()
        connection = nil
    }
}
