/// Why a placement file cannot be used; `description` is a sentence for the operator.
public struct PlacementError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the file's part.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
