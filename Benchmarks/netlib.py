"""Small shared pieces of the benchmark clients (standard library only).

The load clients use asyncio Protocols rather than streams: a Protocol's data_received runs as
bytes arrive, so a receive timestamp is taken before any per-connection coroutine is scheduled,
and 10,000 connections cost one object each instead of a task and two stream objects.
"""

import asyncio
import json
import os
import resource
import socket
import struct
import time


def raise_nofile(wanted: int) -> int:
    """Lifts the soft RLIMIT_NOFILE towards `wanted` (capped by the hard limit): 10,000
    sockets do not fit in the usual soft limit of 1024. Returns the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def rss_kb(pid: int, with_children: bool = False) -> int:
    """VmRSS of `pid` in KiB (plus its direct children's, for nginx's master and workers),
    read from /proc so that no tool has to be installed."""
    pids = [pid] + (children(pid) if with_children else [])
    total = 0
    for one in pids:
        with open(f"/proc/{one}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def children(pid: int) -> list:
    """Direct children of `pid`, found through /proc/*/stat (field 4 is the parent id)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def request_bytes(method: str, path: str, body: bytes = b"") -> bytes:
    """One HTTP/1.1 keep-alive request; a body is always JSON here."""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if body or method == "POST":
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return head.encode("ascii") + b"\r\n" + body


class Response:
    """A parsed response: status, body bytes and when its first and last bytes arrived."""

    def __init__(self, status: int, body: bytes, first: float, done: float):
        self.status = status
        self.body = body
        self.first = first
        self.done = done

    def json(self):
        """The body as JSON."""
        return json.loads(self.body)


class ClientProtocol(asyncio.Protocol):
    """One keep-alive connection that sends requests one at a time and parses
    Content-Length-framed responses as their bytes arrive (chunked bodies are not needed:
    both Recents and nginx send a length)."""

    def __init__(self):
        self.transport = None
        self.buffer = bytearray()
        self.first = None
        self.waiter = None
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport):
        self.transport = transport

    def connection_lost(self, exc):
        if not self.closed.done():
            self.closed.set_result(exc)
        if self.waiter and not self.waiter.done():
            self.waiter.set_exception(ConnectionError(f"connection closed: {exc}"))

    def send(self, data: bytes) -> asyncio.Future:
        """Writes one request and returns a future for its Response; the future fails at once
        if the server already closed the connection (e.g. a 408 for a connection that sent
        nothing within its head timeout), instead of waiting forever."""
        self.waiter = asyncio.get_running_loop().create_future()
        self.first = None
        if self.closed.done() or self.transport.is_closing():
            self.waiter.set_exception(ConnectionError("connection already closed by the server"))
        else:
            self.transport.write(data)
        return self.waiter

    def data_received(self, data: bytes):
        now = time.perf_counter()
        if self.first is None:
            self.first = now
        self.buffer += data
        self._parse(now)

    def _parse(self, now: float):
        """Completes the pending future once the whole response is in the buffer."""
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0 or self.waiter is None:
            return
        head = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
        length = 0
        for line in head[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        if len(self.buffer) < end + 4 + length:
            return
        body = bytes(self.buffer[end + 4 : end + 4 + length])
        del self.buffer[: end + 4 + length]
        status = int(head[0].split()[1])
        waiter, self.waiter = self.waiter, None
        if not waiter.done():
            waiter.set_result(Response(status, body, self.first, now))


async def connect(port: int, host: str = "127.0.0.1") -> ClientProtocol:
    """Opens one connection."""
    loop = asyncio.get_running_loop()
    _, protocol = await loop.create_connection(ClientProtocol, host, port)
    return protocol


async def connect_many(port: int, count: int, parallel: int = 256) -> list:
    """Opens `count` connections, at most `parallel` handshakes at a time so the server's
    listen backlog never overflows (an overflow would add 1 s SYN retries, not server time)."""
    gate = asyncio.Semaphore(parallel)

    async def one():
        async with gate:
            return await connect(port)

    return await asyncio.gather(*(one() for _ in range(count)))


async def fetch_many(port: int, count: int, path: str, parallel: int = 256) -> list:
    """Opens `count` connections and sends one GET of `path` on each right after it connects
    (a server may close a connection that sends nothing within its head timeout, and opening
    10,000 can take longer than that); returns (connection, Response) pairs."""
    gate = asyncio.Semaphore(parallel)

    async def one():
        async with gate:
            conn = await connect(port)
            return conn, await fetch(conn, "GET", path)

    return await asyncio.gather(*(one() for _ in range(count)))


async def fetch(conn: ClientProtocol, method: str, path: str, body: bytes = b"") -> Response:
    """One request/response on an open connection."""
    return await conn.send(request_bytes(method, path, body))


def percentile(values: list, fraction: float) -> float:
    """Nearest-rank percentile of a non-empty list."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, int(round(fraction * len(ordered) + 0.5)) - 1))
    return ordered[index]


# Linux's value, for Pythons whose socket module does not name it.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def kernel_stamp(ancillary) -> int | None:
    """The kernel receive timestamp (SO_TIMESTAMPNS, ns since the epoch) in recvmsg's ancillary
    data, or None when the kernel sent none."""
    stamp = None
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            seconds, nanos = struct.unpack("qq", payload[:16])
            stamp = seconds * 1_000_000_000 + nanos
    return stamp


class StampedConnection:
    """A raw non-blocking socket that reads one response and keeps the kernel's receive
    timestamps (SO_TIMESTAMPNS, CLOCK_REALTIME) of its first and last bytes.

    Why: with 10,000 answers arriving at once, a Python client needs a good part of a second
    just to run its callbacks, so user-space arrival times measure the client. The kernel stamps
    each packet when it reaches the socket, i.e. when the server sent it on loopback; those
    stamps are exact however late Python reads them. User-space times are kept too."""

    def __init__(self, sock: socket.socket, loop):
        self.sock = sock
        self.loop = loop
        self.buffer = bytearray()
        self.sent_ns = None
        self.kernel_first_ns = None
        self.kernel_last_ns = None
        self.user_done_ns = None
        self.reading = False
        self.future = loop.create_future()

    def send(self, data: bytes):
        """Sends a small request (fits the empty socket buffer) and starts reading."""
        self.sent_ns = time.time_ns()
        try:
            self.sock.send(data)
        except OSError as error:
            self.future.set_exception(error)
            return
        self.reading = True
        self.loop.add_reader(self.sock.fileno(), self._readable)

    def pause(self):
        """Stops reading (the answer waits in the kernel, stamped on arrival all the same)."""
        if self.reading:
            self.loop.remove_reader(self.sock.fileno())
            self.reading = False

    def resume(self):
        """Reads again, unless the answer is already in."""
        if not self.reading and not self.future.done() and self.sent_ns is not None:
            self.reading = True
            self.loop.add_reader(self.sock.fileno(), self._readable)

    def _readable(self):
        """Drains the socket, stamping and parsing as it goes."""
        while not self.future.done():
            try:
                data, ancillary, _, _ = self.sock.recvmsg(65536, socket.CMSG_SPACE(16))
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                return self._finish(error)
            if not data:
                return self._finish(ConnectionError("closed before a whole response"))
            stamp = kernel_stamp(ancillary)
            if stamp is not None:
                if self.kernel_first_ns is None:
                    self.kernel_first_ns = stamp
                self.kernel_last_ns = stamp
            self.buffer += data
            self._complete()

    def _complete(self):
        """Resolves the future once headers and Content-Length bytes of body are in."""
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        marker = self.buffer.find(b"\r\ncontent-length:", 0, end + 2)
        if marker < 0:
            marker = bytes(self.buffer[: end + 2]).lower().find(b"\r\ncontent-length:")
        length = int(self.buffer[marker + 17 : self.buffer.find(b"\r\n", marker + 2)].strip()) if marker >= 0 else 0
        if len(self.buffer) < end + 4 + length:
            return
        self.user_done_ns = time.time_ns()
        status = int(self.buffer[9:12])
        self._finish(Response(status, bytes(self.buffer[end + 4 : end + 4 + length]), self.kernel_first_ns,
                              self.kernel_last_ns))

    def _finish(self, outcome):
        """Stops reading and settles the future with a Response or an exception."""
        self.pause()
        if self.future.done():
            return
        if isinstance(outcome, Exception):
            self.future.set_exception(outcome)
        else:
            self.future.set_result(outcome)

    def close(self):
        """Closes the socket."""
        self.sock.close()


def add_hold_reads_argument(parser):
    """The --hold-reads option of the fan-out scenarios (see hold_reads)."""
    parser.add_argument("--hold-reads", type=float, default=1.0,
                        help="seconds after the write (the anchor: its first send) during which the client reads "
                             "nothing, so its CPU is not taken from the server's (answers keep their kernel "
                             "stamps); 0 reads throughout")


def hold_reads(conns: list, seconds: float) -> list:
    """Stops reading `conns` for a fan-out's window (see resume_reads); returns those held.

    Why: this client shares the host's two cores with the server, and reading 10,000 answers
    as they arrive costs it more CPU than the server spends sending them, CPU the server then
    lacks. The kernel stamps each packet on arrival, so answers read late keep their true times;
    a fan-out that outlasts the hold is measured with the client reading from then on."""
    if seconds <= 0:
        return []
    for conn in conns:
        conn.pause()
    return conns


async def resume_reads(held: list, started: float, seconds: float):
    """Reads `held` again `seconds` after `started` (a time.perf_counter() instant)."""
    if not held:
        return
    await asyncio.sleep(max(0.0, started + seconds - time.perf_counter()))
    for conn in held:
        conn.resume()


async def stamped_many(port: int, requests: list, parallel: int = 256) -> list:
    """Opens one StampedConnection per entry of `requests`, `parallel` handshakes at a time
    (see connect_many), and sends the entry right after connecting unless it is None (see
    fetch_many for why not later)."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(parallel)

    async def one(request):
        async with gate:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            await loop.sock_connect(sock, ("127.0.0.1", port))
            conn = StampedConnection(sock, loop)
            if request is not None:
                conn.send(request)
            return conn

    return await asyncio.gather(*(one(r) for r in requests))
