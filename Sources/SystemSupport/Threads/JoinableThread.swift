internal import CSystemSupport
import Glibc
import Synchronization

/// An OS thread with a kernel-visible name that can be waited for (`join`).
///
/// Foundation's `Thread` on Linux neither passes its name to the kernel nor can be joined, so
/// threads were unnamed in `top -H`, `perf` and `/proc/PID/task/*/comm`, and waiting for one
/// needed a semaphore beside it.
public final class JoinableThread: Sendable {
    private struct State {
        var thread: pthread_t?
        var joined = false
    }

    /// The name given at start, truncated to the kernel's 15 bytes.
    public let name: String
    /// A label shared by related threads (e.g. `"RecentsStore"`), for `JoinableThread.current?.kind`.
    public let kind: String
    private let state = Mutex(State())

    private init(name: String, kind: String) {
        self.name = name
        self.kind = kind
    }

    /// Starts a thread named `name` (cut to 15 bytes, the most Linux keeps) running `body`.
    ///
    /// Fails only when the process is out of threads or memory, which it cannot recover from.
    public static func start(
        name: String, kind: String = "", _ body: @escaping @Sendable () -> Void
    ) -> JoinableThread {
        let handle = JoinableThread(name: truncated(name), kind: kind)
        let box = Unmanaged.passRetained(ThreadStart(handle: handle, body: body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                let start = Unmanaged<ThreadStart>.fromOpaque(argument).takeRetainedValue()
                start.run()
                return nil
            }, box)
        precondition(rc == 0, "pthread_create failed: \(SystemError.describe(rc))")
        handle.state.withLock { $0.thread = thread }
        return handle
    }

    /// The handle of the calling thread when `start` created it, else nil.
    public static var current: JoinableThread? {
        guard let pointer = pthread_getspecific(currentKey.key) else { return nil }
        return Unmanaged<JoinableThread>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Whether the caller runs on this thread.
    public var isCurrent: Bool { Self.current === self }

    /// Blocks until the thread's body returned; later calls return at once.
    ///
    /// Never call it from the thread itself (it would wait for itself): it then returns at once.
    public func join() {
        if isCurrent { return }
        state.withLock { state in
            guard !state.joined, let thread = state.thread else { return }
            // Joining under the lock makes a second, concurrent `join` wait for the first
            // instead of joining twice (undefined behaviour in POSIX).
            pthread_join(thread, nil)
            state.joined = true
        }
    }

    deinit {
        // A thread nobody joined keeps its stack until joined or detached.
        state.withLock { state in
            if !state.joined, let thread = state.thread { pthread_detach(thread) }
        }
    }

    private static func truncated(_ name: String) -> String {
        if name.utf8.count <= 15 { return name }
        var bytes = Array(name.utf8.prefix(15))
        // Do not cut a multi-byte character in half.
        while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
        if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// What a new thread runs first: names itself, records its handle, runs the body.
private final class ThreadStart {
    let handle: JoinableThread
    let body: @Sendable () -> Void

    init(handle: JoinableThread, body: @escaping @Sendable () -> Void) {
        self.handle = handle
        self.body = body
    }

    func run() {
        _ = handle.name.withCString { csys_set_thread_name($0) }
        // Unretained: `self` holds the handle until the body returns, and the slot is cleared then.
        pthread_setspecific(currentKey.key, Unmanaged.passUnretained(handle).toOpaque())
        body()
        pthread_setspecific(currentKey.key, nil)
    }
}

/// The thread-specific slot holding each started thread's handle (for `JoinableThread.current`).
private struct ThreadKey: Sendable {
    let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let rc = pthread_key_create(&key, nil)
        precondition(rc == 0, "pthread_key_create failed: \(SystemError.describe(rc))")
        self.key = key
    }
}

// A global `let` is initialised once, thread-safely, on first use.
private let currentKey = ThreadKey()
