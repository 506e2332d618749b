#!/usr/bin/env bash
# A throw-away PostgreSQL for the tests: installs Debian's `postgresql` if
# missing, then starts a fresh cluster in a temporary folder, as an
# unprivileged user, listening only on a free loopback port.
#
#   eval "$(scripts/postgres.sh start)"   # sets TABULA_TEST_PG (a URL) and TABULA_PG_DIR
#   scripts/postgres.sh stop "$TABULA_PG_DIR"
#
# `start` prints nothing to stdout (and exits 1) when PostgreSQL cannot be
# installed or started; it says why on stderr.
set -euo pipefail

pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$dir" ] && [ -x "$dir/initdb" ] && echo "$dir"
}

install_pg() {
  [ -n "$(pg_bin)" ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "postgres.sh: installing Debian's postgresql" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2 || return 1
  # The package starts no cluster we use; ours is private and temporary.
  $sudo apt-get install -y -qq postgresql >&2 || return 1
  [ -n "$(pg_bin)" ]
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# pg_ctl as the cluster's owner: `run_server DIR start|stop`.
run_server() {
  local dir=$1 verb=$2 bin run=()
  bin=$(pg_bin)
  if [ "$(id -u)" -eq 0 ]; then run=(runuser -u "$(stat -c %U "$dir")" --); fi
  local port mode=()
  port=$(cat "$dir/port")
  [ "$verb" = stop ] && mode=(-m fast)
  "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 "${mode[@]}" \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=on -c max_connections=200" "$verb" >/dev/null
}

start() {
  install_pg || { echo "postgres.sh: PostgreSQL cannot be installed here" >&2; exit 1; }
  local bin dir port run
  bin=$(pg_bin)
  dir=$(mktemp -d /tmp/tabula-pg.XXXXXX)
  port=$(free_port)
  run=()
  if [ "$(id -u)" -eq 0 ]; then
    # PostgreSQL refuses to run as root: the cluster belongs to `postgres`
    # (made by the Debian package) or `nobody`.
    local user=postgres
    id -u "$user" >/dev/null 2>&1 || user=nobody
    chown "$user" "$dir"
    run=(runuser -u "$user" --)
  fi
  "${run[@]}" "$bin/initdb" -D "$dir/data" -U tabula --auth=trust -E UTF8 --no-instructions >"$dir/initdb.log" 2>&1 \
    || { echo "postgres.sh: initdb failed:" >&2; cat "$dir/initdb.log" >&2; exit 1; }
  echo "$port" >"$dir/port"
  run_server "$dir" start \
    || { echo "postgres.sh: the server did not start:" >&2; cat "$dir/server.log" >&2; exit 1; }
  echo "export TABULA_TEST_PG='postgres://tabula@127.0.0.1:$port/postgres'"
  echo "export TABULA_PG_DIR='$dir'"
}

stop() {
  local dir=$1 bin run=()
  bin=$(pg_bin)
  [ -d "$dir/data" ] || return 0
  if [ "$(id -u)" -eq 0 ]; then run=(runuser -u "$(stat -c %U "$dir")" --); fi
  "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:?the folder printed by start}" ;;
  # Stop and start the same cluster (the fault tests: the database restarts
  # under a running server).
  pause) run_server "${2:?the folder printed by start}" stop ;;
  resume) run_server "${2:?the folder printed by start}" start ;;
  *) echo "usage: $0 start | stop DIR | pause DIR | resume DIR" >&2; exit 2 ;;
esac
