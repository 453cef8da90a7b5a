# shellcheck shell=bash disable=SC2154 # dir, port and rejoin_timeout: postgres-ha.sh and nodes.sh
# scripts/postgres-ha/failover.sh: `postgres-ha.sh failover` (kill -9 of the primary node, then
# the killed node back as the secondary) and how a killed node rejoins: its crash recovery before
# the keeper starts, a re-created node when its keeper is stuck, the base backup's checkpoint
# hurried, and the tests' hooks that break the rejoin on purpose. Sourced by postgres-ha.sh after
# nodes.sh.

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
