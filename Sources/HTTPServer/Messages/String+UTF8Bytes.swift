extension String {
    /// `body`'s answer for the string's UTF-8 bytes, lent without a copy when the string is
    /// native, as nearly every string here is.
    ///
    /// Why not `withUTF8`: it is `mutating`, so a `let` has to be copied into a `var` first, and
    /// that copy is a retain and a release of the storage, a dozen or two per request on the
    /// paths that compare field names and write the response head (callgrind, issue 42).
    @inline(__always)
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let answer = utf8.withContiguousStorageIfAvailable(body) { return answer }
        var copy = self
        return copy.withUTF8(body)
    }
}
