/// Why a diff could not be computed.
public enum DiffError: Error, Sendable, Hashable {
    /// An id occurs twice in one input (`side`), first repeated at `index`; ids must be unique.
    case duplicateID(side: DiffSide, index: Int)
}

/// Which input of a diff.
public enum DiffSide: String, Sendable, Hashable, Codable {
    /// The old array.
    case old
    /// The new array.
    case new
}
