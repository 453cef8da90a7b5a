#!/usr/bin/env bash
# scripts/postgres-ha.sh start|stop|status|failover|switchover DIR
#
# The reference PostgreSQL high-availability setup for Recents (docs/DEPLOY.md, "High availability"):
# a pg_auto_failover monitor and two data nodes (node1, node2) on free loopback ports under DIR,
# synchronous replication between the two, run by an unprivileged user (PostgreSQL refuses root;
# as root the script uses, and if needed creates, the system user recents-pg, like
# scripts/postgres-cluster.sh). Needs Debian's postgresql-15-auto-failover (pg_autoctl).
#
#   start       create what is missing, start what is stopped, wait until one node is primary and
#               the other its synchronous secondary; print the multi-host URI for `--db` on stdout
#   stop        stop every process of the setup (monitor, keepers, postgres and its backends)
#   status      the monitor's view of the nodes (`pg_autoctl show state`); exit 1 unless healthy
#   failover    kill -9 the primary node (its pg_autoctl and every postgres process), wait until
#               the other node takes writes, then restart the killed node and wait until it is
#               the secondary again (re-created from the new primary if its keeper cannot rejoin:
#               see rejoin())
#   switchover  stop writes on the primary (see switchover() for why), `pg_autoctl perform
#               switchover`, wait until the other node takes writes and the pair is healthy again
#
# failover and switchover print one logfmt line per step on stdout, with wall-clock times (Unix
# seconds) and durations measured by writing to the node directly (psql, not Recents):
#   event=killed node=node1 at=T          event=switchover from=node1 to=node2 at=T
#                                         event=fenced node=node1 at=T after=S
#   event=writable node=node2 at=T after=S        (S seconds after the kill or the command)
#   event=recreated node=node1 at=T after=S       (failover only, and only when rejoin() had to)
#   event=healthy primary=node2 secondary=node1 at=T after=S
# Everything else pg_autoctl says goes to DIR/log/. Every command is idempotent: start on a running
# setup only prints the URI, stop on a stopped (or missing) one does nothing.
# Tests only: POSTGRES_HA_TEST_BREAK_REJOIN=rewind|keeper makes failover break the killed node's
# rejoin on purpose (see break_crash_recovery()); it must end healthy all the same.
set -euo pipefail

usage="usage: postgres-ha.sh start|stop|status|failover|switchover DIR"
cmd=${1:?$usage}
dir=${2:?$usage}
dir=$(realpath -m "$dir")
die() {
    echo "postgres-ha.sh: $*" >&2
    exit 1
}

# ---- The monitor's settings (milliseconds; each is justified in docs/DEPLOY.md) ----------------
# A killed node refuses connections at once, so the health check marks it bad after its
# 1 + max_retries tries: within period + max_retries × retry_delay ≈ 0.9 s. The monitor fails over
# only when the node is bad *and* its keeper has not reported for node_considered_unhealthy_timeout
# (keepers report every second), so a slow but living node is not failed over.
health_check_period=500
health_check_timeout=500
health_check_max_retries=2
health_check_retry_delay=200
node_considered_unhealthy_timeout=1000
# How long the promoted standby stays read-only so that an old primary that is alive but cut off
# stops first; it is most of a failover's time (a killed primary needs none of it). 5 s covers an
# old primary that notices at once that it lost both the monitor and its standby
# (network_partition_timeout below, plus a keeper loop and its 2 s connect timeout), not one that
# still counts its standby until wal_sender_timeout (30 s) drops it: that one may serve stale
# reads meanwhile, but acknowledges no write (its commits wait for a standby that no longer
# follows it). docs/DEPLOY.md weighs this against pg_autoctl's 30 s default.
primary_demote_timeout=5000
# ---- The keepers' settings (seconds) ----
# A primary that reaches neither the monitor nor its standby for this long stops its postgres.
network_partition_timeout=2
# A primary whose postgres died but whose keeper lives restarts it in place (cheaper than a
# failover) and reports it down after 3 failed starts or 20 s: pg_autoctl's defaults, kept.
postgresql_restart_failure_timeout=20
postgresql_restart_failure_max_retries=3
# ---- The script's own (seconds) ----
# How long a killed node's keeper gets to rejoin as the secondary (pg_rewind) before the node is
# dropped and re-created from the new primary (rejoin()). A rejoin takes 3-15 s here; the keeper's
# own fallback to pg_basebackup waits for a spread checkpoint on the primary, which took 41 s
# under CI's write load. Past this budget the keeper is taken to be stuck.
rejoin_timeout=90

# The setup's parts, each a file of functions (nodes.sh also finds PostgreSQL, pg_autoctl and the
# user when sourced, so every command fails the same way without them).
here=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=scripts/postgres-ha/nodes.sh
source "$here/postgres-ha/nodes.sh"

start() {
    mkdir -p "$dir"
    chown "$user" "$dir" 2>/dev/null || true
    as_user test -w "$dir" ||
        die "$user cannot write $dir (are its parent folders traversable? chmod 755 them)"
    # A Unix socket path is at most 107 bytes.
    ((${#dir} <= 80)) || die "DIR is too long for PostgreSQL's socket path (at most 80 characters): $dir"
    mkdir -p "$dir/log"
    as_user mkdir -p "$dir/sock" "$dir/xdg/config" "$dir/xdg/data" "$dir/xdg/run"
    load_ports || pick_ports
    load_ports
    local name
    for name in "${nodes[@]}"; do
        if [[ -e $dir/$name ]] && ! created "$name" && ! running "$name"; then
            die "$dir/$name is half-created (an earlier start failed): run stop, remove $dir, start again"
        fi
    done

    created monitor || create_monitor
    start_service monitor
    wait_for 60 "the monitor accepting connections" monitor_ready
    configure_monitor
    created node1 || create_node node1
    start_service node1
    wait_for 60 "node1 registered" node_registered node1
    # The second node is built by pg_basebackup from the first, which the keeper must run.
    created node2 || create_node node2
    start_service node2
    wait_for 180 "a primary and its synchronous secondary" pair_healthy
    local primary
    primary=$(healthy_primary)
    sql "${port[$primary]}" postgres "CREATE TABLE IF NOT EXISTS recents_ha_probe (at timestamptz);
        INSERT INTO recents_ha_probe SELECT now() WHERE NOT EXISTS (SELECT FROM recents_ha_probe)" >/dev/null
    uri
}

stop() {
    [[ -d $dir ]] || return 0
    load_ports || true
    local name
    # The monitor first, so that stopping the primary does not start a failover.
    for name in "${nodes[@]}"; do
        running "$name" || continue
        as_user pg_autoctl stop --pgdata "$dir/$name" >>"$dir/log/$name.log" 2>&1 || true
        local deadline=$((SECONDS + 30))
        while running "$name" && ((SECONDS < deadline)); do
            sleep 0.1
        done
        if running "$name"; then
            echo "postgres-ha.sh: $name did not stop within 30 s; killed" >&2
            kill_node "$name" >/dev/null
        fi
    done
}

status() {
    load_ports || die "no setup in $dir"
    local name down=()
    for name in "${nodes[@]}"; do running "$name" || down+=("$name"); done
    ((${#down[@]} == 0)) || die "not running: ${down[*]}"
    as_user pg_autoctl show state --pgdata "$dir/monitor" 2>/dev/null || echo "nodes: $(states)"
    echo "uri: $(uri)"
    pair_healthy || die "the pair is not healthy (nodes: $(states))"
}

failover() {
    local old new t0
    load_ports || die "no setup in $dir (run start first)"
    old=$(require_healthy failover)
    new=$(other "$old")
    t0=$(kill_node "$old")
    echo "event=killed node=$old at=$t0"
    wait_writable "$new" "$t0"
    # The killed node rejoins as the secondary (pg_rewind), so the pair can fail over again.
    case ${POSTGRES_HA_TEST_BREAK_REJOIN:-} in
    "") recover_killed "$old" ;;
    rewind) break_crash_recovery "$old" </dev/null >/dev/null 2>&1 & ;;
    keeper) ;;
    *) die "POSTGRES_HA_TEST_BREAK_REJOIN is rewind or keeper, not '$POSTGRES_HA_TEST_BREAK_REJOIN'" ;;
    esac
    start_service "$old"
    [[ ${POSTGRES_HA_TEST_BREAK_REJOIN:-} == keeper ]] && freeze_node "$old"
    rejoin "$old" "$new" "$t0"
    wait_healthy_with "$new" "$t0"
}

# pg_rewind needs a target that was shut down cleanly. Left as kill -9 left it, the keeper first
# runs a crash recovery of its own: it writes standby.signal, starts postgres, and stops it with a
# SIGTERM that it does not wait for (pg_auto_failover 2.0, postgres_maybe_do_crash_recovery). When
# pg_rewind then still finds the cluster not shut down, it runs a single-user crash recovery of its
# own, which refuses to start beside standby.signal ("standby mode is not supported by single-user
# servers"), and the keeper falls back to pg_basebackup (see rejoin()). So the script does that
# crash recovery first, as pg_rewind would: a single-user postgres (it opens no port, so no client
# can write to the old primary meanwhile) replays the local WAL and ends with a shutdown checkpoint;
# the keeper then finds the cluster shut down, skips its own recovery and runs pg_rewind at once.
# The node was the primary when it was killed, so no signal file is expected; should one be there,
# or the recovery fail, the keeper is left to it and rejoin() watches the outcome.
recover_killed() { # node
    local pgdata=$dir/$1 state log=$dir/log/$1.log
    state=$(as_user env LC_ALL=C "$bindir/pg_controldata" "$pgdata" 2>/dev/null | sed -n 's/^Database cluster state: *//p')
    [[ $state == "shut down" || $state == "shut down in recovery" ]] && return 0
    if [[ -e $pgdata/standby.signal || -e $pgdata/recovery.signal ]]; then
        echo "postgres-ha.sh: $1 ($state) has a signal file; crash recovery left to its keeper" >>"$log"
        return 0
    fi
    echo "postgres-ha.sh: crash recovery of $1 ($state) in single-user mode before its keeper starts" >>"$log"
    as_user timeout 120 "$bindir/postgres" --single -D "$pgdata" template1 </dev/null >>"$log" 2>&1 ||
        echo "postgres-ha.sh: the crash recovery of $1 failed (exit $?); left to its keeper" >>"$log"
}

# The killed node is back as the secondary once its keeper rejoins; a keeper that has not done so
# within rejoin_timeout is taken to be stuck (in one CI run: pg_rewind refused, the pg_basebackup
# fallback took 41 s, then its postgres never started), and the node is re-created from the new
# primary, as a new standby would be: dropped from the monitor, its directories wiped, created
# again (pg_basebackup) and started. Only the stuck node is touched, and only after the monitor
# and a write confirm that the other node is the primary; on the primary nothing changes but
# the timing of a checkpoint (hurry_base_backup).
rejoin() { # node primary started-at
    local deadline=$((SECONDS + rejoin_timeout)) polls=0
    while [[ $(healthy_primary) != "$2" ]]; do
        ((SECONDS < deadline)) || break
        # The keeper's own fallback to pg_basebackup, should pg_rewind fail.
        ((polls++ % 5 == 0)) && hurry_base_backup "$2"
        sleep 0.2
    done
    [[ $(healthy_primary) == "$2" ]] && return 0
    echo "postgres-ha.sh: $1 did not rejoin within ${rejoin_timeout}s (nodes: $(states)); re-creating it" >>"$dir/log/$1.log"
    recreate_node "$1" "$2"
    local t
    t=$(now)
    echo "event=recreated node=$1 at=$t after=$(since "$3" "$t")"
}
recreate_node() { # node primary
    [[ $1 == node1 || $1 == node2 ]] || die "recreate_node: no node '$1'"
    local goal id
    goal=$(monitor_sql "SELECT goalstate FROM pgautofailover.node WHERE nodename = '$2'") ||
        die "cannot re-create $1: the monitor does not answer (nodes: $(states))"
    if ! [[ $goal == primary || $goal == wait_primary || $goal == single ]] || ! writable "$2"; then
        die "cannot re-create $1: $2 is not the primary taking writes (nodes: $(states))"
    fi
    running "$1" && kill_node "$1" >/dev/null
    id=$(monitor_sql "SELECT nodeid FROM pgautofailover.node WHERE nodename = '$1'")
    if [[ -n $id ]]; then
        as_user pg_autoctl drop node --pgdata "$dir/monitor" --name "$1" --force --wait 0 >>"$dir/log/$1.log" 2>&1 ||
            die "dropping $1 from the monitor failed (log: $dir/log/$1.log)"
        rm -rf "$dir/backup/node_$id"
    fi
    rm -rf "${dir:?}/$1" "$dir/xdg/config/pg_autoctl$dir/$1" "$dir/xdg/data/pg_autoctl$dir/$1" \
        "$dir/xdg/run/pg_autoctl$dir/$1"
    # `create postgres` runs the pg_basebackup; its checkpoint is hurried meanwhile.
    (
        for _ in $(seq 600); do
            hurry_base_backup "$2"
            sleep 0.2
        done
    ) </dev/null >/dev/null 2>&1 &
    local hurrying=$!
    create_node "$1"
    kill "$hurrying" 2>/dev/null || true
    start_service "$1"
}
# pg_autoctl's pg_basebackup asks the primary for a spread checkpoint, which writes about 10 dirty
# buffers a second (41 s under CI's writes). While a base backup waits for one, an immediate
# CHECKPOINT makes the checkpointer finish it at full speed: the same data, only written sooner.
hurry_base_backup() { # primary
    local waiting
    waiting=$(sql "${port[$1]}" postgres "SELECT count(*) FROM pg_stat_progress_basebackup
                  WHERE phase = 'waiting for checkpoint to finish'" 2>/dev/null) || return 0
    [[ $waiting =~ ^[1-9] ]] || return 0
    sql "${port[$1]}" postgres "CHECKPOINT" >/dev/null 2>&1 || true
}

# Tests only: POSTGRES_HA_TEST_BREAK_REJOIN=rewind skips recover_killed and kills -9 the postgres
# that the keeper starts for its own crash recovery (the one without a TCP address) once it is
# ready, so pg_rewind fails and the keeper falls back to pg_basebackup, as in the CI flake;
# =keeper freezes the restarted keeper (SIGSTOP), one that never makes progress, which only
# re-creating the node mends. Both must end healthy.
break_crash_recovery() { # node
    local pid_file=$dir/$1/postmaster.pid deadline=$((SECONDS + 60)) lines
    while ((SECONDS < deadline)); do
        mapfile -t lines <"$pid_file" 2>/dev/null || lines=()
        if ((${#lines[@]} >= 8)) && [[ -z ${lines[5]} && ${lines[7]} == ready* ]]; then
            kill -9 "${lines[0]}" &&
                echo "postgres-ha.sh: (test) killed the keeper's crash-recovery postgres, pid ${lines[0]}" >>"$dir/log/$1.log"
            return 0
        fi
        sleep 0.02
    done
}
freeze_node() { # node
    local pids
    pids=$(node_pids "$1")
    # shellcheck disable=SC2086 # one pid per word
    [[ -z $pids ]] || kill -STOP $pids
    echo "postgres-ha.sh: (test) froze $1's keeper: $pids" >>"$dir/log/$1.log"
}

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

case "$cmd" in
start) start ;;
stop) stop ;;
status) status ;;
failover) failover ;;
switchover) switchover ;;
*)
    echo "postgres-ha.sh: unknown command '$cmd'; $usage" >&2
    exit 2
    ;;
esac
