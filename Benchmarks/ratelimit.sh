# shellcheck shell=bash
# Benchmarks/ratelimit.sh: the rate-limit rows of row group 2 (issue 25): a client within its
# rate, alone and beside a flood that is refused or served (ratelimit.py for the client, wrk for
# the flood). Sourced by run; the helpers are in lib.sh, the scale (WRK_SECONDS, SEED_CALLS) in run.

# Issue 25: one client being limited never slows another. A server with --rate-limit 100; bob
# reads his list at 50/s (within his rate) alone, then while alice floods with wrk and is refused
# (429) past her burst, then while an admin token floods the same way (exempt: every request
# served, the flood without a limit). Bob must never be refused, and a refused flood must cost him
# no more than a served one: refusals hold no lock while doing work.
bench_ratelimit() {
    log "rate limit: bob at 50/s alone, beside a refused flood, beside a served flood"
    local secret=bench-secret-0123456789abcdef0123456789 alice bob admin kind flooder=()
    RECENTS_AUTH_SECRET=$secret start_recents ratelimit warn --rate-limit 100
    alice=$(RECENTS_AUTH_SECRET=$secret "$RECENTS" token --list alice --ttl 86400)
    bob=$(RECENTS_AUTH_SECRET=$secret "$RECENTS" token --list bob --ttl 86400)
    admin=$(RECENTS_AUTH_SECRET=$secret "$RECENTS" token --list ops --scope admin --ttl 86400)
    seed --token "$admin" --list bob --calls "$SEED_CALLS"
    seed --token "$admin" --list alice --calls "$SEED_CALLS"
    local bobs=(py ratelimit.py --port "$PORT" --path "/v1/lists/bob/rows?limit=20" --token "$bob" --rate 50
        --seconds "$WRK_SECONDS")
    jrun rl-alone "${bobs[@]}"
    for kind in refused served; do
        [[ $kind == refused ]] && flooder=(-H "Authorization: Bearer $alice") || flooder=(-H "Authorization: Bearer $admin")
        wrk -t1 -c32 -d"${WRK_SECONDS}s" --timeout 10s "${flooder[@]}" \
            "http://127.0.0.1:$PORT/v1/lists/alice/rows?limit=20" >"$TMP/wrk-rl-$kind.txt" 2>&1 &
        local wrk_pid=$!
        jrun "rl-$kind" "${bobs[@]}"
        wait "$wrk_pid" || broken "wrk (rate-limit $kind flood) failed: $(tail -3 "$TMP/wrk-rl-$kind.txt")"
    done
    stop "$SERVER"
    local a50 r50 r99 s50 s99 bad refused served
    read -r a50 _ <<<"$(jget "$TMP/rl-alone.json" p50_ms p99_ms)"
    read -r r50 r99 <<<"$(jget "$TMP/rl-refused.json" p50_ms p99_ms)"
    read -r s50 s99 <<<"$(jget "$TMP/rl-served.json" p50_ms p99_ms)"
    for kind in alone refused served; do
        bad=$(jget "$TMP/rl-$kind.json" non_200)
        [[ $bad == 0 ]] || broken "rate limit: bob, within his rate, got $bad answers other than 200 ($kind)"
    done
    refused=$(sed -n 's/^ *Non-2xx or 3xx responses: *//p' "$TMP/wrk-rl-refused.txt")
    served=$(sed -n 's/^Requests\/sec: *//p' "$TMP/wrk-rl-served.txt")
    [[ -n $refused ]] || broken "rate limit: alice's flood was never refused"
    NOTES+=("rate limit: alice's flood got ${refused:-0} refusals (429) in ${WRK_SECONDS} s; the admin flood was served at ${served:-?} req/s")
    fig "2 Read" "rows?limit=20 p50 of a client at 50/s while another is refused (429) at full speed" ms \
        "$r50" "$s50" "the same while an exempt admin token floods (served)" "ratio_le:1.1"
    fig "2 Read" "rows?limit=20 p99 of a client at 50/s while another is refused (429) at full speed" ms \
        "$r99" "$s99" "the same while an exempt admin token floods (served)" ""
    fig "2 Read" "rows?limit=20 p50 of a client at 50/s, nobody else (--rate-limit 100)" ms "$a50" "n/a" "" ""
}

# causes_ratelimit FIGURE: why FIGURE, one of this group's, can miss, as far as profiling found (the
# cause_of of lib.sh asks every group); fails for a figure it has nothing on.
causes_ratelimit() {
    case "$1" in
    *"while another is refused (429) at full speed"*)
        echo "the flood, not the limiter: refused, alice's flood ran at ~72,000 requests/s (719,295 429s in" \
            "10 s) against ~50,000/s when served (the admin token), since a 429 is cheaper than a read; bob's" \
            "requests share the two cores and the event loops with more of them. p50 1.02 vs 0.909 ms, and" \
            "none of bob's requests was refused; RateLimiter.admit is one shard lock and a few integer steps" \
            "(recents-bench ratelimit)."
        ;;
    *) return 1 ;;
    esac
}
