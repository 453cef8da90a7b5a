import HTTPServer
import RecentsCore

/// `GET …/events`, validated: the first transition to send, the view every later one shows, and
/// the client's epoch (from `since`/`epoch`, or from `Last-Event-ID` when a client resumes).
struct EventsRequest: Sendable {
    /// The first event's transition: from the client's version and view to the current view.
    var first: TransitionQuery
    var epoch: String?
    /// Whether a change that leaves the view as it was is sent too (an empty transition), so the
    /// client learns every version of the list (a browser's one stream shared by tabs of other views).
    var includeEmpty: Bool

    init(_ exchange: Exchange) throws(APIError) {
        let list = try exchange.list()
        let parameters = try exchange.query.view()
        var since = try exchange.query.since()
        epoch = exchange.query.epoch()
        // EventSource sends the last `id:` it saw when it reconnects; it stands for both parameters.
        if let lastEventId = exchange.request.headers["Last-Event-ID"] {
            (epoch, since) = try Self.eventId(lastEventId)
        }
        first = TransitionQuery(
            list: list, since: since, from: try exchange.query.fromView(defaultingTo: parameters), to: parameters)
        includeEmpty = try exchange.query.includeEmpty()
        guard Self.accepts(exchange.request.headers["Accept"]) else {
            throw .notAcceptable("this endpoint answers only text/event-stream; send Accept: text/event-stream")
        }
    }

    /// The `id:` of the event that leads to `version`.
    static func eventId(epoch: String, version: Int64) -> String { "\(epoch).\(version)" }

    /// Reads an `id:` back: `<epoch>.<version>`.
    /// - Throws: 400 `bad-request` when it has another shape.
    static func eventId(_ text: String) throws(APIError) -> (epoch: String, version: Int64) {
        guard let dot = text.lastIndex(of: "."), let version = Int64(text[text.index(after: dot)...]),
            version >= 0, dot > text.startIndex
        else {
            let excerpt = text.count > 40 ? String(text.prefix(40)) + "…" : text
            throw .badRequest("Last-Event-ID must be <epoch>.<version>, got '\(excerpt)'")
        }
        return (String(text[..<dot]), version)
    }

    /// Whether an `Accept` field allows `text/event-stream` (RFC 9110 §12.5.1): the most specific
    /// range that matches it decides, and `q=0` excludes; no field at all accepts anything.
    static func accepts(_ accept: String?) -> Bool {
        guard let accept, !accept.allSatisfy({ $0 == " " || $0 == "\t" }) else { return true }
        var best: (specificity: Int, quality: Double)?
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";")
            let mediaType = (parts.first ?? "").trimmingSpaces.lowercased()
            let specificity: Int
            switch mediaType {
            case "text/event-stream": specificity = 2
            case "text/*": specificity = 1
            case "*/*": specificity = 0
            default: continue
            }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" {
                    quality = Double(pair[1].trimmingSpaces) ?? 0
                }
            }
            if best.map({ specificity > $0.specificity }) ?? true { best = (specificity, quality) }
        }
        return (best?.quality ?? 0) > 0
    }
}
