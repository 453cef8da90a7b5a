/// `DELETE /v1/lists/{list}`: forget calls, state and history, as one new version.
enum ForgetList {
    static func make(_ service: Service) -> Endpoint {
        service.writes.endpoint(
            Command(
                .DELETE, "/v1/lists/{list}",
                parse: { exchange throws(APIError) in try ListRequest(exchange) },
                run: { address, tx in
                    let before = try tx.listInfo(address.list).version
                    try tx.forgetList(address.list)
                    return Versioned(value: (), versionBefore: before)
                }))
    }
}
