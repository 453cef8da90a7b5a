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
#               see rejoin() in postgres-ha/failover.sh)
#   switchover  stop writes on the primary (why: postgres-ha/switchover.sh), `pg_autoctl perform
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
# rejoin on purpose (postgres-ha/failover.sh: break_crash_recovery()); it must still end healthy.
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
# shellcheck source=scripts/postgres-ha/failover.sh
source "$here/postgres-ha/failover.sh"
# shellcheck source=scripts/postgres-ha/switchover.sh
source "$here/postgres-ha/switchover.sh"

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
