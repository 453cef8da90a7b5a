#!/usr/bin/env python3
"""A TCP proxy that makes a loopback link behave like a phone's: every byte is held for a fixed
delay in each direction, a new connection costs one round trip before its first byte gets
through (as TCP's handshake does), and the link can be cut (every connection closed at once and
new ones refused) and restored on the same port. Standard library only.

usage: scripts/delay-proxy.py --upstream 127.0.0.1:8080 [--listen 8090] [--one-way-ms 75]
As a module (scripts/check-web.py): DelayProxy(upstream_port, one_way_ms).start(); .cut(); .restore().
"""
import argparse
import asyncio
import socket
import struct
import sys
import threading
import time

CHUNK = 65536


class _Pipe:
    """One direction of one connection: chunks read at time t are written at t + delay, in order."""

    def __init__(self, reader, writer, delay, not_before, proxy):
        self.reader = reader
        self.writer = writer
        self.delay = delay
        self.not_before = not_before
        self.proxy = proxy
        self.queue = asyncio.Queue()

    async def read(self):
        try:
            while True:
                data = await self.reader.read(CHUNK)
                due = max(time.monotonic() + self.delay, self.not_before)
                self.proxy.last_due = max(self.proxy.last_due, due)
                await self.queue.put((due, data))
                if not data:
                    return
        except (ConnectionError, OSError):
            await self.queue.put((time.monotonic(), None))

    async def write(self):
        try:
            while True:
                due, data = await self.queue.get()
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                if data is None:
                    self.writer.close()
                    return
                if not data:
                    if self.writer.can_write_eof():
                        self.writer.write_eof()
                    return
                self.writer.write(data)
                await self.writer.drain()
        except (ConnectionError, OSError):
            self.writer.close()


def _abort(writer):
    """Closes a socket with a reset (SO_LINGER 0), as a dropped radio link looks to the peer's next write."""
    sock = writer.get_extra_info("socket")
    try:
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    writer.transport.abort()


class DelayProxy:
    """Listens on 127.0.0.1 (a free port unless given) and forwards to 127.0.0.1:upstream_port."""

    def __init__(self, upstream_port, one_way_ms, listen_port=0, upstream_host="127.0.0.1"):
        self.upstream = (upstream_host, upstream_port)
        self.one_way = one_way_ms / 1000
        self.port = listen_port
        self.loop = asyncio.new_event_loop()
        self.server = None
        self.connections = set()
        self.accepted = 0
        self.cuts = 0
        self.last_due = 0.0  # when the last byte read so far is delivered

    # MARK: control, from any thread

    def start(self):
        """Starts the loop on its own thread and listens; returns self (port is then known)."""
        threading.Thread(target=self.loop.run_forever, name="delay-proxy", daemon=True).start()
        self._call(self._listen())
        return self

    def set_delay(self, one_way_ms):
        """Changes the delay for bytes read from now on."""
        self.one_way = one_way_ms / 1000

    def cut(self):
        """Offline: closes every connection (a reset) and stops listening, so connects are refused."""
        self._call(self._cut())

    def restore(self):
        """Online again, on the same port."""
        self._call(self._listen())

    def stop(self):
        """Cuts the link and ends the loop's thread, its connection tasks cancelled first."""
        self.cut()
        self._call(self._cancel_tasks())
        self.loop.call_soon_threadsafe(self.loop.stop)

    @property
    def online(self):
        return self.server is not None

    def quiet_for(self):
        """Seconds since the last byte on any connection was delivered (negative while bytes are in flight)."""
        return time.monotonic() - self.last_due

    def _call(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=10)

    # MARK: the loop's side

    async def _listen(self):
        if self.server is not None:
            return
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", self.port, reuse_address=True)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _cut(self):
        self.cuts += 1
        server, self.server = self.server, None
        if server is not None:
            server.close()
        for writer in list(self.connections):
            _abort(writer)
        self.connections.clear()

    async def _cancel_tasks(self):
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _accept(self, client_reader, client_writer):
        accepted_at = time.monotonic()
        self.accepted += 1
        cuts = self.cuts
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            _abort(client_writer)
            return
        if cuts != self.cuts:
            # Cut while the upstream connection was opening: this one must not outlive the cut.
            _abort(client_writer)
            _abort(up_writer)
            return
        pair = {client_writer, up_writer}
        self.connections |= pair
        delay = self.one_way
        # The handshake a real link would cost: SYN and SYN-ACK take a round trip before the
        # client's first byte leaves, which then needs its own one-way delay to arrive.
        upward = _Pipe(client_reader, up_writer, delay, accepted_at + 3 * delay, self)
        downward = _Pipe(up_reader, client_writer, delay, accepted_at, self)
        try:
            await asyncio.gather(upward.read(), upward.write(), downward.read(), downward.write())
        except asyncio.CancelledError:
            pass  # stop(): the handler ends quietly (asyncio's stream callback trips on a cancelled handler)
        finally:
            self.connections -= pair
            for w in pair:
                w.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", default="127.0.0.1:8080")
    parser.add_argument("--listen", type=int, default=8090)
    parser.add_argument("--one-way-ms", type=float, default=75)
    args = parser.parse_args()
    host, port = args.upstream.rsplit(":", 1)
    proxy = DelayProxy(int(port), args.one_way_ms, args.listen, host).start()
    print(f"127.0.0.1:{proxy.port} -> {args.upstream}, {args.one_way_ms:g} ms each way "
          f"({2 * args.one_way_ms:g} ms round trips); Ctrl-C ends it", file=sys.stderr)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        proxy.stop()


if __name__ == "__main__":
    main()
