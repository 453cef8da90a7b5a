# shellcheck shell=bash
# Benchmarks/diff.sh: row group 1 of `Benchmarks/run` (issue 7's figure 1; the token and
# rate-limiter figures of issues 10 and 25): recents-bench, another engineer's Swift executable,
# whose JSON lines become rows. Sourced by run; the helpers it calls (log, fig, broken, py, ...)
# are in lib.sh, the scale settings (DIFF_TIMEOUT, DIFF_ARGS) in run.

bench_diff() {
    if [[ -z $BENCH_BIN ]]; then
        fig "1 Diff" "recents-bench all" ms n/a n/a — "" "recents-bench not built"
        return
    fi
    log "diff: recents-bench all"
    local rc=0
    timeout "$DIFF_TIMEOUT" "$BENCH_BIN" all "${DIFF_ARGS[@]}" >"$TMP/diff.jsonl" 2>"$TMP/diff.err" || rc=$?
    if ((rc == 124)); then
        NOTES+=("recents-bench all did not finish within ${DIFF_TIMEOUT} s; figures printed before that are kept")
    elif ((rc)); then
        broken "recents-bench all exited $rc: $(tail -c 300 "$TMP/diff.err")"
    fi
    local g f u r a n t c
    while IFS=$'\t' read -r g f u r a n t c; do
        fig "$g" "$f" "$u" "$r" "$a" "$n" "$t" "$c"
    done < <(py report.py diffrows "$TMP/diff.jsonl")
}

# causes_diff FIGURE: why FIGURE, one of this group's, can miss, as far as profiling found (the
# cause_of of lib.sh asks every group); fails for a figure it has nothing on.
causes_diff() {
    case "$1" in
    "diff n=100000 (general)"*)
        echo "at the limit, and not host noise: 25-36 ms over runs, with thread CPU time within a few % of" \
            "wall time (recents-bench measures both; see the figure's label). perf record -g of recents-bench diff --sizes 100000: 34% in ListDiff.matchIDs (pairing old" \
            "and new rows by ID), 13% swift_retain/release, 7% ListDiff.rows(from:to:), 5% generalDiff, 3%" \
            "malloc_consolidate; the move detection itself (longestIncreasingSurvivors) is 1.3%. The fast path" \
            "on the same churn without moves takes 6.7-9 ms, so the general path's ID matching is the cost to cut" \
            "(fewer hash lookups and retains per row)."
        ;;
    *) return 1 ;;
    esac
}
