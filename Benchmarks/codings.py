#!/usr/bin/env python3
"""Compression clients for Benchmarks/run (issue 23); standard library only.

`bytes`: asks for each answer of the bytes table (`rows?limit=50`, `rows?limit=1000`, the initial
transition of 1,000 rows, and the whole page: index.html plus every file it names, followed
through its scripts' imports and its style sheet's url()s) three times: with no Accept-Encoding
(identity), with `gzip` and with `br`. A coded answer must say so in Content-Encoding, carry
`Vary: Accept-Encoding` and inflate byte for byte to the identity answer (gzip with zlib, br with
Debian's libbrotlidec through ctypes: libraries, not codecs of our own); an answer below the
server's threshold may come back in identity, and then must be the identity bytes. With
`--save-root` the identity and gzip bytes of `rows?limit=50` are written where nginx finds them
for the same URL (`rows` and `rows.gz`, for gzip_static). Prints one JSON object.

`events`: opens one event stream asking for `gzip, br` (the server must answer in identity),
takes its first event (the initial transition), then sends `--writes` single-call POSTs one by one
and takes the event each one causes. Bytes per event are the SSE frames as the server writes them
(chunk framing not counted). The same events are then coded as one gzip stream would code them,
with a sync flush after each (level 6, windowBits 11, memLevel 3: StreamingSettings.lowMemory,
the setting Benchmarks/COMPRESSION.md recommends if streams are ever compressed), and inflated
again event by event to check that each arrives whole. Finally `--encoders` such encoders are
opened in this process, each fed `--per-encoder` events, and VmRSS growth ÷ encoders is the memory
one open stream's encoder would cost (Python's zlib is Debian's zlib, as the server's is).
Prints one JSON object; exits 1 when an answer is wrong.
"""

import argparse
import ctypes
import ctypes.util
import http.client
import json
import os
import random
import re
import statistics
import sys
import zlib

import netlib

CODINGS = ("identity", "gzip", "br")
# StreamingSettings.lowMemory (Sources/RecentsCompression/Streaming/StreamingSettings.swift).
STREAM_LEVEL, STREAM_WINDOW_BITS, STREAM_MEM_LEVEL = 6, 11, 3


def brotli_decoder():
    """BrotliDecoderDecompress from libbrotlidec (installed with curl on Debian), or None."""
    name = ctypes.util.find_library("brotlidec") or "libbrotlidec.so.1"
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        return None
    function = lib.BrotliDecoderDecompress
    function.argtypes = [ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t), ctypes.c_char_p]
    function.restype = ctypes.c_int

    def decode(data: bytes, expected: int) -> bytes:
        # One byte of room beyond the expected size: an answer that inflates to more fails here.
        room = expected + 1
        out = ctypes.create_string_buffer(room)
        size = ctypes.c_size_t(room)
        if function(len(data), data, ctypes.byref(size), out) != 1:  # BROTLI_DECODER_RESULT_SUCCESS
            raise ValueError("br body does not inflate (or inflates to more than the identity body)")
        return out.raw[: size.value]

    return decode


def gunzip(data: bytes) -> bytes:
    """One whole gzip member and nothing after it."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out = inflater.decompress(data) + inflater.flush()
    if not inflater.eof or inflater.unused_data:
        raise ValueError("gzip body is truncated or has bytes after its member")
    return out


def fetch(conn, path: str, coding: str) -> tuple:
    """(status, headers as a lower-cased dict, raw body) of one GET; http.client does not inflate."""
    headers = {} if coding == "identity" else {"Accept-Encoding": coding}
    conn.request("GET", path, headers=headers)
    reply = conn.getresponse()
    return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()


def coded_sizes(conn, path: str, must_code: bool, br_decode) -> tuple:
    """({coding: bytes on the wire}, identity body, problems) for one path."""
    problems = []
    status, _, identity = fetch(conn, path, "identity")
    if status != 200:
        return {}, b"", [f"GET {path}: {status}"]
    sizes = {"identity": len(identity)}
    for coding in CODINGS[1:]:
        status, headers, body = fetch(conn, path, coding)
        sizes[coding] = len(body)
        sent = headers.get("content-encoding", "identity")
        if status != 200:
            problems.append(f"GET {path} ({coding}): {status}")
            continue
        if sent == "identity":
            if must_code:
                problems.append(f"GET {path} ({coding}): answered in identity")
            elif body != identity:
                problems.append(f"GET {path} ({coding}): identity answer differs from the plain one")
            continue
        if sent != coding:
            problems.append(f"GET {path} ({coding}): Content-Encoding {sent}")
            continue
        if "accept-encoding" not in headers.get("vary", "").lower():
            problems.append(f"GET {path} ({coding}): coded answer without Vary: Accept-Encoding")
        try:
            plain = gunzip(body) if coding == "gzip" else br_decode(body, len(identity))
        except (ValueError, zlib.error) as error:
            problems.append(f"GET {path} ({coding}): {error}")
            continue
        if plain != identity:
            problems.append(f"GET {path} ({coding}): inflates to {len(plain)} bytes, not the identity body")
    return sizes, identity, problems


def page_files(conn) -> list:
    """Paths of index.html and of every file it loads, in the order found: its src/href, the
    scripts' static imports, the style sheet's url()s (what a browser may fetch for the page)."""
    found, queue = [], ["/"]
    while queue:
        path = queue.pop(0)
        if path in found:
            continue
        found.append(path)
        status, _, body = fetch(conn, path, "identity")
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
        text = body.decode("utf-8", errors="replace")
        if path == "/" or path.endswith(".html"):
            refs = re.findall(r'(?:src|href)="([^"]+)"', text)
        elif path.endswith(".js"):
            refs = re.findall(r'\bfrom\s+[\'"]([^\'"]+)[\'"]|\bimport\s+[\'"]([^\'"]+)[\'"]', text)
            refs = [a or b for a, b in refs]
        elif path.endswith(".css"):
            refs = re.findall(r'url\(\s*[\'"]?([^\'")]+)[\'"]?\s*\)', text)
        else:
            refs = []
        base = path.rsplit("/", 1)[0] + "/"
        for ref in refs:
            if re.match(r"^[a-z]+:|^//|^#|^data:", ref):
                continue  # another origin or not a file
            target = os.path.normpath(base + ref.removeprefix("./")) if not ref.startswith("/") else ref
            queue.append(target)
    return found


def cmd_bytes(args) -> int:
    """The bytes table; see the module docstring."""
    br_decode = brotli_decoder()
    if br_decode is None:
        print(json.dumps({"error": "libbrotlidec not found (Debian package libbrotli1)"}))
        return 1
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
    base = f"/v1/lists/{args.list}"
    targets = {"rows50": f"{base}/rows?limit=50", "rows1000": f"{base}/rows?limit=1000",
               "initial1000": f"{base}/transitions?limit=1000"}
    result, problems = {}, []
    for name, path in targets.items():
        sizes, identity, found = coded_sizes(conn, path, True, br_decode)
        problems += found
        if identity:
            body = json.loads(identity)
            sizes["rows"] = len(body["rows"]) if "rows" in body else body.get("count")
        result[name] = sizes
        if name == "rows50" and args.save_root and identity:
            _, headers, gz = fetch(conn, path, "gzip")
            target = os.path.join(args.save_root, path.split("?")[0].lstrip("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as handle:
                handle.write(identity)
            with open(target + ".gz", "wb") as handle:
                handle.write(gz)
    files = page_files(conn)
    page = {coding: 0 for coding in CODINGS}
    per_file = {}
    for path in files:
        sizes, _, found = coded_sizes(conn, path, False, br_decode)
        problems += found
        per_file[path] = sizes
        for coding in CODINGS:
            page[coding] += sizes.get(coding, 0)
    page["loaded"] = len(files) - 1  # index.html loads the others
    result["page"] = page
    result["page_files"] = per_file
    result["problems"] = problems[:10]
    result["problem_count"] = len(problems)
    print(json.dumps(result))
    return 1 if problems else 0


def call_body(index: int, rng: random.Random, timestamp: int) -> bytes:
    """One new call from one of 60 peers, as a phone would post it."""
    peer = rng.randrange(60)
    direction = rng.choice(["incoming", "incoming", "outgoing"])
    call = {"id": f"ev-{index}-{rng.getrandbits(48):012x}", "peer": {"id": f"peer-{peer}", "name": f"Peer {peer}"},
            "direction": direction, "video": rng.random() < 0.2, "timestamp": timestamp}
    if direction == "incoming" and rng.random() < 0.3:
        call["endReason"] = "missed"
    else:
        call["duration"] = rng.randrange(5, 900)
    return json.dumps(call).encode()


def read_event(reply) -> bytes:
    """One SSE event as framed on the wire (its lines up to and including the blank one);
    keep-alive comments are skipped."""
    while True:
        lines = []
        while True:
            line = reply.readline()
            if not line:
                raise RuntimeError("the event stream ended")
            lines.append(line)
            if line in (b"\n", b"\r\n"):
                break
        event = b"".join(lines)
        if any(line.startswith(b"event:") or line.startswith(b"data:") for line in lines):
            return event


def stream_code(events: list) -> list:
    """Coded size of each event in one per-stream gzip encoder with a sync flush after each,
    checked by inflating the stream event by event (each must come out whole on arrival)."""
    encoder = zlib.compressobj(STREAM_LEVEL, zlib.DEFLATED, 16 + STREAM_WINDOW_BITS, STREAM_MEM_LEVEL)
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    sizes = []
    for event in events:
        coded = encoder.compress(event) + encoder.flush(zlib.Z_SYNC_FLUSH)
        if inflater.decompress(coded) != event:
            raise RuntimeError("a sync-flushed event did not inflate whole on arrival")
        sizes.append(len(coded))
    return sizes


def encoder_memory(events: list, encoders: int, per_encoder: int) -> float:
    """KiB of VmRSS growth per open encoder, each fed `per_encoder` events with sync flushes."""
    before = netlib.rss_kb(os.getpid())
    open_encoders = []
    for i in range(encoders):
        encoder = zlib.compressobj(STREAM_LEVEL, zlib.DEFLATED, 16 + STREAM_WINDOW_BITS, STREAM_MEM_LEVEL)
        for k in range(per_encoder):
            encoder.compress(events[(i + k) % len(events)])
            encoder.flush(zlib.Z_SYNC_FLUSH)
        open_encoders.append(encoder)
    grown = netlib.rss_kb(os.getpid()) - before
    return grown / max(1, len(open_encoders))


def cmd_events(args) -> int:
    """Bytes per event and encoder memory; see the module docstring."""
    stream = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
    stream.request("GET", f"/v1/lists/{args.list}/events",
                   headers={"Accept": "text/event-stream", "Accept-Encoding": "gzip, br"})
    reply = stream.getresponse()
    if reply.status != 200:
        print(json.dumps({"error": f"GET events: {reply.status}"}))
        return 1
    sent_coding = reply.getheader("Content-Encoding", "identity")
    events = [read_event(reply)]
    writer = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
    rng = random.Random(23)
    for i in range(args.writes):
        writer.request("POST", f"/v1/lists/{args.list}/calls", body=call_body(i, rng, args.timestamp + 60 * i),
                       headers={"Content-Type": "application/json"})
        answer = writer.getresponse()
        answer.read()
        if answer.status != 201:
            print(json.dumps({"error": f"POST {i}: {answer.status}"}))
            return 1
        events.append(read_event(reply))
    stream.close()
    writer.close()
    coded = stream_code(events)
    steady = slice(1 + args.warmup, None)
    result = {"events": len(events), "content_encoding": sent_coding,
              "first_identity": len(events[0]), "first_gzip": coded[0],
              "steady_events": len(events[steady]),
              "steady_identity": round(statistics.fmean(map(len, events[steady])), 1),
              "steady_gzip": round(statistics.fmean(coded[steady]), 1),
              "setting": f"gzip level {STREAM_LEVEL}, windowBits {STREAM_WINDOW_BITS}, memLevel {STREAM_MEM_LEVEL}",
              "zlib": zlib.ZLIB_RUNTIME_VERSION}
    result["encoder_kib"] = round(encoder_memory(events[1:], args.encoders, args.per_encoder), 2)
    result["encoders"] = args.encoders
    print(json.dumps(result))
    if sent_coding != "identity":
        print(f"the event stream answered in {sent_coding}; docs/API.md says identity", file=sys.stderr)
        return 1
    return 0


def main(argv) -> int:
    """Parses flags and runs one subcommand."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--list", required=True)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("bytes")
    b.add_argument("--save-root", help="write rows?limit=50 and its gzip copy here, for nginx")
    e = sub.add_parser("events")
    e.add_argument("--writes", type=int, default=300)
    e.add_argument("--warmup", type=int, default=20, help="change events left out of the steady mean")
    e.add_argument("--timestamp", type=int, default=1764470000, help="first write's time (newer than the list)")
    e.add_argument("--encoders", type=int, default=10000)
    e.add_argument("--per-encoder", type=int, default=30)
    args = parser.parse_args(argv)
    return {"bytes": cmd_bytes, "events": cmd_events}[args.command](args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
