"""`storm.py check`: the stream client's reconnect rules against a fake server, before Recents
sends `retry:` (standard library only; ~2 s).

The fake server answers every GET of an event stream with one event carrying `retry: R`, an `id`
one version past the client's `Last-Event-ID` and a transition from that version, then ends the
answer (the last chunk), so every stream reconnects at once. Checked:
- honouring: each reconnect comes no sooner than R after the stream ended, and well before the
  default wait (which is set far above R, so a client ignoring the field would show);
- each reconnect sends the id of the last event as `Last-Event-ID`, and the events chain;
- with `ignore-retry 1`, the waits fall in the default range instead, whatever R says.
"""

import io
import json
import os
import socket
import tempfile
import threading

import stormstreams
from stormstreams import ATTEMPT, END, SENT_ID


class FakeServer(threading.Thread):
    """Answers `connections` stream requests as described above; when the client comes back once
        more (so it has handled every event), tells it to dump."""

    def __init__(self, retry_ms: int, connections: int, control_fd: int, dump_path: str):
        super().__init__(daemon=True)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.retry_ms, self.connections = retry_ms, connections
        self.control_fd, self.dump_path = control_fd, dump_path
        self.ids = []  # the Last-Event-ID of each request (None when absent)

    def run(self):
        for k in range(self.connections + 1):
            conn, _ = self.listener.accept()
            with conn:
                head = b""
                while b"\r\n\r\n" not in head:
                    head += conn.recv(4096)
                sent = None
                for line in head.decode().split("\r\n"):
                    name, _, value = line.partition(":")
                    if name.lower() == "last-event-id":
                        sent = value.strip()
                self.ids.append(sent)
                if k == self.connections:
                    break  # the client took every event before it came back: done
                since = int(sent.rsplit(".", 1)[1]) if sent else None
                to = (since or 0) + 1
                data = json.dumps({"from": since, "to": to})
                event = f"retry: {self.retry_ms}\nid: fake.{to}\nevent: transition\ndata: {data}\n\n".encode()
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                             + f"{len(event):x}\r\n".encode() + event + b"\r\n0\r\n\r\n")
        os.write(self.control_fd, f"dump {self.dump_path}\n".encode())


def one_run(retry_ms: int, default_retry: tuple, ignore: bool, connections: int = 4) -> tuple:
    """Runs one stream against the fake server; returns (its connection records, the ids the
    server got, the events)."""
    read_fd, write_fd = os.pipe()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "dump.json")
        server = FakeServer(retry_ms, connections, write_fd, path)
        server.start()
        client = stormstreams.Client(server.port, ["fake"], [0], 1, default_retry, 1, 1, control=read_fd,
                                     out=io.StringIO())
        client.ignore_retry = ignore
        client.run()
        with open(path, encoding="utf-8") as handle:
            dump = json.load(handle)
    os.close(read_fd)
    os.close(write_fd)
    server.listener.close()
    return dump["connections"][0], server.ids, dump["events"]


def waits(records: list) -> list:
    """Seconds from each connection's end to the next attempt."""
    return [(b[ATTEMPT] - a[END]) / 1e9 for a, b in zip(records, records[1:])]


def main() -> int:
    """Prints what it checked; exit 1 on a failure."""
    failures = []
    records, ids, events = one_run(retry_ms=200, default_retry=(5.0, 6.0), ignore=False)
    honoured = waits(records)
    if not all(0.2 <= w < 5.0 for w in honoured):
        failures.append(f"honouring retry: 200 ms (default 5-6 s): waits {honoured}")
    if ids != [None, "fake.1", "fake.2", "fake.3", "fake.4"]:
        failures.append(f"Last-Event-ID sent: {ids}")
    if [r[SENT_ID] for r in records] != [None, 1, 2, 3, 4]:
        failures.append(f"ids recorded per attempt: {[r[SENT_ID] for r in records]}")
    chain = [(e[1], e[2]) for e in events]
    if chain != [(None, 1), (1, 2), (2, 3), (3, 4)]:
        failures.append(f"events: {chain}")
    records, _, _ = one_run(retry_ms=5000, default_retry=(0.2, 0.3), ignore=True)
    ignored = waits(records)
    if not all(0.2 <= w < 5.0 for w in ignored):
        failures.append(f"ignoring retry: 5000 ms (default 0.2-0.3 s): waits {ignored}")
    print(json.dumps({"honoured_waits_s": [round(w, 3) for w in honoured],
                      "ignored_waits_s": [round(w, 3) for w in ignored], "failures": failures}))
    return 1 if failures else 0
