#!/usr/bin/env bash
# The flake check: `npm test` must pass RUNS times in a row (3 unless set) while `npm run bench`
# loads the same machine beside it, over and over, for as long as the tests run. A test whose
# outcome depends on how fast the host is, or on what else runs on it, fails here before it fails
# a landing. The bench's own figures are not the point (a loaded host misses its targets); its
# output goes to a log, and a bench that fails to run fails the check.
#   npm run flake-check             three runs
#   RUNS=5 npm run flake-check      five
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${RUNS:-3}"
logs="$(mktemp -d -t payroll-flake-check.XXXXXX)"
echo "flake check: npm test ${runs} times beside npm run bench; logs in ${logs}"

npx --no-install tsc -p bench/tsconfig.json
# setsid: the bench (npm → tsx → node, its server and PostgreSQL) gets a process group of its own, stopped as one.
setsid bash -c 'round=0; while :; do round=$((round + 1)); npm run -s bench >>"$1/bench.log" 2>&1 || { echo "bench round $round failed" >>"$1/bench.log"; exit 1; }; done' _ "$logs" &
bench_pid=$!
stop_bench() { kill -TERM -- "-$bench_pid" 2>/dev/null || true; wait "$bench_pid" 2>/dev/null || true; }
trap stop_bench EXIT

for run in $(seq 1 "$runs"); do
  started=$SECONDS
  if npm test >"$logs/test-$run.log" 2>&1; then
    echo "run $run of $runs: passed in $((SECONDS - started)) s (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  else
    echo "run $run of $runs: FAILED after $((SECONDS - started)) s; the failures:"
    sed 's/\x1b\[[0-9;]*m//g' "$logs/test-$run.log" | grep -E '^ *× | FAIL |^(Assertion)?Error' | head -40
    exit 1
  fi
  kill -0 "$bench_pid" 2>/dev/null || { echo "the bench beside the tests stopped: see $logs/bench.log"; tail -20 "$logs/bench.log"; exit 1; }
done
echo "flake check passed: ${runs} runs in a row under the bench's load"
