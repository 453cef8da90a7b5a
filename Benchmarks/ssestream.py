"""The stream client of Benchmarks/sse.py: a raw non-blocking socket per event stream that keeps each
event with the kernel receive timestamp of the packet that completed it, opening many at once, the
server's CPU ticks and gauges, and the kernel's view of a connection (queues, `ss`). Standard
library only; not a script.
"""
import asyncio
import json
import os
import socket
import subprocess
import time

import longpoll
import netlib

CALL_TIMESTAMP = longpoll.CALL_TIMESTAMP
SO_TIMESTAMPNS = netlib.SO_TIMESTAMPNS


def cpu_ticks(pid: int) -> int:
    """User plus system clock ticks the server has used (fields 14 and 15 of /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


TICK_US = 1e6 / os.sysconf("SC_CLK_TCK")


class StreamConnection:
    """A raw non-blocking socket reading one chunked text/event-stream answer; each complete
    event is kept with the kernel receive timestamp of the packet that completed it."""

    def __init__(self, sock: socket.socket, loop):
        self.sock = sock
        self.loop = loop
        self.raw = bytearray()
        self.received = 0  # bytes read from the socket
        self.consumed = 0  # of which parsed (head and whole chunks)
        self.body = bytearray()
        self.body_start = 0  # stream offset of the chunk that holds body[0]
        self.head = None
        self.events = []  # (kernel ns, dict of fields)
        self.closed = False
        self.waiters = []  # (predicate, future)
        self.reading = False

    def start(self, request: bytes):
        """Sends the request and starts reading."""
        self.sock.send(request)
        self.resume()

    def pause(self):
        """Stops reading: the socket fills and the server sees backpressure."""
        if self.reading:
            self.loop.remove_reader(self.sock.fileno())
            self.reading = False

    def resume(self):
        """Reads again."""
        if not self.reading and not self.closed:
            self.loop.add_reader(self.sock.fileno(), self._readable)
            self.reading = True

    def wait_for(self, predicate):
        """A future resolved with (stamp, event) for the first event (already in or to come)
        that `predicate` accepts."""
        future = self.loop.create_future()
        for stamp, event in self.events:
            if predicate(event):
                future.set_result((stamp, event))
                return future
        self.waiters.append((predicate, future))
        return future

    def _wanted(self) -> int:
        """How much to read next without passing the end of the current chunk.

        A receive's timestamp is that of the last packet it took, so one read that took an
        event and the heartbeat sent seconds later (while this client was busy with other
        sockets) would date the event by the heartbeat. Every chunk but the last is at least
        16 bytes, so 16 bytes never reach past the chunk whose size line they start."""
        if self.head is None:
            return 262144
        line_end = self.raw.find(b"\r\n")
        if line_end < 0:
            return 16
        return max(1, line_end + 2 + int(self.raw[:line_end], 16) + 2 - len(self.raw))

    def _readable(self):
        while True:
            try:
                data, ancillary, _, _ = self.sock.recvmsg(self._wanted(), socket.CMSG_SPACE(16))
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                data = b""
            if not data:
                self.closed = True
                self.pause()
                break
            stamp = netlib.kernel_stamp(ancillary)
            self.raw += data
            self.received += len(data)
            self._parse(stamp or time.time_ns())

    def _parse(self, stamp: int):
        if self.head is None:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            self.head = bytes(self.raw[:end])
            del self.raw[: end + 4]
            self.consumed += end + 4
        while True:  # dechunk
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                break
            size = int(self.raw[:line_end], 16)
            if len(self.raw) < line_end + 2 + size + 2:
                break
            if not self.body:
                self.body_start = self.consumed
            self.body += self.raw[line_end + 2 : line_end + 2 + size]
            del self.raw[: line_end + 2 + size + 2]
            self.consumed += line_end + 2 + size + 2
            if size == 0:
                self.closed = True
            self._split(stamp)

    def _split(self, stamp: int):
        """Takes the complete events out of the body; each one records the stream offsets of the
        chunk it started in and of the end of the chunk that completed it."""
        while True:
            end = self.body.find(b"\n\n")
            if end < 0:
                break
            block = bytes(self.body[:end]).decode()
            del self.body[: end + 2]
            start, self.body_start = self.body_start, self.consumed
            if block.startswith(":"):
                continue
            event = {"_start": start, "_end": self.consumed}
            for line in block.split("\n"):
                name, _, value = line.partition(": ")
                event[name] = value
            if "data" in event and event.get("event") == "transition":
                event["json"] = json.loads(event["data"])
            self.events.append((stamp, event))
            for waiter in list(self.waiters):
                predicate, future = waiter
                if not future.done() and predicate(event):
                    future.set_result((stamp, event))
                    self.waiters.remove(waiter)

    def close(self):
        """Closes the socket."""
        self.pause()
        self.sock.close()


def stream_request(path: str) -> bytes:
    """GET with Accept: text/event-stream."""
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()


async def open_streams(port: int, paths: list, parallel: int = 256, receive_buffer: int = 0) -> list:
    """One StreamConnection per path, `parallel` handshakes at a time."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(parallel)

    async def one(path):
        async with gate:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            if receive_buffer:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
            await loop.sock_connect(sock, ("127.0.0.1", port))
            conn = StreamConnection(sock, loop)
            conn.start(stream_request(path))
            return conn

    return await asyncio.gather(*(one(p) for p in paths))


async def gauge(control, name: str) -> int:
    """One gauge of /metrics."""
    reply = await netlib.fetch(control, "GET", "/metrics")
    for line in reply.body.decode().splitlines():
        if line.startswith(name + " "):
            return int(float(line.split()[1]))
    return -1


def kernel_queues(local_port: int, peer_port: int) -> tuple:
    """(send queue of the socket local_port→peer_port, receive queue of peer_port→local_port):
    the tx_queue and rx_queue columns of /proc/net/tcp (bytes written and not yet acknowledged,
    bytes received and not yet read)."""
    send = receive = None
    with open("/proc/net/tcp", encoding="ascii") as table:
        for line in table.readlines()[1:]:
            fields = line.split()
            local, remote = (int(a.split(":")[1], 16) for a in fields[1:3])
            tx, rx = (int(q, 16) for q in fields[4].split(":"))
            if (local, remote) == (local_port, peer_port):
                send = tx
            elif (local, remote) == (peer_port, local_port):
                receive = rx
    if send is None or receive is None:
        raise RuntimeError(f"no loopback socket pair {local_port}<->{peer_port} in /proc/net/tcp")
    return send, receive


def tcp_state(client_port: int) -> list:
    """`ss -tinm` of both ends of a stream's connection (window, persist-timer backoff, queues):
    tells a TCP zero-window stall from a server that has nothing queued; [] without `ss`."""
    try:
        out = subprocess.run(["ss", "-tinmoH", f"( sport = :{client_port} or dport = :{client_port} )"],
                             capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [" ".join(line.split()) for line in out.splitlines() if line.strip()]
