"""Small shared pieces of the benchmark clients (standard library only).

The load clients use asyncio Protocols rather than streams: a Protocol's data_received runs as
bytes arrive, so a receive timestamp is taken before any per-connection coroutine is scheduled,
and 10,000 connections cost one object each instead of a task and two stream objects.
"""

import asyncio
import json
import os
import resource
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
        """Writes one request and returns a future for its Response."""
        self.waiter = asyncio.get_running_loop().create_future()
        self.first = None
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


async def fetch(conn: ClientProtocol, method: str, path: str, body: bytes = b"") -> Response:
    """One request/response on an open connection."""
    return await conn.send(request_bytes(method, path, body))


def percentile(values: list, fraction: float) -> float:
    """Nearest-rank percentile of a non-empty list."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, int(round(fraction * len(ordered) + 0.5)) - 1))
    return ordered[index]
