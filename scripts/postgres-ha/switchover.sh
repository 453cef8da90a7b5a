# shellcheck shell=bash disable=SC2154 # dir and port: postgres-ha.sh and nodes.sh
# scripts/postgres-ha/switchover.sh: `postgres-ha.sh switchover`, writes fenced off the old
# primary around `pg_autoctl perform switchover`. Sourced by postgres-ha.sh after nodes.sh.

# Writes stop on the node (as pg_autoctl itself stops them on a standby it promotes): existing
# sessions take the setting at their next transaction, target_session_attrs=read-write skips the
# node, and the function returns once no transaction that may write is left open there.
fence() { # node
    sql "${port[$1]}" postgres "ALTER SYSTEM SET default_transaction_read_only = on" >/dev/null &&
        sql "${port[$1]}" postgres "SELECT pg_reload_conf()" >/dev/null || return 1
    local deadline=$((SECONDS + 10))
    until [[ $(sql "${port[$1]}" postgres "SELECT count(*) FROM pg_stat_activity
                 WHERE backend_type = 'client backend' AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()") == 0 ]]; do
        ((SECONDS < deadline)) || return 1
        sleep 0.02
    done
}
unfence() { # node: the keeper sets the value itself whenever it promotes the node
    sql "${port[$1]}" postgres "ALTER SYSTEM SET default_transaction_read_only = off" >/dev/null &&
        sql "${port[$1]}" postgres "SELECT pg_reload_conf()" >/dev/null
}

# pg_auto_failover 2.0's monitor sets the old primary to wait_primary (synchronous replication
# off) as soon as the standby leaves the secondary state for prepare_promotion, so the old primary
# goes on acknowledging writes that the promoted standby never receives, until it is demoted
# seconds later (hapostgres/pg_auto_failover#774; check-postgres-ha.py lost 2,180 acknowledged
# writes that way). So writes are fenced off the old primary first, and let in again on the
# node once it is the secondary.
switchover() {
    local old new t0 t
    load_ports || die "no setup in $dir (run start first)"
    old=$(require_healthy switchover)
    new=$(other "$old")
    t0=$(now)
    echo "event=switchover from=$old to=$new at=$t0"
    fenced=$old
    trap release_fence EXIT
    fence "$old" || die "could not stop writes on $old before the switchover"
    t=$(now)
    echo "event=fenced node=$old at=$t after=$(since "$t0" "$t")"
    as_user pg_autoctl perform switchover --pgdata "$dir/monitor" >>"$dir/log/switchover.log" 2>&1 &
    local perform=$!
    wait_writable "$new" "$t0"
    wait "$perform" || die "pg_autoctl perform switchover failed (log: $dir/log/switchover.log)"
    wait_healthy_with "$new" "$t0"
}
# Writes are let in again on the fenced node only while the pair is healthy: then it is either
# the secondary (done) or still the primary (the switchover never started). In between it could
# take writes that the new primary never sees, so it stays fenced and the error says so.
fenced=""
release_fence() {
    [[ -n $fenced ]] || return 0
    if [[ -n $(healthy_primary) ]] && unfence "$fenced"; then
        return 0
    fi
    echo "postgres-ha.sh: $fenced keeps default_transaction_read_only = on (nodes: $(states));" \
        "once the pair is healthy: ALTER SYSTEM SET default_transaction_read_only = off on it" >&2
}
