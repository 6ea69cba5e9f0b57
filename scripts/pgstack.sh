#!/bin/bash
# pgstack.sh: a throwaway loopback PostgreSQL for Orrery's store tests.
#
# Usage (as root):
#   scripts/pgstack.sh install   # apt-get the server (idempotent, non-interactive)
#   scripts/pgstack.sh start     # initdb under $PGSTACK_ROOT (owned by postgres) and start it
#   scripts/pgstack.sh stop      # pg_ctl stop (-m fast); never by process name
#   scripts/pgstack.sh crash     # pg_ctl stop -m immediate: the closest to a crash (fault tests)
#   scripts/pgstack.sh status
#   eval "$(scripts/pgstack.sh env)"   # export ORRERY_TEST_PG, the DSN the Go tests read, and PGSTACK_ROOT
#
# The server listens on 127.0.0.1:$PGSTACK_PORT (25432) with its socket in
# its directory, trusts local connections as user orrery, and is the only
# cluster this touches: the package's own (/etc/postgresql, /var/lib/postgresql)
# is never started or changed. Tests make a database of their own in it
# (engine/store/storetest), so packages can run in parallel.
set -euo pipefail

ROOT=${PGSTACK_ROOT:-/tmp/orrery-pgstack}   # absolute; made and owned by postgres
PORT=${PGSTACK_PORT:-25432}
USER_NAME=orrery

case $ROOT in
  /*) ;;
  *) echo "pgstack: PGSTACK_ROOT must be an absolute path" >&2; exit 2 ;;
esac

bindir() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
  done
  echo "pgstack: no PostgreSQL server found (scripts/pgstack.sh install)" >&2
  return 1
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then
    su postgres -s /bin/sh -c "$1"
  else
    sh -c "$1"   # not root: run as ourselves, who must own $ROOT
  fi
}

install() {
  if bindir >/dev/null 2>&1; then
    echo "pgstack: PostgreSQL already installed ($(bindir))"
    return 0
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  echo "pgstack: installed PostgreSQL ($(bindir))"
}

running() {
  [ -f "$ROOT/data/postmaster.pid" ] && as_postgres "$(bindir)/pg_ctl -D $ROOT/data status" >/dev/null 2>&1
}

start() {
  local bin
  bin=$(bindir)
  if running; then
    echo "pgstack: already running in $ROOT on port $PORT"
    return 0
  fi
  mkdir -p "$ROOT"
  chmod 0755 "$ROOT"
  [ "$(id -u)" = 0 ] && chown postgres "$ROOT"
  if [ ! -f "$ROOT/data/PG_VERSION" ]; then
    as_postgres "$bin/initdb -D $ROOT/data -U $USER_NAME --auth=trust -E UTF8 --locale=C.UTF-8 >$ROOT/initdb.log 2>&1"
  fi
  # fsync stays on: the fault tests count on committed meaning durable.
  # The predicate locks as README.md's "PostgreSQL" asks of a server that
  # several daemons share: a transaction that handles a batch of mails
  # reads more than the default 32 pages of orrery_kv, and PostgreSQL
  # then locks the whole table, which conflicts with every other writer.
  as_postgres "$bin/pg_ctl -D $ROOT/data -l $ROOT/log -w -o '-p $PORT -k $ROOT -c listen_addresses=127.0.0.1 -c max_connections=300 -c max_pred_locks_per_transaction=256 -c max_pred_locks_per_relation=2048' start" >/dev/null
  echo "pgstack: PostgreSQL running in $ROOT on 127.0.0.1:$PORT"
}

stop() {
  if ! running; then
    echo "pgstack: not running"
    return 0
  fi
  as_postgres "$(bindir)/pg_ctl -D $ROOT/data -m fast -w stop" >/dev/null
  echo "pgstack: stopped"
}

crash() {
  as_postgres "$(bindir)/pg_ctl -D $ROOT/data -m immediate -w stop" >/dev/null
  echo "pgstack: stopped at once (-m immediate)"
}

status() {
  if running; then
    echo "postgres: running in $ROOT on 127.0.0.1:$PORT"
  else
    echo "postgres: not running"
    return 1
  fi
}

env() {
  echo "export ORRERY_TEST_PG='postgres://$USER_NAME@127.0.0.1:$PORT/postgres?sslmode=disable'"
  # The soak's pgfaults part crashes and restarts this server half-way
  # when it knows where it lives; without it that step was skipped unsaid.
  echo "export PGSTACK_ROOT='$ROOT'"
}

case ${1:-} in
  install | start | stop | crash | status | env) "$1" ;;
  *) echo "usage: $0 install|start|stop|crash|status|env" >&2; exit 2 ;;
esac
