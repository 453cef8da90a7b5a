internal import CSystemSupport

/// How much free memory glibc's allocator keeps above the top of each heap instead of giving it
/// back to the kernel, for a long-running server process.
public enum HeapPadding {
    /// The padding `serve` asks for: twice glibc's default of 128 KiB.
    public static let serverBytes: Int32 = 256 << 10

    /// Asks glibc (`mallopt(M_TOP_PAD)`, process-wide) to keep `bytes` free above each heap's top
    /// when it trims; false when glibc refused.
    ///
    /// Why: for about every write, SQLite's statement journal allocates 64 and 85 KiB on the writer
    /// thread and frees them when the statement ends (perf probe on malloc). In runs where those
    /// buffers sat at the top of the writer's heap, glibc returned their pages to the kernel
    /// (madvise) after about every write and the next write faulted them in again: 30,000 madvise
    /// calls and 320,000 page faults in 7 s of POSTs at concurrency 64, a sixth of the writer
    /// thread's CPU. 256 KiB of padding stops both, whatever the heap's layout.
    @discardableResult
    public static func keep(bytes: Int32 = serverBytes) -> Bool {
        csys_set_heap_top_pad(bytes) == 1
    }
}
