#!/usr/bin/env bash
# Runs two Botty instances (ports 5001 and 5002) and nginx in front of them (port 8080) on this machine,
# sharing one PostgreSQL and one Redis. Ctrl-C stops all three. See deploy/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${DATABASE_URL:?set DATABASE_URL, e.g. postgres://botty:secret@127.0.0.1:5432/botty}"
: "${REDIS_URL:?set REDIS_URL, e.g. redis://127.0.0.1:6379}"
export DATABASE_URL REDIS_URL
export HOST=127.0.0.1 TRUST_PROXY=1 APP_URL="${APP_URL:-http://localhost:8080}"
# Knowledge files: one directory both instances see (or S3_BUCKET for instances on several machines).
export FILES_DIR="${FILES_DIR:-$PWD/data/files}"
RUN_DIR="${RUN_DIR:-$PWD/data/deploy}"
mkdir -p "$RUN_DIR/temp"

[ -f dist/client/index.html ] || npx vite build

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait' EXIT INT TERM

wait_healthy() {
  for _ in $(seq 1 60); do
    curl -fsS "http://127.0.0.1:$1/api/health" >/dev/null 2>&1 && return 0
    sleep 1
  done
  echo "instance on port $1 did not become healthy; see $RUN_DIR/botty-$1.log" >&2
  exit 1
}

# One after the other, so the first applies the migrations while the second waits.
for port in 5001 5002; do
  PORT=$port npm start --silent >"$RUN_DIR/botty-$port.log" 2>&1 &
  pids+=($!)
  wait_healthy "$port"
  echo "instance on :$port is up (log: $RUN_DIR/botty-$port.log)"
done

nginx -e stderr -p "$RUN_DIR/" -c "$PWD/deploy/nginx.conf" -g 'daemon off;' &
pids+=($!)
echo "Botty is served on $APP_URL through nginx; Ctrl-C stops everything."
wait -n
