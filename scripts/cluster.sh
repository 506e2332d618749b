#!/usr/bin/env bash
# The deployment of docs/deploy.md ("Several instances on PostgreSQL"), on
# loopback, from Debian packages: PostgreSQL, HAProxy in front of three
# `tabula serve --ai-workers 0` instances, and two `tabula worker`
# processes. A short load (crates/server/examples/cluster_load.rs) goes
# through the proxy; then it checks that every acknowledged move is stored
# once, that every watcher on every instance saw every move, and that the
# games against the AI were finished by the workers. Everything is stopped
# at the end, whatever happens.
#
#   bash scripts/cluster.sh [--seconds 15] [--games 30] [--ai-games 6] [--demos 4]
#
# PostgreSQL: the one of TABULA_TEST_PG if set (a database of its own is
# created there), else a throw-away one (scripts/postgres.sh). HAProxy is
# installed with apt-get if missing; if it cannot be, the run is SKIPPED,
# or fails when TABULA_REQUIRE_PG=1 (scripts/test.sh, where apt worked).
# CLUSTER_KEEP=1 keeps the folder of configs and logs.
set -euo pipefail
cd "$(dirname "$0")/.."

LOAD_ARGS=(--seconds 15 --games 30 --ai-games 6 --demos 4)
[ $# -gt 0 ] && LOAD_ARGS=("$@")
TARGET=${CARGO_TARGET_DIR:-target}

haproxy_bin() {
  command -v haproxy 2>/dev/null || { [ -x /usr/sbin/haproxy ] && echo /usr/sbin/haproxy; } || true
}

install_haproxy() {
  [ -n "$(haproxy_bin)" ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "cluster.sh: installing Debian's haproxy" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2 || return 1
  # The package's own service has no frontend; ours is private and temporary.
  $sudo apt-get install -y -qq haproxy >&2 || return 1
  [ -n "$(haproxy_bin)" ]
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Wait until http://127.0.0.1:$1$2 answers 200 (at most 60 s).
wait_http() {
  python3 - "$1" "$2" <<'EOF'
import sys, time, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}{sys.argv[2]}"
for _ in range(600):
    try:
        if urllib.request.urlopen(url, timeout=1).status == 200:
            sys.exit(0)
    except Exception:
        time.sleep(0.1)
sys.exit(f"{url} did not answer")
EOF
}

if ! install_haproxy; then
  if [ "${TABULA_REQUIRE_PG:-}" = 1 ]; then
    echo "cluster.sh: HAProxy cannot be installed, but this run installs packages (TABULA_REQUIRE_PG=1): FAILED" >&2
    exit 1
  fi
  echo "##############################################################"
  echo "## HAProxy cannot be installed here: the cluster test is SKIPPED. ##"
  echo "##############################################################"
  exit 0
fi

DIR=$(mktemp -d /tmp/tabula-cluster.XXXXXX)
chmod 755 "$DIR"
PIDS=()
PG_DIR=""
RUN=()
# HAProxy needs no root: as root, it runs as nobody.
[ "$(id -u)" -eq 0 ] && RUN=(runuser -u nobody --)
cleanup() {
  local status=$?
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -n "$PG_DIR" ] && bash scripts/postgres.sh stop "$PG_DIR"
  if [ "$status" -ne 0 ]; then
    for log in "$DIR"/*.log; do
      [ -f "$log" ] && { echo "== $log (end) =="; tail -n 20 "$log"; }
    done
  fi
  if [ "${CLUSTER_KEEP:-}" = 1 ]; then echo "cluster.sh: kept $DIR"; else rm -rf "$DIR"; fi
}
trap cleanup EXIT

echo "== cluster: building tabula and the load example =="
cargo build -q --profile test -p tabula-cli --bin tabula
cargo build -q --profile test -p tabula-server --example cluster_load
TABULA=$TARGET/debug/tabula
LOAD=$TARGET/debug/examples/cluster_load

if [ -z "${TABULA_TEST_PG:-}" ]; then
  eval "$(bash scripts/postgres.sh start)"
  PG_DIR=$TABULA_PG_DIR
fi
NAME="tabula_cluster_$$"
psql "$TABULA_TEST_PG" -q -c "CREATE DATABASE $NAME"
DB="${TABULA_TEST_PG%/*}/$NAME"

WEB_PORTS=()
for i in 1 2 3; do
  port=$(free_port)
  WEB_PORTS+=("$port")
  TABULA_DB=$DB RUST_LOG=info "$TABULA" serve --addr "127.0.0.1:$port" --ai-workers 0 \
    --trust-proxy --ai-pause-ms 0 >"$DIR/web$i.log" 2>&1 &
  PIDS+=($!)
done
for i in 1 2; do
  TABULA_DB=$DB RUST_LOG=info "$TABULA" worker --threads 1 --ai-pause-ms 0 \
    >"$DIR/worker$i.log" 2>&1 &
  PIDS+=($!)
done
for port in "${WEB_PORTS[@]}"; do wait_http "$port" /healthz; done

# The proxy configuration of docs/deploy.md, as tested.
PROXY_PORT=$(free_port)
{
  cat <<EOF
global
    maxconn 4096

defaults
    mode http
    option httplog
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    # A game's WebSocket stays open as long as the game: after the upgrade
    # only this timeout applies.
    timeout tunnel 1h

frontend tabula
    bind 127.0.0.1:$PROXY_PORT
    # The client's address, replacing what the client sent (tabula serve
    # --trust-proxy takes the last address of X-Forwarded-For).
    http-request set-header X-Forwarded-For %[src]
    default_backend web

backend web
    balance roundrobin
    option httpchk GET /healthz
    http-check expect status 200
EOF
  i=0
  for port in "${WEB_PORTS[@]}"; do
    i=$((i + 1))
    echo "    server web$i 127.0.0.1:$port check inter 1s fall 2 rise 1"
  done
} >"$DIR/haproxy.cfg"
chmod 644 "$DIR/haproxy.cfg"
"${RUN[@]}" "$(haproxy_bin)" -f "$DIR/haproxy.cfg" -db >"$DIR/haproxy.log" 2>&1 &
PIDS+=($!)
wait_http "$PROXY_PORT" /healthz
for i in 1 2; do
  grep -q "AI worker on database" "$DIR/worker$i.log" || { echo "cluster.sh: worker $i did not start" >&2; exit 1; }
done

echo "== cluster: PostgreSQL, HAProxy on :$PROXY_PORT, web on ${WEB_PORTS[*]}, 2 workers; load: ${LOAD_ARGS[*]} =="
WATCH=()
for port in "${WEB_PORTS[@]}"; do WATCH+=(--watch "http://127.0.0.1:$port"); done
"$LOAD" --url "http://127.0.0.1:$PROXY_PORT" "${WATCH[@]}" "${LOAD_ARGS[@]}" | tee "$DIR/load.out"
AI_PLIES=$(sed -n 's/^AI_PLIES=//p' "$DIR/load.out")

# Stored once: no ply of any game twice.
dups=$(psql "$DB" -Atc "SELECT count(*) FROM (SELECT game, ply FROM actions GROUP BY game, ply HAVING count(*) > 1) d")
[ "$dups" = 0 ] || { echo "cluster.sh: $dups plies stored twice: FAILED" >&2; exit 1; }
# Every AI action was stored by a worker, once; none by a web instance.
stored=()
for i in 1 2; do stored+=("$(grep -c 'AI move stored' "$DIR/worker$i.log" || true)"); done
total=$((stored[0] + stored[1]))
echo "cluster: AI actions stored by the workers: ${stored[0]} + ${stored[1]} = $total (the games show $AI_PLIES)"
[ "$total" = "$AI_PLIES" ] || { echo "cluster.sh: the workers stored $total AI actions, the games show $AI_PLIES: FAILED" >&2; exit 1; }
[ "${stored[0]}" -gt 0 ] && [ "${stored[1]}" -gt 0 ] || { echo "cluster.sh: a worker took no AI turn: FAILED" >&2; exit 1; }
if grep -l "AI thinking" "$DIR"/web*.log; then
  echo "cluster.sh: a web instance computed AI: FAILED" >&2
  exit 1
fi
psql "$TABULA_TEST_PG" -q -c "DROP DATABASE $NAME WITH (FORCE)" || true
echo "cluster: every check passed"
