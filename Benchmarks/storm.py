#!/usr/bin/env python3
"""The storm of Benchmarks/run (issue 26): many event streams, steady writes, server restarts.
Standard library only.

`run` (what Benchmarks/run calls) owns the whole scenario, because the restarts have to be timed
against what the clients see:
1. starts the server (the command after `--`; it must name --port), then `--procs` stream
   processes (`streams`, stormstreams.py), each holding `--per-list` streams of every
   `--procs`-th list, opened `--parallel` handshakes at a time, until every stream has its first
   event and /metrics counts them all; samples the server's VmRSS;
2. starts the writer (`writer`, stormwriter.py: `--rate` new calls per second over the lists,
   each with an Idempotency-Key, retried until answered) and measures `--seconds` of it: per
   delivered (stream, write) the time from the write's send to the kernel receive timestamp of
   the packet that completed its event, deliveries against writes × streams per list, server CPU
   (user+system ticks of /proc/PID/stat) over the window ÷ events received in it, VmRSS;
3. for each round of `--rounds` (`honour`: streams wait the `retry:` the server last sent,
   `ignore`: they wait 1-3 s, `--default-retry`, whatever it sent), after `--between` seconds of
   writes: SIGTERM, wait for the exit, start the server again on the same database and port,
   poll /healthz every 2 ms; then the same with SIGKILL. Streams reconnect by themselves, with
   Last-Event-ID; the step waits until each has a connection made after the old server's exit
   that got its first event (the catch-up: from the id it sent to the list's head). Per restart:
   seconds from the first healthy /healthz to the last stream back, attempts, refused connects,
   non-200 answers, resyncs (`event: resync` or 410), the spread of reconnect times and the
   peak number of attempts in any 100 ms;
4. stops the writer, waits for every stream to reach its list's last acknowledged version, and
   checks that each stream's events chain (every `from` is the `to` before it, across
   reconnects) and that each catch-up covered every write acknowledged before the restart.

Prints one JSON object; exits 1 when the run is broken (a gap, a stream not back, a write never
acknowledged, a helper that failed). `streams` and `writer` are its helper processes; `rows FILE`
prints Benchmarks/run's figure rows (TSV) for a `run` result; `check` tests the stream client's
reconnect rules (retry:, Last-Event-ID) against a fake server.
"""

import argparse
import asyncio
import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import longpoll  # noqa: E402
import stormcheck  # noqa: E402
import stormreport  # noqa: E402  (after the path set-up, for the helpers run from anywhere)
import stormstreams  # noqa: E402
import stormwriter  # noqa: E402

PR_SET_PDEATHSIG = 1
TICK_NS = 1e9 / os.sysconf("SC_CLK_TCK")


def die_with_parent():
    """preexec_fn: the child gets SIGKILL when this process dies, so no server or helper outlives
    a run that was itself killed (Benchmarks/run stops only the PIDs it knows)."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def cpu_ticks(pid: int) -> int:
    """User plus system clock ticks of `pid` (fields 14 and 15 of /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def rss_kb(pid: int) -> int:
    """VmRSS of `pid` in KiB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def get(port: int, path: str, timeout: float = 1.0):
    """(status, body) of one GET on a new connection, or None when nothing answers."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            data = bytearray()
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return None
    head, _, body = bytes(data).partition(b"\r\n\r\n")
    return (int(head[9:12]), body) if len(head) >= 12 else None


def listen_drops() -> int:
    """TcpExt ListenDrops of /proc/net/netstat: SYNs or handshakes dropped because a listener's
    accept queue was full (so the client retries after 1 s, then 3 s). Counted for the whole
    network namespace, so other work on the host adds to it."""
    with open("/proc/net/netstat", encoding="ascii") as netstat:
        lines = [line.split() for line in netstat if line.startswith("TcpExt:")]
    return int(dict(zip(lines[0], lines[1])).get("ListenDrops", 0)) if len(lines) >= 2 else 0


def gauge(port: int, name: str) -> int:
    """One gauge of /metrics (-1 when absent)."""
    answer = get(port, "/metrics", timeout=10)
    for line in (answer[1].decode().splitlines() if answer else []):
        if line.startswith(name + " "):
            return int(float(line.split()[1]))
    return -1


class Server:
    """The server process, started again and again on the same command (same database, port)."""

    def __init__(self, command: list, port: int, log_path: str):
        self.command, self.port, self.log_path = command, port, log_path
        self.proc = None

    def start(self, timeout: float = 30.0) -> tuple:
        """Execs the server; returns (exec ns, first healthy /healthz ns), polling every 2 ms."""
        with open(self.log_path, "ab") as log:
            exec_ns = time.time_ns()
            self.proc = subprocess.Popen(self.command, stdout=subprocess.DEVNULL, stderr=log,
                                         preexec_fn=die_with_parent)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            answer = get(self.port, "/healthz", timeout=0.5)
            if answer and answer[0] == 200:
                return exec_ns, time.time_ns()
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode} before /healthz answered")
            time.sleep(0.002)
        raise RuntimeError(f"the server did not answer /healthz within {timeout} s")

    def stop(self, sig: int, timeout: float = 30.0) -> tuple:
        """Sends `sig`; returns (signal ns, exit ns). SIGKILL after `timeout` s."""
        stop_ns = time.time_ns()
        self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return stop_ns, time.time_ns()

    @property
    def pid(self) -> int:
        """The running server's PID."""
        return self.proc.pid


class Helper:
    """A helper process (streams or writer) spoken to in JSON lines over its stdin and stdout."""

    def __init__(self, arguments: list):
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "storm.py")] + arguments,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     preexec_fn=die_with_parent)

    def send(self, line: str):
        """One command."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self) -> dict:
        """One answer; a helper that died is an error."""
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"helper {self.proc.args[2]} exited with {self.proc.wait()}")
        return json.loads(line)


def ask(helpers: list, line: str) -> list:
    """Sends `line` to every helper, then reads one answer from each."""
    for helper in helpers:
        helper.send(line)
    return [helper.read() for helper in helpers]


def writes_alone(args, server: Server, common: list) -> dict:
    """The anchor of the CPU figures: the same writes at the same rate on the same server (the
    lists exist already) with no stream open, for --baseline-seconds; server CPU per write."""
    time.sleep(args.settle)  # the streams' connections are closed; let the server see it
    open_now = gauge(args.port, "recents_open_event_streams")
    writer = Helper(["writer"] + common + ["--rate", str(args.rate), "--conns", str(args.conns),
                                           "--workdir", args.workdir, "--tag", "alone"])
    try:
        writer.read()
        ticks_a, window_a = cpu_ticks(server.pid), time.time_ns()
        time.sleep(args.baseline_seconds)
        ticks_b, window_b = cpu_ticks(server.pid), time.time_ns()
        writer.send("stop")
        summary = writer.read()
    finally:
        if writer.proc.poll() is None:
            writer.proc.kill()
            writer.proc.wait()
    with open(os.path.join(args.workdir, "writer-alone.json"), encoding="utf-8") as handle:
        sent = sum(1 for r in json.load(handle)["writes"] if window_a <= r[2] <= window_b)
    return {"streams_open": open_now, "writes": sent, "acked": summary["acked"], "of": summary["writes"],
            "cpu_us_per_write": round((ticks_b - ticks_a) * TICK_NS / 1000 / max(1, sent), 2)}


def run(args) -> dict:
    """The scenario; see the module docstring."""
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    workdir = args.workdir
    os.makedirs(workdir, exist_ok=True)
    server = Server(command, args.port, args.server_log)
    streams, writer = [], None
    try:
        server.start()
        rss_idle = rss_kb(server.pid)
        # Every list gets its first calls now, so the measured writes and the writes-alone anchor
        # are all writes to existing lists (a list's first write also creates its row).
        names = [f"{args.prefix}-{i}" for i in range(args.lists)]
        asyncio.run(longpoll.prepare_lists(args.port, names, args.base_calls))
        common = ["--port", str(args.port), "--prefix", args.prefix, "--lists", str(args.lists)]
        streams = [Helper(["streams"] + common + ["--per-list", str(args.per_list), "--shard", str(k),
                                                  "--shards", str(args.procs), "--parallel", str(args.parallel),
                                                  "--default-retry", args.default_retry])
                   for k in range(args.procs)]
        opened = [helper.read() for helper in streams]
        total = args.lists * args.per_list
        counted = gauge(args.port, "recents_open_event_streams")
        if counted < total:
            raise RuntimeError(f"/metrics counts {counted} open streams, {total} opened")
        time.sleep(args.settle)
        rss_open = rss_kb(server.pid)

        writer = Helper(["writer"] + common + ["--rate", str(args.rate), "--conns", str(args.conns),
                                               "--workdir", workdir, "--tag", "storm"])
        writer.read()  # started
        ticks_a, window_a = cpu_ticks(server.pid), time.time_ns()
        time.sleep(args.seconds)
        ticks_b, window_b = cpu_ticks(server.pid), time.time_ns()
        steady = {"from_ns": window_a, "to_ns": window_b, "cpu_ns": (ticks_b - ticks_a) * TICK_NS,
                  "rss_kb": rss_kb(server.pid)}

        phases = []
        for round_name in args.rounds.split(","):
            ask(streams, f"ignore-retry {1 if round_name == 'ignore' else 0}")
            for kind, sig in (("term", signal.SIGTERM), ("kill", signal.SIGKILL)):
                time.sleep(args.between)
                clients = sum(cpu_ticks(h.proc.pid) for h in streams)
                drops = listen_drops()
                stop_ns, exit_ns = server.stop(sig)
                exec_ns, healthy_ns = server.start()
                back = ask(streams, f"await-back {exit_ns} {args.back_timeout}")
                phases.append({"name": kind if round_name == "honour" else f"{kind}_{round_name}",
                               "kind": kind, "honour_retry": round_name == "honour", "stop_ns": stop_ns,
                               "exit_ns": exit_ns, "exec_ns": exec_ns, "healthy_ns": healthy_ns,
                               "answered_ns": time.time_ns(), "back": sum(b["back"] for b in back),
                               "listen_drops": listen_drops() - drops,
                               # the new server's CPU from its exec until every stream was back, and
                               # the stream processes' from the signal: who had the cores meanwhile
                               "server_cpu_s": cpu_ticks(server.pid) * TICK_NS / 1e9,
                               "clients_cpu_s": (sum(cpu_ticks(h.proc.pid) for h in streams) - clients)
                               * TICK_NS / 1e9})
        time.sleep(args.between)
        writer.send("stop")
        written = writer.read()
        end_ns = time.time_ns()
        with open(os.path.join(workdir, "writer-storm.json"), encoding="utf-8") as handle:
            writes = json.load(handle)["writes"]
        targets = {}
        for record in writes:
            if record[4]:
                targets[record[0]] = max(targets.get(record[0], 0), record[5])
        with open(os.path.join(workdir, "targets.json"), "w", encoding="utf-8") as handle:
            json.dump(targets, handle)
        final = ask(streams, f"await-final {workdir}/targets.json {args.back_timeout}")
        dumps = []
        for k, helper in enumerate(streams):
            path = os.path.join(workdir, f"streams-{k}.json")
            helper.send(f"dump {path}")
            helper.read()
            helper.proc.wait(timeout=60)
            with open(path, encoding="utf-8") as handle:
                dumps.append(json.load(handle))
        rss_end = rss_kb(server.pid)
        alone = writes_alone(args, server, common)
    finally:
        for helper in streams + ([writer] if writer else []):
            if helper.proc.poll() is None:
                helper.proc.kill()
                helper.proc.wait()
        if server.proc is not None and server.proc.poll() is None:
            server.stop(signal.SIGTERM)

    result = stormreport.analyse(args, writes, dumps, steady, phases, end_ns, alone)
    result.update({"rss_idle_kb": rss_idle, "rss_open_kb": rss_open, "rss_end_kb": rss_end,
                   "open_s": max(o["open_s"] for o in opened), "writer": written,
                   "final_streams_at_target": sum(f["final"] for f in final), "streams": total})
    if result["final_streams_at_target"] < total:
        result["problems"].append(f"{total - result['final_streams_at_target']} streams never reached their "
                                  f"list's last version within {args.back_timeout} s")
    if written["acked"] < written["writes"]:
        result["problems"].append(f"{written['writes'] - written['acked']} writes never acknowledged")
    result["problem_count"] = len(result["problems"])
    result["problems"] = result["problems"][:10]
    return result


def parse_args(argv):
    """Command line; see --help."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    modes = {name: sub.add_parser(name) for name in ("run", "streams", "writer")}
    for one in modes.values():
        one.add_argument("--port", type=int, required=True)
        one.add_argument("--prefix", default="storm", help="list names are PREFIX-0 ... PREFIX-(lists-1)")
        one.add_argument("--lists", type=int, default=8000)
        one.add_argument("--seed", type=int, default=26)
    for name in ("run", "streams"):
        modes[name].add_argument("--per-list", type=int, default=2, help="streams per list")
        modes[name].add_argument("--parallel", type=int, default=256, help="handshakes in flight while opening")
        modes[name].add_argument("--default-retry", default="1,3",
                                 help="seconds (low,high) a stream waits when it has no retry: to honour")
    for name in ("run", "writer"):
        modes[name].add_argument("--rate", type=float, default=1000.0, help="writes per second")
        modes[name].add_argument("--conns", type=int, default=32, help="writer connections")
        modes[name].add_argument("--workdir", default="/tmp/storm")
        modes[name].add_argument("--answer-timeout", type=float, default=10.0)
        modes[name].add_argument("--tag", default="storm", help="writer: call ids and keys start with it")
    run_mode = modes["run"]
    run_mode.add_argument("--procs", type=int, default=2, help="stream processes (~8,000 sockets each)")
    run_mode.add_argument("--seconds", type=float, default=15.0, help="the measured window of steady writes")
    run_mode.add_argument("--between", type=float, default=3.0, help="seconds of writes before each restart")
    run_mode.add_argument("--rounds", default="honour,ignore",
                          help="comma-separated: honour (wait the server's retry:) and/or ignore "
                               "(wait --default-retry)")
    run_mode.add_argument("--back-timeout", type=float, default=60.0)
    run_mode.add_argument("--base-calls", type=int, default=3, help="calls given to every list before the streams open")
    run_mode.add_argument("--baseline-seconds", type=float, default=5.0,
                          help="the same writes with no stream open, for CPU per write")
    run_mode.add_argument("--settle", type=float, default=1.0, help="seconds before sampling RSS")
    run_mode.add_argument("--server-log", default="/tmp/storm/server.log")
    run_mode.add_argument("command", nargs=argparse.REMAINDER, help="-- the server command")
    sub.add_parser("check", help="the stream client's reconnect rules against a fake server (stormcheck.py)")
    rows_mode = sub.add_parser("rows", help="Benchmarks/run's figure rows (TSV) of a run's JSON output")
    rows_mode.add_argument("result")
    streams_mode = modes["streams"]
    streams_mode.add_argument("--shard", type=int, default=0)
    streams_mode.add_argument("--shards", type=int, default=1)
    return parser.parse_args(argv)


def main(argv) -> int:
    """Runs one mode."""
    args = parse_args(argv)
    if args.mode == "check":
        return stormcheck.main()
    if args.mode == "rows":
        with open(args.result, encoding="utf-8") as handle:
            lines = handle.read().strip().splitlines()
        for row in stormreport.rows(json.loads(lines[-1]) if lines else {}):
            print("\t".join(row))
        return 0
    import resource  # the sockets of a stream process do not fit the usual soft limit of 1024

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 20000, hard))
    if args.mode == "streams":
        return stormstreams.main(args)
    if args.mode == "writer":
        return stormwriter.main(args)
    try:
        result = run(args)
    except RuntimeError as error:
        # the scale too, so that the table's labels stay those of the run that broke
        result = {"error": str(error), "lists": args.lists, "streams": args.lists * args.per_list,
                  "rate": args.rate, "default_retry_s": args.default_retry, "steady": {"seconds": args.seconds}}
    print(json.dumps(result), flush=True)
    return 1 if "error" in result or result.get("problem_count") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
