#!/usr/bin/env bash
# A pg_auto_failover formation on loopback for the failover test (npm run test:failover) and for
# trying failover by hand: a monitor, a primary and a synchronous standby (number_sync_standbys 1:
# a commit is acknowledged once the standby has it), from Debian's postgresql-15-auto-failover and
# pg-auto-failover-cli, run as the postgres OS user with every file under one directory.
#
#   scripts/failover-formation.sh start DIR   creates and starts it; prints the service's DATABASE_URL
#   scripts/failover-formation.sh stop DIR    stops every process of it and removes DIR
#   scripts/failover-formation.sh state DIR   the monitor's view (pg_autoctl show state)
#   scripts/failover-formation.sh kill DIR NODE postmaster|node
#                                             SIGKILL of NODE's postmaster (its keeper restarts it), or
#                                             of the whole node: keeper and PostgreSQL, as a lost machine
#   scripts/failover-formation.sh run DIR NODE starts NODE's keeper again: a lost primary rejoins as a standby
#
# Ports: FORMATION_PORT (default 6500) for the monitor, the next two (node1, node2) for the nodes.
# The monitor's health checks are tightened (a check a second, a node unhealthy after 4 s) and so
# are the fences: a primary cut off from the monitor and its standby demotes itself after 6 s
# (network_partition_timeout), and the monitor lets the promoted standby take writes 8 s after it
# lost the old primary (primary_demote_timeout), never before the old one has stopped taking them.
# pg_auto_failover's defaults (20 s and 30 s) make a failover take about 40 s.
#
# Synchronous replication: with one standby pg_auto_failover's number_sync_standbys is 0 and it sets
# synchronous_standby_names to 'ANY 1 (the standby)', so a commit waits for the standby; the monitor
# refuses number_sync_standbys 1 below two standbys. While the standby is unhealthy the primary goes
# to wait_primary and commits alone (docs/operations.md, "Failover").
set -euo pipefail

cmd=${1:?usage: $0 start|stop|state|kill|run DIR}
dir=${2:?usage: $0 start|stop|state|kill|run DIR}
port=${FORMATION_PORT:-6500}
pg_bin=/usr/lib/postgresql/15/bin
# pg_autoctl keeps its own files under XDG_CONFIG_HOME and XDG_DATA_HOME: inside the directory too.
as_pg() { runuser -u postgres -- env PATH="$pg_bin:$PATH" XDG_CONFIG_HOME="$dir/xdg/config" XDG_DATA_HOME="$dir/xdg/data" "$@"; }
monitor_url="postgres://autoctl_node@127.0.0.1:${port}/pg_auto_failover?sslmode=disable"

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...: polls until the command succeeds
  local seconds=$1 what=$2
  shift 2
  for _ in $(seq 1 $((seconds * 2))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  echo "formation: gave up waiting for $what after ${seconds}s" >&2
  as_pg pg_autoctl show state --pgdata "$dir/monitor" >&2 || true
  return 1
}

start_node() { # start_node NAME PORT
  as_pg pg_autoctl create postgres --pgdata "$dir/$1" --pgport "$2" --listen 127.0.0.1 --pghost 127.0.0.1 --hostname 127.0.0.1 \
    --name "$1" --dbname payroll --username postgres --monitor "$monitor_url" --auth trust --no-ssl \
    --pgctl "$pg_bin/pg_ctl" >>"$dir/$1.log" 2>&1
  as_pg pg_autoctl config set --pgdata "$dir/$1" timeout.network_partition_timeout 6 >/dev/null
  run_node "$1"
}

# Each keeper leads a session of its own (setsid), its PostgreSQL in it: one process group per node.
run_node() { as_pg setsid pg_autoctl run --pgdata "$dir/$1" >>"$dir/$1.log" 2>&1 </dev/null & }

node_state_is() { # node_state_is NAME STATE: the monitor assigned STATE and the node reached it
  local json
  json=$(as_pg pg_autoctl show state --pgdata "$dir/monitor" --json) || return 1
  grep -A12 "\"nodename\": \"$1\"" <<<"$json" | grep -q "\"assigned_group_state\": \"$2\"" &&
    grep -A12 "\"nodename\": \"$1\"" <<<"$json" | grep -q "\"current_group_state\": \"$2\""
}

case "$cmd" in
start)
  command -v pg_autoctl >/dev/null || { echo "pg_autoctl is missing: apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli" >&2; exit 1; }
  mkdir -p "$dir" && chown postgres: "$dir" && chmod 700 "$dir"
  as_pg pg_autoctl create monitor --pgdata "$dir/monitor" --pgport "$port" --listen 127.0.0.1 --hostname 127.0.0.1 --auth trust --no-ssl \
    --pgctl "$pg_bin/pg_ctl" >>"$dir/monitor.log" 2>&1
  as_pg setsid pg_autoctl run --pgdata "$dir/monitor" >>"$dir/monitor.log" 2>&1 </dev/null &
  wait_for 60 "the monitor" as_pg psql -h 127.0.0.1 -p "$port" -U autoctl_node -d pg_auto_failover -c 'SELECT 1'
  as_pg psql -q -h 127.0.0.1 -p "$port" -U postgres -d pg_auto_failover <<'SQL'
ALTER SYSTEM SET pgautofailover.health_check_period = 1000;
ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000;
ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1;
ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500;
ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 4000;
ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 8000;
SELECT pg_reload_conf();
SQL
  start_node node1 $((port + 1))
  wait_for 120 "node1 to be the single primary" node_state_is node1 single
  start_node node2 $((port + 2))
  wait_for 180 "node2 to be a standby" node_state_is node2 secondary
  wait_for 60 "node1 to be the primary" node_state_is node1 primary
  standbys=$(as_pg psql -h 127.0.0.1 -p $((port + 1)) -d payroll -Atc 'SHOW synchronous_standby_names')
  [ -n "$standbys" ] || { echo "formation: the primary does not replicate synchronously" >&2; exit 1; }
  echo "postgres://postgres@127.0.0.1:$((port + 1)),127.0.0.1:$((port + 2))/payroll?target_session_attrs=read-write"
  ;;
stop)
  for node in node1 node2 monitor; do
    [ -d "$dir/$node" ] && as_pg pg_autoctl stop --pgdata "$dir/$node" --immediate >/dev/null 2>&1 || true
  done
  # Whatever a SIGKILL left behind: the postmasters of this directory's clusters, found by their pid files.
  for pidfile in "$dir"/*/postmaster.pid; do
    [ -f "$pidfile" ] && kill -9 "$(head -n 1 "$pidfile")" 2>/dev/null || true
  done
  rm -rf "$dir"
  ;;
state)
  as_pg pg_autoctl show state --pgdata "$dir/monitor"
  ;;
kill)
  node=${3:?which node}
  postmaster=$(head -n 1 "$dir/$node/postmaster.pid")
  case "${4:?postmaster or node}" in
  postmaster) kill -9 "$postmaster" ;;
  node)
    # The keeper's process group (its PostgreSQL's too) and, should it have left the group, the postmaster.
    keeper=$(pgrep -f "^pg_autoctl run --pgdata $dir/$node\$" || true)
    for pid in $keeper; do kill -9 -- "-$(ps -o pgid= -p "$pid" | tr -d ' ')" 2>/dev/null || true; done
    kill -9 "$postmaster" 2>/dev/null || true
    ;;
  *) echo "kill: postmaster or node" >&2; exit 2 ;;
  esac
  ;;
run)
  run_node "${3:?which node}"
  ;;
*)
  echo "usage: $0 start|stop|state|kill|run DIR" >&2
  exit 2
  ;;
esac
