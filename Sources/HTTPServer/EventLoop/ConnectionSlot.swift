/// A connection's place in its loop's table and the serial of its incarnation there: a file
/// descriptor is reused by the next accepted connection, the serial tells the two apart.
struct ConnectionSlot: Sendable, Equatable {
    /// The socket's file descriptor, the index in the loop's connection table.
    let fd: Int32
    /// Which connection on `fd` this is, counted by the loop.
    let serial: UInt64
}
