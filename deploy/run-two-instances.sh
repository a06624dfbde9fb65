#!/usr/bin/env bash
# Runs Botty instances (PORTS, default "5001 5002") and nginx in front of them (127.0.0.1:LB_PORT, default 8080)
# on this machine, sharing one PostgreSQL and one Redis. Each instance has its own supervisor, which restarts it
# after a crash without touching the others; Ctrl-C or SIGTERM drains and stops everything. See deploy/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${DATABASE_URL:?set DATABASE_URL, e.g. postgres://botty:secret@127.0.0.1:5432/botty}"
: "${REDIS_URL:?set REDIS_URL, e.g. redis://127.0.0.1:6379}"
export DATABASE_URL REDIS_URL
export HOST=127.0.0.1 TRUST_PROXY=1
PORTS="${PORTS:-5001 5002}"
LB_PORT="${LB_PORT:-8080}"
export APP_URL="${APP_URL:-http://localhost:$LB_PORT}"
# Knowledge files: one directory every instance sees (or S3_BUCKET for instances on several machines).
export FILES_DIR="${FILES_DIR:-$PWD/data/files}"
RUN_DIR="${RUN_DIR:-$PWD/data/deploy}"
RESTART_DELAY_S="${RESTART_DELAY_S:-1}"
READY_TIMEOUT_S="${READY_TIMEOUT_S:-180}"
# Debian puts nginx in /usr/sbin, which is not on a normal user's PATH.
NGINX="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"
mkdir -p "$RUN_DIR/temp"

# Built once here, as `npm start` would, so an instance restarting after a `git pull` never rebuilds the files
# the others are serving. SKIP_CLIENT_BUILD=1 serves the API only (the deploy test does).
node --import tsx scripts/build.ts ${SKIP_CLIENT_BUILD:+--server-only}

log() { echo "$(date -Is) $*" >&2; }

# Runs "$@" again whenever it exits, until this supervisor gets SIGTERM, which it passes on and then waits for
# (a Botty instance drains for SHUTDOWN_DRAIN_MS first). The child's pid is in $RUN_DIR/<name>.pid.
supervise() {
  local name=$1 child='' stopping='' code
  shift
  trap - EXIT
  trap 'stopping=1; [ -z "$child" ] || kill -TERM "$child" 2>/dev/null || true' TERM INT
  while [ -z "$stopping" ]; do
    # Appended, never truncated: a crash's last lines survive the restart (deploy/logrotate/botty rotates them).
    "$@" >>"$RUN_DIR/$name.log" 2>&1 &
    child=$!
    echo "$child" >"$RUN_DIR/$name.pid"
    code=0
    wait "$child" || code=$?
    # A signal interrupts `wait` before the child has finished draining.
    [ -z "$stopping" ] || { wait "$child" 2>/dev/null || true; break; }
    # Ctrl-C reaches the instance at once but this supervisor only through stop_all's TERM (a background job
    # ignores SIGINT): waiting out the restart delay first tells a stop from a crash.
    sleep "$RESTART_DELAY_S" &
    wait $! || true
    [ -z "$stopping" ] || break
    log "$name exited with status $code; restarting it after ${RESTART_DELAY_S}s (log: $RUN_DIR/$name.log)"
  done
  rm -f "$RUN_DIR/$name.pid"
}

supervisors=()
stop_all() {
  trap - INT TERM EXIT
  log "stopping: instances drain (SHUTDOWN_DRAIN_MS), then exit"
  kill -TERM "${supervisors[@]}" 2>/dev/null || true
  wait
  exit "$1"
}
trap 'stop_all 0' INT TERM
trap 'stop_all $?' EXIT

# An instance starts in seconds on an idle machine, many times that on a loaded one.
wait_answering() {
  local deadline=$((SECONDS + READY_TIMEOUT_S))
  while [ "$SECONDS" -lt "$deadline" ]; do
    curl -fsS -o /dev/null "http://127.0.0.1:$1$2" 2>/dev/null && return 0
    sleep 0.2
  done
  log "nothing answers on 127.0.0.1:$1$2 after ${READY_TIMEOUT_S}s; see $RUN_DIR/"
  exit 1
}

# All at once, as systemd starts botty@ units: on PostgreSQL the first to take the migration lock applies the
# migrations and the others wait for it (see "Upgrades" in deploy/README.md).
for port in $PORTS; do
  # The Node flags of `npm start`, without npm in between: the pid file names the instance's node process.
  supervise "botty-$port" env PORT="$port" node --max-semi-space-size=64 dist/server/main.mjs &
  supervisors+=($!)
done
for port in $PORTS; do
  wait_answering "$port" /api/health/ready
  log "instance on 127.0.0.1:$port is ready (log: $RUN_DIR/botty-$port.log)"
done

# nginx has no environment variables: its configuration is deploy/nginx.conf with the ports of this run.
awk -v ports="$PORTS" -v lb="$LB_PORT" '
  /^ *server 127\.0\.0\.1:[0-9]+ / {
    if (!done) {
      n = split(ports, p, " ")
      for (i = 1; i <= n; i++) { line = $0; sub(/127\.0\.0\.1:[0-9]+/, "127.0.0.1:" p[i], line); print line }
      done = 1
    }
    next
  }
  /^ *listen 127\.0\.0\.1:[0-9]+;/ { sub(/:[0-9]+;/, ":" lb ";") }
  { print }
' deploy/nginx.conf >"$RUN_DIR/nginx.conf"
supervise nginx "$NGINX" -e stderr -p "$RUN_DIR/" -c "$RUN_DIR/nginx.conf" -g 'daemon off;' &
supervisors+=($!)
wait_answering "$LB_PORT" /api/health
log "Botty is served on $APP_URL through nginx on 127.0.0.1:$LB_PORT; Ctrl-C stops everything."
wait
