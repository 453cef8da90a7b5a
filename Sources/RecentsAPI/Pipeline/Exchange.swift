import HTTPServer
import RecentsStore

/// One request on its way through the pipeline: the request, the route it resolved to, what
/// middleware learned, and the one way to answer it (`send`, which runs the outbound middleware).
///
/// A value: handlers capture it in the store's completion closures and answer from any thread.
struct Exchange: Sendable {
    let request: HTTPRequest
    let responder: HTTPResponder
    let route: Route
    let pipeline: RequestPipeline
    /// How many middleware let the request pass (those see its answer on the way out).
    var passed = 0
    /// What middleware learned, for the endpoint.
    var context = RequestContext()

    init(request: HTTPRequest, responder: HTTPResponder, route: Route, pipeline: RequestPipeline) {
        self.request = request
        self.responder = responder
        self.route = route
        self.pipeline = pipeline
    }

    /// Sends `response` through the outbound middleware.
    func send(_ response: HTTPResponse) {
        pipeline.send(response, for: self)
    }

    /// Sends a problem+json answer.
    func fail(_ error: APIError) {
        send(error.response)
    }

    /// Sends the answer for any error: an `APIError` as itself, anything else as a logged 500.
    func fail(_ error: any Error) {
        if let error = error as? APIError { return fail(error) }
        if let error = error as? CrossShardError { return fail(APIError(error)) }
        if let error = error as? BucketMovingError { return fail(APIError(error)) }
        if let storeError = error as? StoreError, let answer = APIError(storeError) {
            // Every request fails the same way while the storage is away: one line a second.
            let (logger, request, route) = (pipeline.logger, request, route)
            pipeline.storeFailures.note("\(storeError)") { heldBack in
                logger.warn(
                    "store unavailable",
                    [
                        ("request_id", request.requestId), ("route", route.label), ("error", "\(storeError)"),
                        ("failed_since_last_line", String(heldBack)),
                    ])
            }
            return fail(answer)
        }
        pipeline.logger.error(
            "request failed", [("request_id", request.requestId), ("route", route.label), ("error", "\(error)")])
        fail(APIError.internal())
    }
}
