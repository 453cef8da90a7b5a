import Glibc
import Synchronization
import SystemSupport
import Testing

/// The kernel's name for the calling thread, read back from `/proc`.
private func kernelThreadName() -> String {
    let fd = open("/proc/thread-self/comm", O_RDONLY)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return "" }
    return String(decoding: buffer[0..<count].filter { $0 != 0x0A }, as: UTF8.self)
}

@Suite struct JoinableThreadTests {
    @Test func theKernelSeesTheNameCutTo15Bytes() {
        let seen = Mutex<(name: String, current: String?)>(("", nil))
        let started = JoinableThread.start(name: "recents-a-very-long-name") {
            let name = kernelThreadName()
            let current = JoinableThread.current
            seen.withLock { $0 = (name, current?.name) }
        }
        started.join()
        started.join()  // a second join returns at once
        #expect(started.name == "recents-a-very-")
        #expect(seen.withLock { $0.name } == "recents-a-very-")
        #expect(seen.withLock { $0.current } == "recents-a-very-")
        #expect(!started.isCurrent)
        #expect(JoinableThread.current == nil)
    }

    @Test func isCurrentHoldsOnlyOnTheThreadItself() {
        let inside = Mutex(false)
        let ready = ThreadCondition()
        let box = Mutex<JoinableThread?>(nil)
        ready.lock()
        let thread = JoinableThread.start(name: "recents-check") {
            // Wait until the starter stored the handle, then ask it.
            ready.lock()
            ready.unlock()
            let handle = box.withLock { $0 }
            inside.withLock { $0 = handle?.isCurrent ?? false }
        }
        box.withLock { $0 = thread }
        ready.unlock()
        thread.join()
        #expect(inside.withLock { $0 })
        #expect(!thread.isCurrent)
    }

    @Test func joinWaitsForTheBody() {
        let finished = Mutex(false)
        let thread = JoinableThread.start(name: "recents-join") {
            finished.withLock { $0 = true }
        }
        thread.join()
        #expect(finished.withLock { $0 })
    }
}
