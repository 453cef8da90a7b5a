# shellcheck shell=bash
# Benchmarks/auth.sh: the auth rows of row group 2 (issues 10, 25 and 26): the cached read with
# a bearer token (HS256) and an identity provider's ES256 token against the same server with
# --auth none sent the same bytes, both loaded at once (the gated rows) and one after the other;
# plus what a browser's request headers cost. Sourced by run; the helpers (wrk_cpu, wrk_summary,
# round_notes, cpu_ticks, ...) are in lib.sh, the scale (AUTH_ROUNDS, AUTH_SECONDS) in run.

# wrk_at_once OUT_A PID_A URL_A OUT_B PID_B URL_B HEADER: one wrk -t1 -c64 per server, both at the
# same time and sent the same header, each server's CPU ticks appended to its file. Both servers
# share the host's drift within the round, so their ratio holds still where rounds run one after
# the other swing by more than what is measured; each server gets about half the host, so its
# req/s is about half what it reaches alone.
wrk_at_once() {
    local out_a=$1 pid_a=$2 url_a=$3 out_b=$4 pid_b=$5 url_b=$6 header=$7 a0 b0 wa wb
    a0=$(cpu_ticks "$pid_a") b0=$(cpu_ticks "$pid_b")
    wrk -t1 -c64 -d"${WRK_SECONDS}s" --timeout 10s --latency -H "$header" "$url_a" >"$out_a" 2>&1 &
    wa=$!
    wrk -t1 -c64 -d"${WRK_SECONDS}s" --timeout 10s --latency -H "$header" "$url_b" >"$out_b" 2>&1 &
    wb=$!
    wait "$wa" || broken "wrk $url_a: $(tail -3 "$out_a")"
    wait "$wb" || broken "wrk $url_b: $(tail -3 "$out_b")"
    echo "server_cpu_ticks: $(($(cpu_ticks "$pid_a") - a0))" >>"$out_a"
    echo "server_cpu_ticks: $(($(cpu_ticks "$pid_b") - b0))" >>"$out_b"
}

# Issue 10: the hot cached GET rows with auth on ÷ auth off, two servers on the read database,
# rounds interleaved. Issue 26 asks for the same bytes: auth off is sent the very request auth on
# is, Authorization header included (it ignores it), so the ratio is what checking the token costs;
# the answers are compared too. Auth off sent the bare request stays as a reported row: that is the
# comparison before 2026-12-02, and it also counts parsing the header's ~200 bytes.
# Issue 25: a third server checks an identity provider's ES256 token instead (a key set made by
# es256_token.py with openssl), the same way, against auth off sent that token.
bench_auth() {
    local secret=bench-secret-0123456789abcdef0123456789 path="/v1/lists/bench/rows?limit=20"
    local off_port on_port off_pid on_pid token round idp_port idp_pid es256
    local idp_flags=(--auth-issuer https://idp.bench --auth-audience recents) seeded=1
    mkdir -p "$TMP/auth/idp" "$TMP/read"
    # Alone (--only auth), the read benchmark did not seed the database: the list is seeded here.
    [[ -f $TMP/read/db.sqlite ]] || seeded=0
    off_port=$(free_port)
    "$RECENTS" serve --port "$off_port" --db "$TMP/read/db.sqlite" --log-level warn --auth none \
        2>"$TMP/auth/off.log" &
    off_pid=$!
    PIDS+=("$off_pid")
    on_port=$(free_port)
    RECENTS_AUTH_SECRET=$secret "$RECENTS" serve --port "$on_port" --db "$TMP/read/db.sqlite" --log-level warn \
        2>"$TMP/auth/on.log" &
    on_pid=$!
    PIDS+=("$on_pid")
    es256=$(py es256_token.py "$TMP/auth/idp" --list bench --issuer https://idp.bench --audience recents) ||
        broken "es256_token.py failed"
    idp_port=$(free_port)
    "$RECENTS" serve --port "$idp_port" --db "$TMP/read/db.sqlite" --log-level warn \
        --auth-jwks "$TMP/auth/idp/jwks.json" "${idp_flags[@]}" 2>"$TMP/auth/idp.log" &
    idp_pid=$!
    PIDS+=("$idp_pid")
    wait_http "$off_port" "$off_pid" || exit 1
    wait_http "$on_port" "$on_pid" || exit 1
    wait_http "$idp_port" "$idp_pid" || exit 1
    ((seeded)) || PORT=$off_port seed --list bench --calls "$SEED_CALLS"
    token=$(RECENTS_AUTH_SECRET=$secret "$RECENTS" token --list bench --scope read --ttl 86400)
    cmp -s <(curl -fsS "http://127.0.0.1:$off_port$path") \
        <(curl -fsS -H "Authorization: Bearer $token" "http://127.0.0.1:$on_port$path") ||
        broken "auth on and auth off bodies differ for $path"
    cmp -s <(curl -fsS "http://127.0.0.1:$off_port$path") \
        <(curl -fsS -H "Authorization: Bearer $es256" "http://127.0.0.1:$idp_port$path") ||
        broken "an ES256 token's answer and auth off's differ for $path"
    cmp -s <(curl -fsS "http://127.0.0.1:$off_port$path") \
        <(curl -fsS -H "Authorization: Bearer $es256" "http://127.0.0.1:$off_port$path") ||
        broken "auth off answers a request with a token differently from the bare one for $path"
    # What a phone's web view or browser sends besides (~450 bytes, none of it read by the server);
    # identity, so the answer is the same bytes as the bare request's.
    local browser=(-H "User-Agent: Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
        -H "Accept: application/json, text/plain, */*" -H "Accept-Language: en-GB,en;q=0.9"
        -H "Accept-Encoding: identity" -H "Referer: https://app.example.com/recents"
        -H "Origin: https://app.example.com" -H "Sec-Fetch-Mode: cors" -H "Sec-Fetch-Site: same-site"
        -H "Cookie: session=abcdef0123456789abcdef0123456789; theme=dark; consent=yes")
    # The order turns round every other round: this host's speed drifts within a round (auth on,
    # always run second, swung 0.77-0.95x from run to run; rotated by hand it cost what auth off
    # plus ~2 us did), so no kind always runs first or last. Many short rounds rather than two
    # long ones: the same server's CPU per request moved between 13 and 20 us from one 5 s run to
    # the next (2026-12-02), and two rounds of each kind put 0.72-1.2 on the ratio by chance.
    # off and offes: auth off sent auth on's and the ES256 server's requests; bare: Host only.
    local kinds=(off on offes es256 bare browser) WRK_SECONDS=$AUTH_SECONDS
    NOTES+=("auth figures: $AUTH_ROUNDS rounds of wrk -t2 -c64 -d${AUTH_SECONDS}s per server and request, the order reversed every other round; each row shows the mean of the rounds")
    for ((round = 1; round <= AUTH_ROUNDS; round++)); do
        local order=("${kinds[@]}") kind
        ((round % 2)) || order=(browser bare es256 offes on off)
        for kind in "${order[@]}"; do
            case $kind in
            off) wrk_cpu "$TMP/wrk-auth-off-$round.txt" "$off_pid" -H "Authorization: Bearer $token" \
                "http://127.0.0.1:$off_port$path" ;;
            on) wrk_cpu "$TMP/wrk-auth-on-$round.txt" "$on_pid" -H "Authorization: Bearer $token" \
                "http://127.0.0.1:$on_port$path" ;;
            offes) wrk_cpu "$TMP/wrk-auth-offes-$round.txt" "$off_pid" -H "Authorization: Bearer $es256" \
                "http://127.0.0.1:$off_port$path" ;;
            es256) wrk_cpu "$TMP/wrk-auth-es256-$round.txt" "$idp_pid" -H "Authorization: Bearer $es256" \
                "http://127.0.0.1:$idp_port$path" ;;
            bare) wrk_cpu "$TMP/wrk-auth-bare-$round.txt" "$off_pid" "http://127.0.0.1:$off_port$path" ;;
            browser) wrk_cpu "$TMP/wrk-auth-browser-$round.txt" "$off_pid" "${browser[@]}" \
                "http://127.0.0.1:$off_port$path" ;;
            esac
        done
    done
    # The gated rows: auth off and auth on (then auth off and ES256) loaded at the same time, so
    # the host's drift falls on both alike; which wrk starts first turns round every round.
    NOTES+=("auth figures loaded at once: $AUTH_ROUNDS rounds of two wrk -t1 -c64 -d${AUTH_SECONDS}s started together, one per server, the same request bytes; each server gets about half the host, so its req/s is about half what it reaches alone")
    for ((round = 1; round <= AUTH_ROUNDS; round++)); do
        local on_side=("$TMP/wrk-auth-at-on-$round.txt" "$on_pid" "http://127.0.0.1:$on_port$path")
        local off_side=("$TMP/wrk-auth-at-off-$round.txt" "$off_pid" "http://127.0.0.1:$off_port$path")
        local es_side=("$TMP/wrk-auth-at-es256-$round.txt" "$idp_pid" "http://127.0.0.1:$idp_port$path")
        local offes_side=("$TMP/wrk-auth-at-offes-$round.txt" "$off_pid" "http://127.0.0.1:$off_port$path")
        if ((round % 2)); then
            wrk_at_once "${off_side[@]}" "${on_side[@]}" "Authorization: Bearer $token"
            wrk_at_once "${offes_side[@]}" "${es_side[@]}" "Authorization: Bearer $es256"
        else
            wrk_at_once "${es_side[@]}" "${offes_side[@]}" "Authorization: Bearer $es256"
            wrk_at_once "${on_side[@]}" "${off_side[@]}" "Authorization: Bearer $token"
        fi
    done
    local aonr aonc aoffr aoffc aesr aesc aoesr aoesc
    wrk_summary "$TMP"/wrk-auth-at-on-*.txt
    aonr=$MEAN_RPS aonc=$MEAN_CPU
    wrk_summary "$TMP"/wrk-auth-at-off-*.txt
    aoffr=$MEAN_RPS aoffc=$MEAN_CPU
    wrk_summary "$TMP"/wrk-auth-at-es256-*.txt
    aesr=$MEAN_RPS aesc=$MEAN_CPU
    wrk_summary "$TMP"/wrk-auth-at-offes-*.txt
    aoesr=$MEAN_RPS aoesc=$MEAN_CPU
    fig "2 Read" "rows?limit=20 req/s with auth on, both servers loaded at once (bearer token checked per request, verified once)" \
        req/s "$aonr" "$aoffr" "Recents with --auth none at the same time, same request bytes" "ratio_ge:0.95"
    fig "2 Read" "rows?limit=20 with auth on, both servers loaded at once: server CPU per request" µs "$aonc" "$aoffc" \
        "Recents with --auth none at the same time, same request bytes" ""
    fig "2 Read" "rows?limit=20 req/s with an ES256 token, both servers loaded at once (identity provider's key set, verified once)" \
        req/s "$aesr" "$aoesr" "Recents with --auth none at the same time, same request bytes" "ratio_ge:0.95"
    fig "2 Read" "rows?limit=20 with an ES256 token, both servers loaded at once: server CPU per request" µs "$aesc" "$aoesc" \
        "Recents with --auth none at the same time, same request bytes" ""
    round_notes "rows?limit=20 with auth, loaded at once" "auth off / auth on" --twin -at-off- -at-on- \
        "$TMP"/wrk-auth-at-off-*.txt
    round_notes "rows?limit=20 with an ES256 token, loaded at once" "auth off / ES256" --twin -at-offes- -at-es256- \
        "$TMP"/wrk-auth-at-offes-*.txt

    local onr onc offr offc esr esc oesr oesc barer barec brc
    wrk_summary "$TMP"/wrk-auth-browser-*.txt
    brc=$MEAN_CPU
    wrk_summary "$TMP"/wrk-auth-bare-*.txt
    barer=$MEAN_RPS barec=$MEAN_CPU
    wrk_summary "$TMP"/wrk-auth-on-*.txt
    onr=$MEAN_RPS onc=$MEAN_CPU
    wrk_summary "$TMP"/wrk-auth-es256-*.txt
    esr=$MEAN_RPS esc=$MEAN_CPU
    wrk_summary "$TMP"/wrk-auth-off-*.txt
    offr=$MEAN_RPS offc=$MEAN_CPU
    wrk_summary "$TMP"/wrk-auth-offes-*.txt
    oesr=$MEAN_RPS oesc=$MEAN_CPU
    fig "2 Read" "rows?limit=20 req/s with auth on (bearer token checked per request, verified once)" req/s \
        "$onr" "$offr" "Recents with --auth none, same request bytes" ""
    fig "2 Read" "rows?limit=20 with auth on: server CPU per request" µs "$onc" "$offc" \
        "Recents with --auth none, same request bytes" ""
    fig "2 Read" "rows?limit=20 req/s with an ES256 token (identity provider's key set, verified once)" req/s \
        "$esr" "$oesr" "Recents with --auth none, same request bytes" ""
    fig "2 Read" "rows?limit=20 with an ES256 token: server CPU per request" µs "$esc" "$oesc" \
        "Recents with --auth none, same request bytes" ""
    fig "2 Read" "rows?limit=20 req/s, auth on against auth off sent no Authorization header" req/s \
        "$onr" "$barer" "Recents with --auth none, the bare request (Host only)" ""
    fig "2 Read" "rows?limit=20 with auth on's Authorization header, auth off: server CPU per request" µs \
        "$offc" "$barec" "the same request bare (Host only), auth off" ""
    fig "2 Read" "rows?limit=20 with nine browser request headers: server CPU per request" µs "$brc" "$barec" \
        "the same request bare (Host only), auth off" ""
    round_notes "rows?limit=20 with auth" "auth off / auth on, same request bytes" "$TMP"/wrk-auth-off-*.txt
    round_notes "rows?limit=20 with an ES256 token" "auth off / ES256, same request bytes" \
        --twin -offes- -es256- "$TMP"/wrk-auth-offes-*.txt
    stop "$idp_pid"
    stop "$on_pid"
    stop "$off_pid"
}

# causes_auth FIGURE: why FIGURE, one of this group's, can miss, as far as profiling found (the
# cause_of of lib.sh asks every group); fails for a figure it has nothing on.
causes_auth() {
    case "$1" in
    "rows?limit=20 req/s with auth on"*)
        echo "the host's drift more than the check (2026-12-02, static binary, perf record -g of auth on under" \
            "wrk c64): the auth code is ~2.7% of samples (~0.45 us a request), down from 6.5%: a connection" \
            "keeps the token it proved (RememberedToken) and the next request's field is matched where it lies" \
            "in the head, with no TokenCache lookup (its PI mutex both loops contended on: _lockSlow 0.74% ->" \
            "0.36% of samples, auth off 0.29%) and no String; both Vary tokens go out as one literal (the join" \
            "was 1.5-1.8%); field values are checked eight bytes at a time (parseHead self 1.71% -> 1.10%)." \
            "CPU per request 1.04-1.10x auth off in --only auth runs that day, while the same server's CPU per" \
            "request drifted 13-20 us between runs seconds apart: a round's ratio ranges 0.78-1.02, which is" \
            "why the auth rows take eight short rounds. Full run that day: 0.961x (HS256) and 0.956x (ES256)." \
            "2026-12-02, later: auth off is sent the same request bytes (the issue's words); rounds still swing" \
            "0.76-1.03 (one auth-off server drifted 68k-94k req/s within a minute), while both servers loaded" \
            "at once (wrk -t1 -c64 each, same header) gave 0.972 over 6 rounds of 4 s (0.943-1.01): measuring" \
            "the two at once is the way to a steady figure on this host. So the gated rows load both at once;" \
            "in the first such --only auth run (2026-12-02, 8 rounds of 3 s) the ratio was 0.98 (HS256) and" \
            "0.984 (ES256), rounds 0.87-1.07, with CPU per request 1.05x and 1.07x auth off's (~0.6 us: the" \
            "servers are not wholly CPU-bound, each waits on its wrk), while the one-after-the-other rows of" \
            "the same run gave 0.946 and 0.909. Full run that night: 1.00 and 0.983 loaded at once."
        ;;
    "rows?limit=20 req/s with an ES256 token"*)
        echo "the auth row's cause, nothing of its own: after its first request an ES256 token is matched like" \
            "an HS256 one (kept on the connection, else a TokenCache hit; recents-bench jwks: verify+authorize" \
            "0.5 us cached, ~70 us of CPU on first use), and the two servers' CPU per request stay within" \
            "0.3 us of each other (2026-12-02: 16.6 and 16.4 us in one --only auth run, 15.1 and 14.4 in the" \
            "next). See the row with auth on."
        ;;
    *) return 1 ;;
    esac
}
