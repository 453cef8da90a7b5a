import HTTPServer

extension RecentsService {
    /// Every endpoint the API serves, declared once each; the OpenAPI document lists exactly these (a test
    /// checks), except the web client's static files (`webClient()`, described in docs/API.md).
    func makeRouter() -> Router {
        Router(
            [
                health(), metricsText(), openAPI(),
                getList(), forgetList(), postCalls(), getCall(), deleteCall(),
                rows(), reveal(), gesture(), confirmOption(), setEditing(), clear(),
                transitions(), events(),
            ] + webClient())
    }

    /// The request pipeline: the routes, and the per-request concerns around them, outermost
    /// first (metrics counts every answer, CORS headers go on every answer; auth goes last, next
    /// to the endpoints, so what it refuses is still counted and readable by a browser).
    func makePipeline() -> RequestPipeline {
        RequestPipeline(
            router: makeRouter(),
            middleware: [MetricsMiddleware(metrics: metrics), CORSMiddleware(origin: corsOrigin)]
                + (verifier.map { [AuthMiddleware(verifier: $0)] } ?? []),
            logger: logger)
    }
}
