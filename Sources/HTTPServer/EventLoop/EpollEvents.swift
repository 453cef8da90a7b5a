internal import CHTTPShim
import Glibc

/// A set of epoll event flags (`epoll_ctl(2)`), typed so masks cannot be mixed with other integers.
struct EpollEvents: OptionSet, Sendable {
    let rawValue: UInt32

    /// Readable (or a connection waits on a listening socket).
    static let input = EpollEvents(rawValue: CHTTP_EPOLLIN)
    /// Writable: the send buffer has room again.
    static let output = EpollEvents(rawValue: CHTTP_EPOLLOUT)
    /// An error on the socket (always reported).
    static let error = EpollEvents(rawValue: CHTTP_EPOLLERR)
    /// Both directions are shut down (always reported).
    static let hangUp = EpollEvents(rawValue: CHTTP_EPOLLHUP)
    /// The peer shut down its sending side.
    static let peerHangUp = EpollEvents(rawValue: CHTTP_EPOLLRDHUP)
    /// Wake only one of the epoll sets watching this descriptor (for the shared listener).
    static let exclusive = EpollEvents(rawValue: CHTTP_EPOLLEXCLUSIVE)
    /// Edge-triggered: report changes, not levels.
    static let edgeTriggered = EpollEvents(rawValue: CHTTP_EPOLLET)

    /// What a connection registers once for its whole life.
    static let connection: EpollEvents = [.input, .output, .peerHangUp, .edgeTriggered]
    /// What the shared listening socket registers in every loop.
    static let listener: EpollEvents = [.input, .exclusive]
}

/// One epoll instance and the eventfd that wakes it from other threads.
struct Epoll {
    let fd: Int32
    let wakeFd: Int32

    /// Creates both descriptors, or throws with the failing call in words.
    init() throws(HTTPServerError) {
        fd = chttp_epoll_create()
        if fd < 0 { throw HTTPServerError.system("epoll_create1", code: errno) }
        wakeFd = chttp_eventfd()
        if wakeFd < 0 {
            let code = errno
            _ = chttp_close(fd)
            throw HTTPServerError.system("eventfd", code: code)
        }
        add(wakeFd, .input)
    }

    /// Closes both descriptors.
    func close() {
        _ = chttp_close(fd)
        _ = chttp_close(wakeFd)
    }

    /// Starts watching `descriptor` for `events`.
    func add(_ descriptor: Int32, _ events: EpollEvents) { _ = chttp_epoll_add(fd, descriptor, events.rawValue) }

    /// Stops watching `descriptor`.
    func remove(_ descriptor: Int32) { _ = chttp_epoll_del(fd, descriptor) }

    /// Waits up to `timeoutMilliseconds` and returns how many events were stored in `events`.
    func wait(_ events: UnsafeMutablePointer<chttp_event>, capacity: Int32, timeoutMilliseconds: Int32) -> Int {
        Int(max(0, chttp_epoll_wait(fd, events, capacity, timeoutMilliseconds)))
    }

    /// Wakes the loop blocked in `wait` (from any thread).
    func wake() { chttp_eventfd_signal(wakeFd) }

    /// Consumes the wake-ups so the eventfd stops being readable.
    func acknowledgeWake() { chttp_eventfd_drain(wakeFd) }
}
