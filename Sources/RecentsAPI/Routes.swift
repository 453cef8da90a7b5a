/// Every endpoint the API serves, declared once each, and the per-request concerns around them.
enum Routes {
    /// The route table. The OpenAPI document lists exactly these endpoints (a test checks), except
    /// the web client's static files (`WebClientFiles`, described in docs/API.md).
    static func router(_ service: Service) -> Router {
        Router(
            [
                GetHealth.make(service), GetMetrics.make(service), GetOpenAPI.make(service), GetRules.make(service),
                GetMe.make(service),
                GetList.make(service), ForgetList.make(service),
                PostCalls.make(service), GetCall.make(service), DeleteCall.make(service),
                GetRows.make(service), GetRowInfo.make(service), GetRowInfo.makeByCall(service),
                RevealRow.make(service), ReleaseSwipe.make(service),
                ConfirmOption.make(service), SetEditing.make(service), ClearList.make(service), MarkSeen.make(service),
                GetTransitions.make(service), GetEvents.make(service),
            ] + WebClientFiles.make(service))
    }

    /// The request pipeline: the routes, and the per-request concerns around them, outermost
    /// first (metrics counts every answer, CORS headers go on every answer; the rate limit before
    /// auth, so bad tokens are limited before each costs a signature check; auth goes last, next
    /// to the endpoints, so what it refuses is still counted and readable by a browser).
    static func pipeline(_ service: Service) -> RequestPipeline {
        let router = router(service)
        return RequestPipeline(
            router: router,
            middleware: [
                MetricsMiddleware(metrics: service.metrics, router: router),
                CORSMiddleware(origin: service.configuration.corsOrigin),
            ] + RateLimitMiddleware.make(service) + (service.verifier.map { [AuthMiddleware(verifier: $0)] } ?? []),
            logger: service.logger, compression: service.configuration.compression,
            maxBodyBytes: service.configuration.http.maxBodyBytes)
    }
}
