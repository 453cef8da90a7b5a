# shellcheck shell=bash
# Benchmarks/transitions.sh: row group 5 of `Benchmarks/run` (issue 7's figure 5), the server
# time of GET transitions from the access log against GET rows of the same list. Sourced by run;
# the helpers are in lib.sh, the scale (TR_BULK, TR_SINGLES, TR_BACK, TR_REPEATS) in run.

bench_transitions() {
    log "transitions: a list of $TR_BULK calls + $TR_SINGLES single writes, access-log times (info)"
    start_recents transitions info
    seed --list tr --calls "$TR_BULK"
    py client.py --port "$PORT" posts --list tr --n "$TR_SINGLES" --timestamp 1764470000 ||
        broken "transitions: single posts failed"
    local head
    head=$(py client.py --port "$PORT" version --list tr)
    local one="/v1/lists/tr/transitions?since=$((head - 1))&limit=50"
    local five="/v1/lists/tr/transitions?since=$((head - TR_BACK))&limit=50"
    local rows="/v1/lists/tr/rows?limit=50"
    # The access log names the path without its query, so each kind of request runs in its own
    # phase and is found by the log's byte range (the server writes its log lines at the end of
    # each event-loop iteration, before the next request on the connection can be read).
    local log=$TMP/transitions/server.log marks=() path
    for path in "$rows" "$one" "$five"; do
        marks+=("$(stat -c %s "$log")")
        py client.py --port "$PORT" repeat --path "$path" --n "$TR_REPEATS" || broken "GET $path failed"
        sleep 0.2
    done
    marks+=("$(stat -c %s "$log")")
    stop "$SERVER"
    local r1 r99 o1 o99 f1 f99 n
    read -r r1 r99 n <<<"$(py report.py logtimes "$log" "${rows%%\?*}" "${marks[0]}" "${marks[1]}")"
    read -r o1 o99 n <<<"$(py report.py logtimes "$log" "${one%%\?*}" "${marks[1]}" "${marks[2]}")"
    ((n == TR_REPEATS)) || broken "transitions: $n access-log lines for $one, expected $TR_REPEATS"
    read -r f1 f99 n <<<"$(py report.py logtimes "$log" "${five%%\?*}" "${marks[2]}" "${marks[3]}")"
    local anchor="GET rows?limit=50 of the same list"
    fig "5 Transitions" "since=head-1 (list of $TR_BULK calls), server time median" ms "$o1" "$r1" "$anchor" "le:1"
    fig "5 Transitions" "since=head-1, server time p99" ms "$o99" "$r99" "$anchor" "le:1"
    fig "5 Transitions" "since=head-$TR_BACK, server time median" ms "$f1" "$r1" "$anchor" "le:10"
    fig "5 Transitions" "since=head-$TR_BACK, server time p99" ms "$f99" "$r99" "$anchor" "le:10"
}

# causes_transitions FIGURE: why FIGURE, one of this group's, can miss, as far as profiling found (the
# cause_of of lib.sh asks every group); fails for a figure it has nothing on.
causes_transitions() {
    case "$1" in
    "since=head-1, server time p99"* | "since=head-"*"p99"*)
        echo "median ~0.3 ms, tail from scheduling: a profile of 3,000 since=head-1 requests (perf record -g)" \
            "gave p50 0.30, p90 0.50, p99 4.1 ms; ~29% of samples are kernel, mostly finish_task_switch" \
            "(futex waits and wake-ups of the hand-off from the event loop to a SQLite reader thread and back)" \
            "on a host with load average ~10 (other sessions compiling). CPU work per request is two SQLite" \
            "reads of calls (at head and at since: sqlite3VdbeExec, BtreeTableMoveto) and two RowBuilder.view" \
            "builds; transitions are not cached, unlike rows (ViewCache: 0.02 ms). To confirm on a quiet host;" \
            "serving the head view from ViewCache would halve the SQLite work."
        ;;
    *) return 1 ;;
    esac
}
