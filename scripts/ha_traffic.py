"""The traffic of scripts/check-postgres-ha.py: writers, event streams and the read-back (stdlib only).

`Writers` posts new calls without ids, each with its own `Idempotency-Key`, and retries the same
bytes with the same key after a 503 or a broken connection until it is acknowledged (201), as a
careful client does; every acknowledgement and every failed attempt is recorded with its time.
`EventStream` follows one list like a browser's `EventSource`: it reconnects after the stream
ends with `Last-Event-ID` (after `retry:` milliseconds when the server sent one, else the given
delay), and records every answer that is not 200 (where an `EventSource` would stop for good),
every end of the stream, every silence longer than `stall_seconds` (the server sends heartbeats,
so silence means the stream is stuck; it is dropped and reopened), and every event that does not
chain on the one before.
`missing_calls` reads acknowledged calls back with pipelined GETs.
"""

import http.client
import json
import socket
import threading
import time


class HTTPReader:
    """Buffered reads of HTTP/1.1 answers from a socket: heads, sized and chunked bodies."""

    def __init__(self, sock: socket.socket):
        self.sock, self.buffer = sock, b""

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise EOFError("the connection closed")
        self.buffer += data

    def line(self) -> bytes:
        while b"\r\n" not in self.buffer:
            self._fill()
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def exact(self, count: int) -> bytes:
        while len(self.buffer) < count:
            self._fill()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def head(self):
        """The status code and the header fields (names lowercased) of the next answer."""
        status = int(self.line().split(b" ", 2)[1])
        headers = {}
        while line := self.line():
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, headers

    def chunk(self):
        """The next chunk of a chunked body; b"" for the last one."""
        size = int(self.line().split(b";")[0], 16)
        if size == 0:
            while self.line():  # trailer fields, up to the empty line that ends the body
                pass
            return b""
        data = self.exact(size)
        self.line()
        return data

    def body(self, headers) -> bytes:
        if headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while part := self.chunk():
                parts.append(part)
            return b"".join(parts)
        return self.exact(int(headers.get("content-length", "0")))


class Ack:
    """One acknowledged write: what was posted, what the server answered, and when."""

    __slots__ = ("list", "key", "call_id", "version", "first_sent", "sent", "acked", "attempts", "replayed")

    def __init__(self, **fields):
        for name, value in fields.items():
            setattr(self, name, value)


def _problem(data):
    """The `type` and `detail` of a problem+json body, or empty strings."""
    try:
        problem = json.loads(data)
        return problem.get("type", ""), problem.get("detail", "")
    except (ValueError, AttributeError):
        return "", ""


class Writers:
    """`count` threads posting calls to their lists through their instances until stopped."""

    def __init__(self, count, ports, lists, run_id, rate=0.0, retry_delay=0.1, timeout=10.0):
        self.count, self.ports, self.lists, self.run_id = count, ports, lists, run_id
        self.interval = count / rate if rate > 0 else 0.0
        self.retry_delay, self.timeout = retry_delay, timeout
        self.lock = threading.Lock()
        self.acks = []  # Ack, in the order they arrived
        self.failures = []  # (time, writer, kind): kind is "503", "connection" or "status NNN"
        self.unexpected = []  # (time, list, key, status, body) for answers other than 201 and 503
        self.unsettled = []  # (list, key) still unacknowledged when the writers gave up
        self.refused = []  # (time, problem type, detail, Retry-After) of every 503
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(n,), daemon=True) for n in range(count)]

    def start(self):
        for thread in self.threads:
            thread.start()

    def stop(self, settle_seconds=60.0):
        """Stops after each writer's pending write is acknowledged (or `settle_seconds` passed)."""
        self.settle_deadline = time.time() + settle_seconds
        self.stopping.set()
        for thread in self.threads:
            thread.join()

    def snapshot(self):
        with self.lock:
            return list(self.acks), list(self.failures)

    def _run(self, n):
        lst = self.lists[n % len(self.lists)]
        port = self.ports[(n // len(self.lists)) % len(self.ports)]
        conn, seq, next_slot = None, 0, time.time()
        while not self.stopping.is_set():
            if self.interval:
                next_slot += self.interval
                pause = next_slot - time.time()
                if pause > 0:
                    time.sleep(pause)
            seq += 1
            key = f"{self.run_id}-{n}-{seq}"
            body = json.dumps({"peer": {"id": f"w{n}"}, "direction": "incoming", "duration": seq % 600,
                               "timestamp": 1764460800 + seq}).encode()
            conn = self._post_until_acked(n, conn, port, lst, key, body)

    def _post_until_acked(self, n, conn, port, lst, key, body):
        first_sent, attempts = time.time(), 0
        headers = {"Content-Type": "application/json", "Idempotency-Key": key}
        while True:
            if self.stopping.is_set() and time.time() > self.settle_deadline:
                with self.lock:
                    self.unsettled.append((lst, key))
                return conn
            attempts += 1
            sent = time.time()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=self.timeout)
                conn.request("POST", f"/v1/lists/{lst}/calls", body, headers)
                answer = conn.getresponse()
                data = answer.read()
            except (OSError, http.client.HTTPException):
                if conn is not None:
                    conn.close()
                conn = None
                with self.lock:
                    self.failures.append((time.time(), n, "connection"))
                time.sleep(self.retry_delay)
                continue
            now = time.time()
            if answer.status == 201:
                reply = json.loads(data)
                ack = Ack(list=lst, key=key, call_id=reply["calls"][0]["id"], version=reply["version"],
                          first_sent=first_sent, sent=sent, acked=now, attempts=attempts,
                          replayed=answer.getheader("Idempotent-Replayed") == "true")
                with self.lock:
                    self.acks.append(ack)
                return conn
            with self.lock:
                self.failures.append((now, n, "503" if answer.status == 503 else f"status {answer.status}"))
                if answer.status == 503:
                    self.refused.append((now, *_problem(data), answer.getheader("Retry-After")))
                if answer.status != 503:
                    self.unexpected.append((now, lst, key, answer.status, data[:200].decode(errors="replace")))
            if answer.status != 503:
                return conn  # a 4xx or 500 is a finding, not something a retry settles
            time.sleep(self.retry_delay)


class EventStream(threading.Thread):
    """One `GET /v1/lists/{list}/events` follower that reconnects like a browser's EventSource."""

    def __init__(self, n, port, lst, reconnect_delay, stall_seconds):
        super().__init__(daemon=True)
        self.n, self.port, self.list, self.reconnect_delay = n, port, lst, reconnect_delay
        self.stall_seconds, self.last_byte = stall_seconds, time.time()
        self.closing = threading.Event()
        self.sock = None
        self.lock = threading.Lock()
        self.last_id, self.last_to = None, None
        self.requests, self.events = 0, 0
        self.arrivals = []  # (time, to) of every transition
        self.refusals = []  # (time, status, body): an EventSource stops for good on these
        self.ends = []  # (time, how): the stream ended or went silent while it should have stayed open
        self.errors = []  # (time, what): events that do not chain, resyncs, unexpected event types

    def close(self):
        self.closing.set()
        sock = self.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def run(self):
        while not self.closing.is_set():
            when = None
            try:
                how = self._follow_once()
            except TimeoutError:
                # Dated from its last byte: that is when it stopped, not when the timeout said so.
                when, how = self.last_byte, f"silent for {self.stall_seconds:g} s (no event, no heartbeat); dropped"
            except (OSError, EOFError, ValueError) as error:
                how = f"broken ({type(error).__name__}: {error})"
            finally:
                if self.sock is not None:
                    self.sock.close()
                    self.sock = None
            if self.closing.is_set():
                return
            if how is not None:
                with self.lock:
                    self.ends.append((when or time.time(), how))
            self.closing.wait(self.reconnect_delay)

    def _follow_once(self):
        """Follows one answer; how the stream ended, or None when it was refused (recorded)."""
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=self.stall_seconds)
        self.sock = sock
        if self.closing.is_set():
            return None
        resume = f"Last-Event-ID: {self.last_id}\r\n" if self.last_id else ""
        sock.sendall((f"GET /v1/lists/{self.list}/events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                      f"Accept: text/event-stream\r\n{resume}\r\n").encode())
        with self.lock:
            self.requests += 1
        reader = HTTPReader(sock)
        status, headers = reader.head()
        if status != 200:
            body = reader.body(headers)[:160].decode(errors="replace")
            with self.lock:
                self.refusals.append((time.time(), status, body))
            return None
        text, fields = "", {}
        while chunk := reader.chunk():
            self.last_byte = time.time()
            text += chunk.decode()
            *lines, text = text.split("\n")
            for line in lines:
                if line == "":
                    if "data" in fields or "event" in fields:
                        self._event(fields)
                    fields = {}
                elif not line.startswith(":"):
                    name, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if name == "retry" and value.isdigit():
                        self.reconnect_delay = int(value) / 1000
                    elif name == "data" and "data" in fields:
                        fields["data"] += "\n" + value
                    else:
                        fields[name] = value
        return "closed cleanly (last chunk)"

    def _event(self, fields):
        now, kind = time.time(), fields.get("event", "message")
        with self.lock:
            if kind != "transition":
                self.errors.append((now, f"event {kind}: {fields.get('data', '')[:120]}"))
                if kind == "resync":
                    self.last_id, self.last_to = None, None
                return
            data = json.loads(fields["data"])
            start, end = data["from"], data["to"]
            if self.last_to is not None and start != self.last_to:
                self.errors.append((now, f"from {start} after an event to {self.last_to}"))
            if self.last_to is None and start is not None:
                self.errors.append((now, f"first event from {start}, expected an initial one"))
            if start is not None and end < start:
                self.errors.append((now, f"from {start} to {end}"))
            if fields.get("id") != f"{data['epoch']}.{end}":
                self.errors.append((now, f"id {fields.get('id')} for a transition to {end}"))
            self.last_id, self.last_to = fields.get("id"), end
            self.events += 1
            self.arrivals.append((now, end))


def missing_calls(port, acks, batch=200):
    """The acknowledged calls that `GET /v1/lists/{list}/calls/{id}` on `port` does not answer 200."""
    missing = []
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        reader = HTTPReader(sock)
        for start in range(0, len(acks), batch):
            group = acks[start:start + batch]
            sock.sendall(b"".join(f"GET /v1/lists/{a.list}/calls/{a.call_id} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
                                  for a in group))
            for ack in group:
                status, headers = reader.head()
                reader.body(headers)
                if status != 200:
                    missing.append((ack, status))
    return missing


class HealthPoller(threading.Thread):
    """Polls one instance's `/healthz` every `interval` seconds: (time, "ok"/"degraded"/status)."""

    def __init__(self, port, interval=0.25):
        super().__init__(daemon=True)
        self.port, self.interval = port, interval
        self.answers = []
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.wait(self.interval):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/healthz")
                answer = conn.getresponse()
                body = answer.read()
                conn.close()
                label = json.loads(body).get("status", "?") if answer.status == 200 else str(answer.status)
            except (OSError, http.client.HTTPException, ValueError):
                label = "no answer"
            self.answers.append((time.time(), label))
