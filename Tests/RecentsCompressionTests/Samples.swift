import Glibc

/// Content for the codec tests: text shaped like the API's answers, and bytes that do not compress.
enum Samples {
    /// One event-stream transition event with one inserted row (the shape in docs/API.md), varied by `n`.
    static func event(_ n: Int) -> [UInt8] {
        let peers = [("bob", "Bob Lee"), ("carol", "Carol Diaz"), ("dave", "Dave Ng"), ("erin", "Erin Wu")]
        let (peer, name) = peers[n % peers.count]
        let text = """
            id: vxg12udp.\(n + 1)
            event: transition
            data: {"list":"alice","from":\(n),"to":\(n + 1),"reason":"interactiveChanges","options":["animateAlpha",\
            "animateInsertion"],"deletes":[],"inserts":[{"index":0,"previousIndex":null,"id":"c-\(1000 + n)","row":\
            {"id":"c-\(1000 + n)","peer":{"id":"\(peer)","name":"\(name)"},"count":1,"callIds":\
            ["c-\(1000 + n)"],"timestamp":\(1_764_460_800 + n * 97),"missed":\(n % 3 == 0),"incoming":true,\
            "outgoing":false,"video":false,"duration":\(n * 7 % 400),"status":"missed","revealed":false,\
            "editing":false,"options":[{"key":"delete","title":"Delete","destructive":true}]},\
            "directionHint":"down"}],"updates":[],"count":\(n + 1),"hasMore":false,"editing":false,\
            "revealedRowId":null,"epoch":"vxg12udp"}


            """
        return Array(text.utf8)
    }

    /// About `count` bytes of JSON-like text.
    static func text(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var n = 0
        while bytes.count < count {
            bytes += event(n)
            n += 1
        }
        return Array(bytes.prefix(count))
    }

    /// `count` bytes from a fixed-seed generator (xorshift), which no coding can shrink.
    static func noise(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    /// What a shell command prints on its standard output, given `input` on a file (nil if it failed).
    static func run(_ command: String, input: [UInt8]) -> [UInt8]? {
        let path = "/tmp/recents-compression-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(path) }
        guard let file = fopen(path, "wb") else { return nil }
        _ = input.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
        guard let pipe = popen("\(command) < \(path)", "r") else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, pipe) }
            if count <= 0 { break }
            output += buffer[..<count]
        }
        return pclose(pipe) == 0 ? output : nil
    }
}
