/// Runs `body` over `bytes` as one contiguous buffer, copying only when the collection is not
/// contiguous already (arrays, their slices and native strings' UTF-8 views are).
///
/// The base address is never nil, even for an empty input: libcrypto's one-shot functions take
/// a pointer and a length, and a null pointer is not a promise every one of them documents.
@inline(__always)
func withContiguousBytes<Result>(
    _ bytes: some Collection<UInt8>, _ body: (UnsafePointer<UInt8>, Int) -> Result
) -> Result {
    let direct = bytes.withContiguousStorageIfAvailable { buffer in
        withNonNullBase(buffer, body)
    }
    if let direct { return direct }
    return Array(bytes).withUnsafeBufferPointer { withNonNullBase($0, body) }
}

@inline(__always)
private func withNonNullBase<Result>(
    _ buffer: UnsafeBufferPointer<UInt8>, _ body: (UnsafePointer<UInt8>, Int) -> Result
) -> Result {
    if let base = buffer.baseAddress { return body(base, buffer.count) }
    var empty: UInt8 = 0
    return withUnsafePointer(to: &empty) { body($0, 0) }
}
