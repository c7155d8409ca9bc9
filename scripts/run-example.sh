#!/usr/bin/env bash
# Runs examples/payroll.ts — the published client, imported by package name — against a real server:
# builds the client, type-checks the examples as a consumer would, and runs the example with a
# customer and an admin token. Fails unless the payroll request reaches COMPLETED.
#   API=http://host:port npm run example   a server you run (its JWT_SECRET must be this shell's)
#   PORT=3005 npm run example              starts `npm start` on that port (in-memory database), stops it after
#   npm run example                        the same on a free port
set -euo pipefail
cd "$(dirname "$0")/.."

npm run -s build:client
npx --no-install tsc -p examples/tsconfig.json

if [ -n "${API:-}" ]; then
  BASE_URL="${API%/}"
  curl -fsS "$BASE_URL/readyz" >/dev/null || { echo "no server ready at $BASE_URL (API): curl $BASE_URL/readyz failed"; exit 1; }
else
  PORT="${PORT:-$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"
  BASE_URL="http://127.0.0.1:${PORT}"
  if curl -fsS "$BASE_URL/readyz" >/dev/null 2>&1; then echo "port $PORT is taken by a running server: set API=$BASE_URL to use it"; exit 1; fi
  log="$(mktemp -t payroll-example-server.XXXXXX.log)"

  # setsid: the server (npm → sh → tsx → node) gets a process group of its own, stopped as one below.
  PORT="$PORT" DATA_DIR=memory:// LOG_LEVEL="${LOG_LEVEL:-warn}" SIMULATED_SETTLEMENT_MS="${SIMULATED_SETTLEMENT_MS:-200}" \
    setsid npm start >"$log" 2>&1 &
  server_pid=$!
  stop_server() {
    if kill -0 "$server_pid" 2>/dev/null; then
      kill -TERM -- "-$server_pid" 2>/dev/null || true
      for _ in $(seq 1 40); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.25; done
      kill -KILL -- "-$server_pid" 2>/dev/null || true
    fi
    wait "$server_pid" 2>/dev/null || true
  }
  trap 'stop_server; rm -f "$log"' EXIT

  for _ in $(seq 1 120); do
    if curl -fsS "$BASE_URL/readyz" >/dev/null 2>&1; then break; fi
    if ! kill -0 "$server_pid" 2>/dev/null; then echo "the server exited:"; cat "$log"; exit 1; fi
    sleep 0.5
  done
  curl -fsS "$BASE_URL/readyz" >/dev/null || { echo "the server is not ready after 60 s:"; cat "$log"; exit 1; }
fi
echo "examples/payroll.ts against $BASE_URL"

CUSTOMER_TOKEN="$(npm run -s token -- --user 7b1e0003-0000-4000-8000-000000000001)"
ADMIN_TOKEN="$(npm run -s token -- --user 7b1e0003-0000-4000-8000-000000000003)"

out="$(mktemp -t payroll-example.XXXXXX.log)"
status=0
BASE_URL="$BASE_URL" CUSTOMER_TOKEN="$CUSTOMER_TOKEN" ADMIN_TOKEN="$ADMIN_TOKEN" POLL_INTERVAL_MS=250 TIMEOUT_MS=60000 \
  npx --no-install tsx examples/payroll.ts | tee "$out" || status=$?
if [ "$status" -ne 0 ] || ! grep -q 'final status COMPLETED' "$out"; then
  echo "examples/payroll.ts did not reach COMPLETED (exit $status)"
  [ -z "${log:-}" ] || { echo "server log:"; cat "$log"; }
  rm -f "$out"
  exit 1
fi
rm -f "$out"
echo "examples/payroll.ts: OK"
