import RecentsCore

extension RecentsClient {
    /// `GET /v1/lists/{list}/rows/{rowId}`: the row `rowId` of `view` (its filter and time zone;
    /// any window) and its calls with their kinds.
    /// - Throws: `.problem` with status 404 (`not-found`) when no row of that view has the id.
    public func rowInfo(list: String, rowId: String, view: ViewParameters = .default) async throws(RecentsClientError)
        -> RowInfo
    {
        guard let info = try await rowInfo(list: list, rowId: rowId, view: view, ifNoneMatch: nil) else {
            throw .invalidResponse("304 Not Modified to a request without If-None-Match")
        }
        return info
    }

    /// `GET /v1/lists/{list}/rows/{rowId}` sent with `If-None-Match: etag` (a `RowInfo.etag` read
    /// before): nil when the server answers 304, the list being still at the version `etag` names.
    public func rowInfo(
        list: String, rowId: String, view: ViewParameters = .default, ifNoneMatch etag: String?
    ) async throws(RecentsClientError) -> RowInfo? {
        var request = request("GET", try url(["v1", "lists", list, "rows", rowId], query: view.query))
        if let etag { request.headers.append(("If-None-Match", etag)) }
        let response = try await answer(request, notModified: etag != nil)
        if response.status == 304 { return nil }
        var info = try Self.decode(RowInfo.self, from: response.body)
        info.etag = response.header("ETag")
        return info
    }

    /// `GET /v1/lists/{list}/calls/{callId}/row`: the row of `view` that groups call `callId`.
    ///
    /// A call joining a group gives the row a new id (its newest call's); a screen that holds a
    /// row by an id the server now answers 404 for asks with that id here to find the row again.
    public func rowInfo(list: String, containing callId: String, view: ViewParameters = .default)
        async throws(RecentsClientError) -> RowInfo
    {
        let response = try await answer(
            request("GET", try url(["v1", "lists", list, "calls", callId, "row"], query: view.query)),
            notModified: false)
        var info = try Self.decode(RowInfo.self, from: response.body)
        info.etag = response.header("ETag")
        return info
    }
}
