# shellcheck shell=bash
# Benchmarks/storm.sh: row group 9 of `Benchmarks/run` (issue 26), the storm: many streams,
# steady writes, SIGTERM and kill -9 restarts (storm.py and its processes). Sourced by run; the
# helpers are in lib.sh, the scale (STORM_ARGS, STORM_RETRY) in run.

# storm.py owns its server (it has to stop and start it against what its clients see) and starts
# it with PR_SET_PDEATHSIG, so a run stopped mid-way leaves none behind. No heartbeats in the
# delivery window (why: bench_sse) and no scheduled end of life (--sse-max-age), so every
# reconnect counted comes from a restart.
bench_storm() {
    log "storm: streams over lists (2 each), steady writes, then SIGTERM and kill -9 restarts, honouring retry: and not"
    local port
    port=$(free_port)
    mkdir -p "$TMP/storm"
    # The client's reconnect rules first (retry:, Last-Event-ID), against a fake server: Recents
    # does not send retry: yet, so the run alone would not show a client that ignores it.
    jrun stormcheck py storm.py check
    jrun storm py storm.py run --port "$port" --per-list 2 "${STORM_ARGS[@]}" --default-retry "$STORM_RETRY" \
        --workdir "$TMP/storm" --server-log "$TMP/storm/server.log" -- \
        "$RECENTS" serve --port "$port" --db "$TMP/storm/db.sqlite" --log-level warn --sse-heartbeat 3600 \
        --sse-max-age 3600
    local g f u r a n t c
    while IFS=$'\t' read -r g f u r a n t c; do
        fig "$g" "$f" "$u" "$r" "$a" "$n" "$t" "$c"
    done < <(py storm.py rows "$TMP/storm.json")
    local note="storm: delivery times run from a write's send (the writer process) to the kernel receive"
    note+=" timestamp of the packet completing its event (the stream process); a restart is over when every"
    note+=" stream has its first event on a connection made after the old server exited (its catch-up from"
    note+=" Last-Event-ID), timed from the new server's first healthy /healthz; honour = streams wait the"
    note+=" retry: the server last sent, ignore = they wait ${STORM_RETRY/,/-} s (uniform) whatever it sent;"
    note+=" the Python clients, the writer and the server share the host's $(nproc) cores, so the"
    note+=" client-lateness rows say how much of a restart figure is the client's"
    NOTES+=("$note")
}

# causes_storm FIGURE: why FIGURE, one of this group's, can miss, as far as profiling found (the
# cause_of of lib.sh asks every group); fails for a figure it has nothing on.
causes_storm() {
    case "$1" in
    *"non-200 answers to reconnects"*)
        echo "in the runs where it missed (2026-12-02, host load average 9-10) every one was a 408" \
            "request-timeout: a connection whose handshake the kernel completed only after a SYN retry (the" \
            "accept queue, 1,024, overflowed while 16,000 streams reconnected) and whose request the Python" \
            "stream process sent more than --head-timeout (10 s) later, being that far behind (its" \
            "client-lateness row, p99 10 s then); i.e. the client, not the server. Runs without 408s had the" \
            "client at most ~4 s late; stormstreams.py now starts at most CONNECT_BATCH reconnects between two" \
            "polls so that requests of completed handshakes keep their turn."
        ;;
    *"deliveries before the first restart"*)
        echo "a (stream, write) pair had no event by the first restart's signal: an event lost, or more than" \
            "--between (3 s) late; look at that run's streams-N.json (storm.py run --workdir) for the stream."
        ;;
    *) return 1 ;;
    esac
}
