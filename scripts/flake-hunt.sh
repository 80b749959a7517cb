#!/usr/bin/env bash
# scripts/flake-hunt.sh ROUNDS [TARGET...] — runs the test suites that can
# race ROUNDS times each while stress-ng keeps every core busy, and prints a
# table: suite, rounds, failures, slowest run. A failure's whole log is kept
# in $BUILD/flake-hunt/. Exits 1 if any run failed.
#
# A suite is a make target of the Makefile, so the hunt runs exactly what
# `make test` runs. The default list is every suite with threads, pipes,
# clocks or sockets in it (docs/flakes.md). Rounds go suite after suite, so
# that a hunt stopped early has run every suite about as often.
set -u
cd "$(dirname "$0")/.."

rounds=${1:-10}
shift || true
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(unit-tests debug-tests sanitize-tests conformance-uci conformance-cecp
    console-tests tsan-tests web-tests)
build=${BUILD:-build}
logs="$build/flake-hunt"
mkdir -p "$logs"

scripts/apt-install-missing.sh stress-ng >/dev/null

# Everything is built before the load starts: the hunt measures the tests,
# not the compiler.
make --no-print-directory "${EXE:-bachess}" "$build/bachess-sanitize" "$build/bachess-tsan" "$build/release/unit-tests" \
    "$build/debug/unit-tests" "$build/sanitize/unit-tests" >"$logs/build.log" 2>&1 \
    || { echo "flake-hunt: the build failed, see $logs/build.log" >&2; exit 2; }

stress-ng --cpu "$(nproc)" --timeout 0 >/dev/null 2>&1 &
stress_pid=$!
trap 'kill $stress_pid 2>/dev/null; wait $stress_pid 2>/dev/null' EXIT
trap 'exit 130' INT TERM

declare -A failures slowest
for suite in "${suites[@]}"; do
    failures[$suite]=0
    slowest[$suite]=0
done

table() {
    printf '%-18s %6s %8s %10s\n' suite rounds failures slowest
    for suite in "${suites[@]}"; do
        printf '%-18s %6s %8s %9ss\n' "$suite" "$1" "${failures[$suite]}" "${slowest[$suite]}"
    done
}

echo "flake-hunt: $rounds rounds of ${suites[*]}, beside stress-ng --cpu $(nproc) (logs: $logs)"
for round in $(seq 1 "$rounds"); do
    for suite in "${suites[@]}"; do
        log="$logs/$suite-round$round.log"
        start=$(date +%s)
        if make --no-print-directory "$suite" >"$log" 2>&1; then
            rm -f "$log"
            verdict=ok
        else
            failures[$suite]=$((failures[$suite] + 1))
            verdict="FAILED (log kept: $log)"
        fi
        seconds=$(($(date +%s) - start))
        [ "$seconds" -gt "${slowest[$suite]}" ] && slowest[$suite]=$seconds
        echo "round $round/$rounds  $suite  ${seconds}s  $verdict"
    done
    table "$round" >"$logs/summary.txt"
done

echo
table "$rounds" | tee "$logs/summary.txt"
total=0
for suite in "${suites[@]}"; do total=$((total + failures[$suite])); done
[ "$total" -eq 0 ]
