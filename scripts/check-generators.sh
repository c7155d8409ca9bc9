#!/usr/bin/env bash
# npm run check:generators: the bundled spec through four mainstream client generators, each
# client compiled under strict NodeNext with a program of .ci/generators/, then each program run
# against a real server: openapi-typescript + openapi-fetch, orval, openapi-zod-client and
# @hey-api/openapi-ts. Every program estimates a payroll (estimatePayrollFee, which takes JSON or
# a CSV file) and fails unless the server answers 200 with a feeHash. The three generators beyond
# openapi-typescript, and what their clients import, are a package of their own
# (.ci/generators/package.json), installed here from its lock file: the project's install stays without them.
#   API=http://host:port npm run check:generators   a server you run (its JWT_SECRET must be this shell's)
#   npm run check:generators                        starts `npm start` on a free port (in-memory database), stops it after
set -euo pipefail
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off SCARF_ANALYTICS=false
dir=.ci/generators
out="$dir/generated"

# The server boots while the clients are generated.
if [ -n "${API:-}" ]; then
  BASE_URL="${API%/}"
else
  PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  BASE_URL="http://127.0.0.1:${PORT}"
  log="$(mktemp -t payroll-generators-server.XXXXXX.log)"
  # setsid: the server (npm → node) gets a process group of its own, stopped as one below.
  PORT="$PORT" DATA_DIR=memory:// LOG_LEVEL=warn setsid npm start >"$log" 2>&1 &
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
fi

# The generators' own package: its lock file and node_modules, installed again only when the lock file changed since the last
# install (npm ci starts from an empty node_modules). Its commands are called by path below; typescript,
# tsx, openapi-typescript and redocly are the project's own.
installed="$dir/node_modules/.installed-package-lock.json"
if ! cmp -s "$dir/package-lock.json" "$installed"; then
  npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
  cp "$dir/package-lock.json" "$installed"
fi
bin="$dir/node_modules/.bin"

redocly bundle openapi/openapi.yaml -o dist/openapi.json >/dev/null 2>&1 || redocly bundle openapi/openapi.yaml -o dist/openapi.json
rm -rf "$out" && mkdir -p "$out/zod-client"
pids=()
# From its own folder: in the root, openapi-typescript would take redocly.yaml's input and output instead.
(cd "$dir" && openapi-typescript ../../dist/openapi.json -o generated/openapi-fetch.d.ts >generated/openapi-typescript.log 2>&1) & pids+=($!)
"$bin/orval" --config "$dir/orval.config.cjs" >"$out/orval.log" 2>&1 & pids+=($!)
"$bin/openapi-zod-client" dist/openapi.json -o "$out/zod-client/api.ts" >"$out/zod-client.log" 2>&1 & pids+=($!)
"$bin/openapi-ts" -f "$dir/hey-api.config.mjs" -s >"$out/hey-api.log" 2>&1 & pids+=($!)
for pid in "${pids[@]}"; do wait "$pid" || { cat "$out"/*.log; echo "a generator failed"; exit 1; }; done
echo "generated: openapi-typescript, orval, openapi-zod-client, @hey-api/openapi-ts"

tsc -p "$dir/tsconfig.json"
echo "compiled: the four clients and their programs (strict, NodeNext)"

for _ in $(seq 1 120); do
  if curl -fsS "$BASE_URL/readyz" >/dev/null 2>&1; then break; fi
  if [ -n "${server_pid:-}" ] && ! kill -0 "$server_pid" 2>/dev/null; then echo "the server exited:"; cat "$log"; exit 1; fi
  sleep 0.5
done
curl -fsS "$BASE_URL/readyz" >/dev/null || { echo "no server ready at $BASE_URL:"; [ -z "${log:-}" ] || cat "$log"; exit 1; }

# Dana Whitfield, a customer user of the demo world.
PAYROLL_TOKEN="$(npm run -s token -- --user 7b1e0003-0000-4000-8000-000000000001)"
export BASE_URL PAYROLL_TOKEN
for program in openapi-fetch orval zod-client hey-api; do
  tsx "$dir/$program.ts" || { [ -z "${log:-}" ] || { echo "server log:"; cat "$log"; }; echo "$program: FAILED"; exit 1; }
done
echo "check:generators: OK"
