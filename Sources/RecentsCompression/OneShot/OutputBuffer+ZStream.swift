internal import CZlib

extension OutputBuffer {
    /// Runs one zlib `step` (deflate or inflate) with the free room as its output and returns
    /// zlib's status; `avail_out` is 32 bits, so a larger room is offered in part.
    mutating func fill(
        from stream: UnsafeMutablePointer<z_stream>, _ step: (UnsafeMutablePointer<z_stream>) -> Int32
    ) -> Int32 {
        var status = Z_OK
        fill { pointer, room in
            let offered = min(room, Int(UInt32.max))
            stream.pointee.next_out = pointer
            stream.pointee.avail_out = uInt(offered)
            status = step(stream)
            return offered - Int(stream.pointee.avail_out)
        }
        return status
    }
}
