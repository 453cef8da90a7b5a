import HTTPServer
import RecentsCore

/// `GET /v1/lists/{list}/events`: the transition to the current view, then one per change of the
/// view, as `text/event-stream`, until the stream's age runs out or its version is lost (the
/// stream protocol is `EventStreams`).
enum GetEvents {
    static func make(_ service: Service) -> Endpoint {
        // A browser's EventSource cannot send headers: the token may come as `access_token` here alone.
        Endpoint(.GET, "/v1/lists/{list}/events") { exchange throws(APIError) in
            try EventsRequest(exchange)
        } answer: { request, exchange in
            let live = service.live
            if live.reads.answeredForeignEpoch(request.epoch, list: request.first.list, exchange) { return }
            live.streams.open(request, exchange)
        }.acceptingQueryToken()
    }
}
