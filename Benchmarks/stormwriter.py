"""The writer side of storm.py: posts one new call at a steady rate, spread over the lists, and
keeps posting through server restarts (standard library only; asyncio).

Write i is due at start + i / rate and goes to the lists in a fixed shuffled round (each list
once per round), so every list gets a write every lists / rate seconds. A pool of keep-alive
connections takes the due writes in order; each write carries `Idempotency-Key: storm-TAG-i` and is
sent again with the same key and bytes after any failure (refused or dropped connection, a 5xx,
408 or 429) until it is answered 201 or 200, so a write the old server committed but could not
acknowledge is answered by a replay (`Idempotent-Replayed: true`) with its first version.

Control: stdin `stop` ends the dispatching; the writer then finishes what is in flight, writes
its records to --workdir/writer-TAG.json and prints one JSON line (the first line it prints is
`{"started": NS}`, CLOCK_REALTIME of write 0's due time).
"""

import asyncio
import json
import random
import sys
import time

CALL_TIMESTAMP = 1764460800
RETRYABLE = {408, 429, 500, 502, 503, 504}


class Reply:
    """Status, whether it was a replay, and the body."""

    __slots__ = ("status", "replayed", "body")

    def __init__(self, status: int, replayed: bool, body: bytes):
        self.status, self.replayed, self.body = status, replayed, body


class Connection(asyncio.Protocol):
    """One keep-alive connection, one request at a time, Content-Length answers."""

    def __init__(self):
        self.transport = None
        self.buffer = bytearray()
        self.waiter = None
        self.lost = False

    def connection_made(self, transport):
        self.transport = transport

    def connection_lost(self, exc):
        self.lost = True
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionError(f"connection lost: {exc}"))

    def request(self, data: bytes) -> asyncio.Future:
        """Sends `data` and returns a future for its Reply."""
        self.waiter = asyncio.get_running_loop().create_future()
        if self.lost:
            self.waiter.set_exception(ConnectionError("connection already closed"))
        else:
            self.transport.write(data)
        return self.waiter

    def data_received(self, data: bytes):
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0 or self.waiter is None:
            return
        head = bytes(self.buffer[:end]).decode("latin-1").lower()
        length, replayed = 0, False
        for line in head.split("\r\n")[1:]:
            name, _, value = line.partition(":")
            if name == "content-length":
                length = int(value)
            elif name == "idempotent-replayed":
                replayed = value.strip() == "true"
        if len(self.buffer) < end + 4 + length:
            return
        reply = Reply(int(head[9:12]), replayed, bytes(self.buffer[end + 4: end + 4 + length]))
        del self.buffer[: end + 4 + length]
        waiter, self.waiter = self.waiter, None
        if not waiter.done():
            waiter.set_result(reply)

    def close(self):
        """Closes the socket."""
        if self.transport is not None:
            self.transport.close()


class Writer:
    """The schedule, the pool and the records."""

    def __init__(self, args):
        self.args = args
        self.names = [f"{args.prefix}-{i}" for i in range(args.lists)]
        self.order = list(range(args.lists))
        random.Random(args.seed).shuffle(self.order)
        self.queue = asyncio.Queue()
        self.stopping = False
        # per write: [list index, due ns, first send ns, last send ns, ack ns, version, attempts, replayed, status]
        self.records = []
        self.failures = {}  # what made a write be sent again, by kind

    def body(self, i: int) -> bytes:
        """Write i: a new call, newest of its list, from one of 50 peers."""
        call = {"id": f"{self.args.tag}-{i}", "peer": {"id": f"p{i % 50}"}, "direction": "incoming",
                "timestamp": CALL_TIMESTAMP + i}
        return json.dumps(call).encode()

    def request(self, i: int, list_index: int) -> bytes:
        """The POST, with its idempotency key."""
        body = self.body(i)
        return (f"POST /v1/lists/{self.names[list_index]}/calls HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                f"Idempotency-Key: storm-{self.args.tag}-{i}\r\n\r\n").encode() + body

    async def dispatch(self, start_perf: float, start_ns: int):
        """Puts each write in the queue at its due time."""
        rate = self.args.rate
        i = 0
        while not self.stopping:
            due = int((time.perf_counter() - start_perf) * rate) + 1
            while i < due:
                list_index = self.order[i % len(self.order)]
                record = [list_index, start_ns + int(i * 1e9 / rate), 0, 0, 0, 0, 0, False, 0]
                self.records.append(record)
                self.queue.put_nowait((i, record))
                i += 1
            await asyncio.sleep(max(0.0, i / rate - (time.perf_counter() - start_perf)))
        for _ in range(self.args.conns):
            self.queue.put_nowait(None)

    def failed(self, kind: str):
        """Counts one reason a write had to be sent again."""
        self.failures[kind] = self.failures.get(kind, 0) + 1

    async def worker(self):
        """One connection: takes due writes in order and retries each until it is answered."""
        loop = asyncio.get_running_loop()
        conn = None
        while True:
            job = await self.queue.get()
            if job is None:
                break
            i, record = job
            data = self.request(i, record[0])
            backoff = 0.02
            while True:
                try:
                    if conn is None or conn.lost:
                        _, conn = await loop.create_connection(Connection, "127.0.0.1", self.args.port)
                    now = time.time_ns()
                    record[2] = record[2] or now
                    record[3] = now
                    record[6] += 1
                    reply = await asyncio.wait_for(conn.request(data), self.args.answer_timeout)
                except (OSError, ConnectionError, asyncio.TimeoutError) as error:
                    self.failed(type(error).__name__)
                    if conn is not None:
                        conn.close()
                    conn = None
                else:
                    if reply.status in (200, 201):
                        record[4] = time.time_ns()
                        record[5] = json.loads(reply.body)["version"]
                        record[7] = reply.replayed
                        record[8] = reply.status
                        break
                    self.failed(f"status {reply.status}")
                    if reply.status not in RETRYABLE:
                        record[8] = reply.status
                        break
                await asyncio.sleep(backoff * random.uniform(0.5, 1.5))
                backoff = min(backoff * 2, 0.5)
        if conn is not None:
            conn.close()

    async def control(self):
        """Waits for `stop` on stdin."""
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line or line.strip() == "stop":
                self.stopping = True
                return

    async def run(self) -> dict:
        """Writes until stopped; returns the summary."""
        start_perf, start_ns = time.perf_counter(), time.time_ns()
        print(json.dumps({"started": start_ns}), flush=True)
        workers = [asyncio.create_task(self.worker()) for _ in range(self.args.conns)]
        control = asyncio.create_task(self.control())
        await self.dispatch(start_perf, start_ns)
        await control
        await asyncio.gather(*workers)
        with open(f"{self.args.workdir}/writer-{self.args.tag}.json", "w", encoding="utf-8") as handle:
            json.dump({"names": self.names, "writes": self.records}, handle)
        acked = sum(1 for r in self.records if r[4])
        return {"writes": len(self.records), "acked": acked, "failures": self.failures,
                "unacknowledged": [i for i, r in enumerate(self.records) if not r[4]][:10]}


def main(args) -> int:
    """`storm.py writer`."""
    result = asyncio.run(Writer(args).run())
    print(json.dumps(result), flush=True)
    return 0 if result["acked"] == result["writes"] else 1
