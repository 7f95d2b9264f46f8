#!/usr/bin/env bash
# run_device_checks.sh — end-to-end checks of `harness eval` on a machine with a GPU.
#
# Builds nothing: expects bin/harness (and optionally bin/test-runner) from the
# repository root, as carried to the device machine.  Creates a throw-away
# catalog from tests/data/programs, evaluates every candidate listed in
# tests/data/kernels/expected.txt against c/fixtures/ok-axpy, checks each verdict
# and message, runs the GPU unit tests, and ends with a summary table.
# Exit status: 0 when every check passed.
#
#   tests/gpu/run_device_checks.sh [BIN_DIR]      (default: bin)
set -u
cd "$(dirname "$0")/../.."
BIN=${1:-bin}
H=$BIN/harness
[ -x "$H" ] || { echo "run_device_checks: $H not found (build with make, carry bin/)" >&2; exit 2; }

WORK=$(mktemp -d /tmp/cudaperf-device-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
CAT="$WORK/catalog.db"
SUMMARY="$WORK/summary"
: >"$SUMMARY"
fails=0

record() { # name expected got result note
    printf '%-26s %-15s %-15s %-5s %s\n' "$1" "$2" "$3" "$4" "$5" >>"$SUMMARY"
    [ "$4" = ok ] || fails=$((fails + 1))
}

echo "== environment"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -4
echo "missing libraries of $H (must be empty):"
ldd "$H" | grep "not found" || echo "  none"

echo "== catalog from tests/data/programs (failing fixtures are expected to be rejected)"
"$H" --catalog "$CAT" ingest --quiet --timeout 3 tests/data/programs >"$WORK/ingest.log" 2>&1
tail -1 "$WORK/ingest.log"
if "$H" --catalog "$CAT" catalog show c/fixtures/ok-axpy >/dev/null 2>&1; then
    record ingest-ok-axpy stored stored ok ""
else
    record ingest-ok-axpy stored missing FAIL "see ingest output"
    cat "$WORK/ingest.log"
fi

# One candidate: the verdict line and the expected text in the output.
check_kernel() { # dir expected-status expected-text [extra eval options...]
    local dir=$1 want=$2 text=$3
    shift 3
    local out="$WORK/$dir.out" t0 t1 got note=""
    t0=$(date +%s.%N)
    "$H" --catalog "$CAT" eval c/fixtures/ok-axpy "tests/data/kernels/$dir/kernel.cu" \
        "tests/data/kernels/$dir/launch.json" --timeout 2 "$@" >"$out" 2>&1
    local rc=$?
    t1=$(date +%s.%N)
    got=$(sed -n 's/^verdict: //p' "$out" | head -1)
    [ -n "$got" ] || got="(none, rc $rc)"
    note=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f s", b - a }')
    local t
    t=$(awk '$1 == "small" && $2 == "pass" && $6 != "-" { printf "%s ms (IQR %s, n %s, CUPTI %s)", $6, $7, $8, $9; exit }' "$out")
    [ -n "$t" ] && note="$note; small: $t"
    echo "---- $dir (expect $want)"
    cat "$out"
    if [ "$got" != "$want" ]; then
        record "$dir" "$want" "$got" FAIL "$note"
    elif [ "$text" != "-" ] && ! grep -qF -- "$text" "$out"; then
        record "$dir" "$want" "$got" FAIL "output lacks '$text'"
    elif [ "$want" = pass ] && [ $rc -ne 0 ]; then
        record "$dir" "$want" "$got" FAIL "exit status $rc"
    else
        record "$dir" "$want" "$got" ok "$note"
    fi
}

echo "== candidates (tests/data/kernels/expected.txt)"
while read -r dir want fake text; do
    case "$dir" in '#'* | '') continue ;; esac
    check_kernel "$dir" "$want" "$text"
done <tests/data/kernels/expected.txt

echo "== --racecheck: compute-sanitizer's racecheck over the candidate (harness/racecheck.h)"
check_kernel axpy pass - --racecheck --trials 1
check_kernel axpy-missing-barrier wrong_result "shared-memory race" --racecheck --trials 1

echo "== JSON output"
# (The 64M-element "large" config is left out: generating its inputs on the
# host takes about a minute here, device time this script should not spend.)
"$H" --catalog "$CAT" eval c/fixtures/ok-axpy tests/data/kernels/axpy/kernel.cu \
    tests/data/kernels/axpy/launch.json --json --trials 1 >"$WORK/json.out" 2>&1
if grep -q '"status":[[:space:]]*"pass"' "$WORK/json.out"; then
    record axpy--json pass pass ok ""
else
    record axpy--json pass "?" FAIL "$(head -c 200 "$WORK/json.out")"
fi

echo "== the CUPTI cross-check gives the timed config a kernel time"
# (NaN, printed as null, for every kernel in device run 22: the timing loop's
# own flush kernel spoiled each collection)
if grep -Eq '"cupti_ms":[[:space:]]*[0-9]' "$WORK/json.out"; then
    record axpy-cupti time time ok ""
else
    record axpy-cupti time none FAIL "$(grep -o '"timing_note":[^,]*' "$WORK/json.out" | head -c 300)"
fi

echo "== a second run compiles from the cache"
"$H" --catalog "$CAT" eval c/fixtures/ok-axpy tests/data/kernels/axpy/kernel.cu \
    tests/data/kernels/axpy/launch.json --trials 1 >"$WORK/cache.out" 2>&1
if grep -q "from the cache" "$WORK/cache.out"; then
    record nvrtc-cache cached cached ok ""
else
    record nvrtc-cache cached "not cached" FAIL ""
fi

echo "== without a driver, eval says so and exits 1"
CUDAPERF_LIBCUDA=/nonexistent/libcuda.so.1 "$H" --catalog "$CAT" eval c/fixtures/ok-axpy \
    tests/data/kernels/axpy/kernel.cu tests/data/kernels/axpy/launch.json >"$WORK/nogpu.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "no GPU" "$WORK/nogpu.out"; then
    record no-driver "no GPU, rc 1" "no GPU, rc $rc" ok ""
else
    record no-driver "no GPU, rc 1" "rc $rc" FAIL "$(head -c 200 "$WORK/nogpu.out")"
fi

if [ -x "$BIN/test-runner" ]; then
    echo "== unit tests of the GPU path (gpu_, nvrtc, compare, worker_protocol)"
    if "$BIN/test-runner" gpu_ nvrtc compare worker_protocol >"$WORK/tests.out" 2>&1; then
        record test-runner "0 failed" "$(tail -1 "$WORK/tests.out")" ok ""
    else
        record test-runner "0 failed" "$(tail -1 "$WORK/tests.out")" FAIL ""
    fi
    cat "$WORK/tests.out"
    grep -q "SKIP gpu_device_eval" "$WORK/tests.out" && record gpu_device_eval ran skipped FAIL "the GPU test skipped"
fi

echo
echo "== summary"
printf '%-26s %-15s %-15s %-5s %s\n' check expected got result note
cat "$SUMMARY"
total=$(wc -l <"$SUMMARY")
echo "$((total - fails)) of $total checks passed, $fails failed"
[ $fails -eq 0 ]
