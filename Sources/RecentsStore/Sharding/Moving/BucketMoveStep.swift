/// How far a bucket's move has come, as `BucketMover.run` tells it.
public enum BucketMoveStep: Sendable, Hashable {
    /// The bucket holds `lists` lists with about `rows` rows (live calls and list rows).
    case counted(lists: Int, rows: Int)
    /// The first copy: `lists` of the lists and `rows` rows copied so far.
    case copied(lists: Int, rows: Int)
    /// A catch-up pass (1, 2, …) begins, copying again `lists` lists written since the last.
    case catchingUp(pass: Int, lists: Int)
    /// Writes to the bucket are fenced (every instance answers them 503) for the last copy.
    case fenced
    /// The last copy, the moved mark and the new placement are done; writes were fenced for
    /// `seconds`, and the last copy took `lists` lists.
    case switched(fenceSeconds: Double, lists: Int)
    /// The source's copy of the bucket was removed (`lists` lists, `rows` rows).
    case dropped(lists: Int, rows: Int)
}

/// What a finished move did.
public struct BucketMoveReport: Sendable, Hashable {
    /// The bucket moved.
    public let bucket: Int
    /// How many lists it held when the fence ended.
    public let lists: Int
    /// Rows copied in every pass together.
    public let rowsCopied: Int
    /// Catch-up passes before the fence.
    public let passes: Int
    /// How long writes to the bucket were refused, from asking for the fence to lifting it.
    public let fenceSeconds: Double
}
