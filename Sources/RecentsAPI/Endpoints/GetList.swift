/// `GET /v1/lists/{list}`: the list's version, state and size.
enum GetList {
    static func make(_ service: Service) -> Endpoint {
        Endpoint(.GET, "/v1/lists/{list}") { exchange throws(APIError) in
            try ListRequest(exchange)
        } answer: { address, exchange in
            let list = address.list
            service.live.reads.read(
                list, answering: exchange,
                { tx in
                    let info = try tx.listInfo(list)
                    return (info, try tx.unseenMissed(in: list, at: info.version))
                }, seen: \.0.version
            ) { info, unseen in
                exchange.json(200, ResponseBodies.list(info, unseenMissed: unseen, epoch: service.epoch))
            }
        }
    }
}
