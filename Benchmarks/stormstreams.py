"""The stream side of storm.py: one process holding thousands of event streams that reconnect
the way a browser's EventSource does (standard library only; one epoll loop, no asyncio).

Each stream is `GET /v1/lists/NAME/events`. When its answer ends (the last chunk, EOF, a reset)
or a connection attempt fails, it waits its reconnection time and tries again with
`Last-Event-ID` set to the `id` of the last event it got: the time the server last sent in a
`retry:` field, or, when the server sent none (or `ignore-retry 1` is in force), a uniformly
random time in the `--default-retry` range (browsers wait a fixed 1 to 5 s, depending on the
browser; a spread over the range stands for a population of them). A non-200 answer is counted
and retried too (a browser would give up; a client library retries), and `event: resync` or a
410 drops the id, so the next connection starts over without one, as docs/API.md asks.

Every event is kept with the kernel receive timestamp (SO_TIMESTAMPNS, CLOCK_REALTIME) of the
packet that completed it; reads stop at chunk ends so that a later chunk's packet does not date
an earlier event (as in sse.py). Every connection attempt is kept with its schedule, outcome and
first event. storm.py reads both from the dump and does the arithmetic.

Control: one command per line on stdin, one JSON answer per line on stdout:
  ignore-retry 0|1              honour the server's retry: field, or not
  await-back AFTER_NS TIMEOUT   answers once every stream has a connection attempted at or after
                                AFTER_NS that got its first event (or at the timeout)
  await-final PATH TIMEOUT      PATH holds {"list index": version}; answers once every stream's
                                last event reached its list's version (or at the timeout)
  dump PATH                     writes everything to PATH as JSON and exits
"""

import errno
import heapq
import json
import os
import random
import select
import socket
import sys
import time

import netlib
# The record's fields are re-exported: stormcheck.py and stormreport.py read them from here.
from stormstream import (ATTEMPT, CONNECTED, END, FIRST, FIRST_FROM, FIRST_TO, READ_HEAD, REASON, RETRY,  # noqa: F401
                         SCHEDULED, SENT_ID, STATUS, Stream)

SO_TIMESTAMPNS = netlib.SO_TIMESTAMPNS
ANCILLARY = socket.CMSG_SPACE(16)
CONNECT_BATCH = 128
ATTEMPT_TIMEOUT_NS = 30 * 1_000_000_000  # an attempt with no first event by then is abandoned


class Client:
    """The epoll loop, the reconnect timers and the records of every stream of this process."""

    def __init__(self, port: int, names: list, indices: list, per_list: int, default_retry: tuple,
                 parallel: int, seed: int, control=0, out=None):
        self.port = port
        self.control_fd, self.out = control, out or sys.stdout
        self.default_retry = default_retry
        self.ignore_retry = False
        self.parallel = parallel  # handshakes in flight while opening; reconnects are not gated
        self.random = random.Random(seed)
        self.epoll = select.epoll()
        self.streams = [Stream(k, indices[k // per_list], f"/v1/lists/{names[k // per_list]}/events")
                        for k in range(len(indices) * per_list)]
        self.by_fd = {}
        self.timers = []  # (due ns, sequence, stream index, generation)
        self.sequence = 0
        self.events = []  # (stream index, from, to, kernel ns), from None for an initial one, to -1 for a resync
        self.problems = []
        self.opening = True
        self.in_flight = 0
        self.waiting = None  # the pending await-back or await-final: (kind, argument, deadline ns)
        self.await_seq = 0
        self.done = 0  # streams that meet the pending await
        self.control = bytearray()
        self.running = True

    # ----------------------------------------------------------------------------------------
    # Connections

    def connect(self, stream: Stream, scheduled: int):
        """Starts one attempt (a non-blocking connect; the request goes when it completes)."""
        now = time.time_ns()
        stream.generation += 1
        stream.record = [scheduled, now, 0, 0, 0, None, None, _version(stream.last_id), 0, "", stream.retry_ms]
        stream.records.append(stream.record)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM | socket.SOCK_NONBLOCK)
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        stream.sock, stream.fd, stream.connecting = sock, sock.fileno(), True
        stream.raw.clear()
        stream.body.clear()
        stream.head = None
        self.by_fd[stream.fd] = stream
        self.in_flight += 1
        code = sock.connect_ex(("127.0.0.1", self.port))
        if code not in (0, errno.EINPROGRESS):
            return self.drop(stream, f"connect:{errno.errorcode.get(code, code)}")
        self.later(stream, now + ATTEMPT_TIMEOUT_NS, timeout=True)
        # On loopback the handshake usually completes inside connect(), though it says
        # EINPROGRESS: sending at once saves a wake-up per stream when thousands reconnect.
        try:
            sock.send(stream.request())
        except (BlockingIOError, InterruptedError):
            self.epoll.register(stream.fd, select.EPOLLOUT)  # still in SYN_SENT (e.g. a full backlog)
            return
        except OSError as error:
            return self.drop(stream, f"connect:{errno.errorcode.get(error.errno, error.errno)}")
        self.sent(stream, register=True)

    def connected(self, stream: Stream):
        """The handshake finished (or failed) later: send the request."""
        code = stream.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if code:
            return self.drop(stream, f"connect:{errno.errorcode.get(code, code)}")
        try:
            stream.sock.send(stream.request())
        except OSError as error:
            return self.drop(stream, f"send:{errno.errorcode.get(error.errno, error.errno)}")
        self.sent(stream, register=False)

    def sent(self, stream: Stream, register: bool):
        """The request is out: wait for the answer."""
        stream.connecting = False
        stream.record[CONNECTED] = time.time_ns()
        if register:
            self.epoll.register(stream.fd, select.EPOLLIN)
        else:
            self.epoll.modify(stream.fd, select.EPOLLIN)

    def drop(self, stream: Stream, reason: str):
        """Ends the connection and schedules the next attempt after the reconnection time."""
        if stream.sock is None:
            return
        if stream.record[FIRST] == 0:
            self.in_flight -= 1
        try:
            self.epoll.unregister(stream.fd)
        except (OSError, ValueError):
            pass  # never registered (a connect that failed at once)
        del self.by_fd[stream.fd]
        stream.sock.close()
        stream.sock, stream.fd = None, -1
        now = time.time_ns()
        stream.record[END], stream.record[REASON] = now, reason
        stream.generation += 1
        if self.opening and stream.last_id is None:
            self.problems.append(f"stream {stream.index} failed while opening: {reason}")
        if stream.retry_ms is not None and not self.ignore_retry:
            delay_ns = stream.retry_ms * 1_000_000
        else:
            delay_ns = int(self.random.uniform(*self.default_retry) * 1e9)
        self.later(stream, now + delay_ns)

    def later(self, stream: Stream, due: int, timeout: bool = False):
        """A reconnect (or, with `timeout`, the abandonment of a silent attempt) at `due`."""
        self.sequence += 1
        heapq.heappush(self.timers, (due, self.sequence, stream.index, stream.generation, timeout))

    # ----------------------------------------------------------------------------------------
    # Reading

    def readable(self, stream: Stream):
        """Drains the socket, chunk by chunk, stamping each read."""
        while stream.sock is not None:
            try:
                data, ancillary, _, _ = stream.sock.recvmsg(stream.wanted(), ANCILLARY)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                return self.drop(stream, f"recv:{errno.errorcode.get(error.errno, error.errno)}")
            if not data:
                return self.drop(stream, "eof")
            stamp = netlib.kernel_stamp(ancillary)
            stream.raw += data
            self.parse(stream, stamp or time.time_ns())

    def parse(self, stream: Stream, stamp: int):
        """Head, then chunks, then events."""
        if stream.head is None:
            end = stream.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            stream.head = bytes(stream.raw[:end])
            del stream.raw[: end + 4]
            status = int(stream.head[9:12])
            stream.record[STATUS] = status
            if status != 200:
                if status == 410:  # resync-required: reload without an id
                    stream.last_id = None
                    self.events.append((stream.index, None, -1, stamp))
                return self.drop(stream, f"status:{status}")
        while stream.sock is not None:
            line_end = stream.raw.find(b"\r\n")
            if line_end < 0:
                return
            size = int(stream.raw[:line_end], 16)
            if len(stream.raw) < line_end + 2 + size + 2:
                return
            stream.body += stream.raw[line_end + 2: line_end + 2 + size]
            del stream.raw[: line_end + 2 + size + 2]
            if size == 0:
                return self.drop(stream, "closed")
            self.split(stream, stamp)

    def split(self, stream: Stream, stamp: int):
        """Takes whole events out of the body and applies their fields (WHATWG SSE: a field name
        up to the first colon, one optional space after it; `retry` only when all digits)."""
        while stream.sock is not None:
            end = stream.body.find(b"\n\n")
            if end < 0:
                return
            block = bytes(stream.body[:end]).decode()
            del stream.body[: end + 2]
            fields = {}
            for line in block.split("\n"):
                if not line or line.startswith(":"):
                    continue
                name, _, value = line.partition(":")
                fields[name] = value[1:] if value.startswith(" ") else value
            retry = fields.get("retry")
            if retry is not None and retry.isdigit():
                stream.retry_ms = int(retry)
                stream.record[RETRY] = stream.retry_ms
            if "id" in fields:
                stream.last_id = fields["id"]
            kind = fields.get("event", "message")
            if kind == "resync":
                stream.last_id = None
                self.events.append((stream.index, None, -1, stamp))
                continue
            if kind != "transition" or "data" not in fields:
                continue
            diff = json.loads(fields["data"])
            self.event(stream, diff.get("from"), diff["to"], stamp)

    def event(self, stream: Stream, start, to: int, stamp: int):
        """Records one transition; the first of a connection also marks the stream as back."""
        self.events.append((stream.index, start, to, stamp))
        record = stream.record
        if record[FIRST] == 0:
            record[FIRST], record[FIRST_FROM], record[FIRST_TO] = stamp, start, to
            self.in_flight -= 1
        stream.last_to = to
        if self.waiting is not None:
            self.count(stream)

    def meets(self, stream: Stream) -> bool:
        """Whether `stream` meets the pending await: back (a first event on a connection attempted
        after the given instant) or final (its last event at its list's final version)."""
        kind, argument, _ = self.waiting
        if kind == "back":
            record = stream.record
            return record is not None and record[FIRST] != 0 and record[ATTEMPT] >= argument
        return stream.last_to is not None and stream.last_to >= argument.get(stream.list_index, 0)

    def count(self, stream: Stream):
        """Counts `stream` once for the pending await when it meets it."""
        if stream.marked != self.await_seq and self.meets(stream):
            stream.marked = self.await_seq
            self.done += 1

    # ----------------------------------------------------------------------------------------
    # The loop

    def run(self):
        """Opens every stream (`parallel` at a time), then serves events, timers and commands."""
        self.epoll.register(self.control_fd, select.EPOLLIN)
        started = time.perf_counter()
        pending = list(self.streams)
        pending.reverse()
        while self.running:
            while self.opening and pending and self.in_flight < self.parallel:
                self.connect(pending.pop(), time.time_ns())
            if self.opening and not pending and self.in_flight == 0:
                self.opening = False
                self.answer({"open": len(self.streams), "open_s": round(time.perf_counter() - started, 2),
                             "problems": self.problems[:5]})
            timeout = 0.05
            if self.timers:
                timeout = min(timeout, max(0.0, (self.timers[0][0] - time.time_ns()) / 1e9))
            for fd, mask in self.epoll.poll(timeout):
                if fd == self.control_fd:
                    self.command()
                    continue
                stream = self.by_fd.get(fd)
                if stream is None:
                    continue
                if stream.connecting:
                    self.connected(stream)
                elif mask & (select.EPOLLIN | select.EPOLLHUP | select.EPOLLERR):
                    self.readable(stream)
            now = time.time_ns()
            # At most CONNECT_BATCH reconnects between two polls: when thousands fall due at once
            # and the process lags, requests of connections that just completed and events keep
            # their turn (a browser's are independent; here one loop serves them all).
            budget = CONNECT_BATCH
            while self.timers and self.timers[0][0] <= now and budget:
                due, _, index, generation, timeout_kind = heapq.heappop(self.timers)
                stream = self.streams[index]
                if generation != stream.generation:
                    continue  # the attempt ended otherwise meanwhile
                if timeout_kind:
                    if stream.record[FIRST] == 0:
                        self.drop(stream, "timeout")
                    continue
                self.connect(stream, due)
                budget -= 1
            self.check_waiting()

    def command(self):
        """Reads control lines from stdin."""
        data = os.read(self.control_fd, 4096)
        if not data:
            self.running = False
            return
        self.control += data
        while b"\n" in self.control:
            line, _, rest = bytes(self.control).partition(b"\n")
            self.control = bytearray(rest)
            words = line.decode().split()
            if not words:
                continue
            if words[0] == "ignore-retry":
                self.ignore_retry = words[1] == "1"
                self.answer({"ignore_retry": self.ignore_retry})
            elif words[0] in ("await-back", "await-final"):
                if words[0] == "await-back":
                    argument = int(words[1])
                else:
                    with open(words[1], encoding="utf-8") as handle:
                        argument = {int(k): v for k, v in json.load(handle).items()}
                self.waiting = (words[0][6:], argument, time.time_ns() + int(float(words[2]) * 1e9))
                self.await_seq += 1
                self.done = 0
                for stream in self.streams:
                    self.count(stream)
            elif words[0] == "dump":
                self.dump(words[1])
                self.answer({"dumped": words[1]})
                self.running = False

    def check_waiting(self):
        """Answers a pending await once it holds (or at its deadline)."""
        if self.waiting is None:
            return
        kind, _, deadline = self.waiting
        if self.done == len(self.streams) or time.time_ns() >= deadline:
            self.waiting = None
            self.answer({kind: self.done, "streams": len(self.streams)})

    def answer(self, value: dict):
        """One JSON line to the orchestrator."""
        self.out.write(json.dumps(value) + "\n")
        self.out.flush()

    def dump(self, path: str):
        """Everything storm.py needs, as JSON."""
        with open(path, "w", encoding="utf-8") as handle:
            json.dump({"lists": [s.list_index for s in self.streams], "events": self.events,
                       "connections": [s.records for s in self.streams], "problems": self.problems}, handle)


def _version(event_id):
    """The version in an `epoch.version` id, or None."""
    return int(event_id.rsplit(".", 1)[1]) if event_id else None


def main(args) -> int:
    """`storm.py streams`: the streams of this shard's lists."""
    names = [f"{args.prefix}-{i}" for i in range(args.lists)]
    indices = [i for i in range(args.lists) if i % args.shards == args.shard]
    client = Client(args.port, [names[i] for i in indices], indices, args.per_list,
                    tuple(float(x) for x in args.default_retry.split(",")), args.parallel, args.seed + args.shard)
    client.run()
    return 0
