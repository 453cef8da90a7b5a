"""One EventSource of stormstreams.py: its list, last event id, reconnection time, socket and the
records of its connection attempts (the record's fields are named here for storm.py's readers).
"""

READ_HEAD = 65536

# Fields of a connection record (a list, for memory: thousands of them per restart).
SCHEDULED, ATTEMPT, CONNECTED, STATUS, FIRST, FIRST_FROM, FIRST_TO, SENT_ID, END, REASON, RETRY = range(11)


class Stream:
    """One EventSource: its list, its last event id, its reconnection time and its socket."""

    __slots__ = ("index", "list_index", "path", "sock", "fd", "connecting", "raw", "head", "body",
                 "last_id", "last_to", "retry_ms", "record", "records", "marked", "generation")

    def __init__(self, index: int, list_index: int, path: str):
        self.index = index
        self.list_index = list_index
        self.path = path
        self.sock = None
        self.fd = -1
        self.connecting = False
        self.raw = bytearray()
        self.head = None
        self.body = bytearray()
        self.last_id = None
        self.last_to = None
        self.retry_ms = None
        self.record = None
        self.records = []
        self.marked = 0  # the await it last counted for
        self.generation = 0

    def request(self) -> bytes:
        """The GET a browser sends, with Last-Event-ID once it has an id."""
        resume = f"Last-Event-ID: {self.last_id}\r\n" if self.last_id else ""
        return (f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                f"Cache-Control: no-cache\r\n{resume}\r\n").encode()

    def wanted(self) -> int:
        """How much to read without passing the end of the current chunk (see sse.py)."""
        if self.head is None:
            return READ_HEAD
        line_end = self.raw.find(b"\r\n")
        if line_end < 0:
            return 16
        return max(1, line_end + 2 + int(self.raw[:line_end], 16) + 2 - len(self.raw))
