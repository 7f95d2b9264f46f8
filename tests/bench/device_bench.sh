#!/usr/bin/env bash
# device_bench.sh — the GPU figures of docs/BENCHMARKS.md, on a machine with a GPU.
#
# Run from the repository root with bin/ built (and bin/lib holding the shared
# libraries the device machine lacks) and datasets/catalog.db carried:
#
#   tests/bench/device_bench.sh PHASE... [--out DIR]
#
# Phases (each prints a short table last; full logs under DIR):
#   checks      the fixture and adversarial candidates (tests/gpu/run_device_checks.sh)
#   correctness every reference kernel of the catalog on every affordable config,
#               correctness only, 3 trials (the "every reference passes" figure)
#   timed       SAMPLE test-split references timed twice (per-candidate cost, and
#               the Spearman rank correlation of the two runs' medians)
#   kernelbench the same KB kernels through KernelBench's load_inline flow
#               (tests/bench/kernelbench_flow.py) and through `harness eval`
#   ncu         harness medians against ncu's gpu__time_duration.sum (20 kernels)
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cudaperf-bench}
PHASES=()
while [ $# -gt 0 ]; do
    case $1 in
    --out) OUT=$2; shift 2 ;;
    *) PHASES+=("$1"); shift ;;
    esac
done
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
H="$PWD/bin/harness"
CAT="$OUT/catalog.db"
[ -f "$CAT" ] || cp datasets/catalog.db "$CAT"
SAMPLE=${SAMPLE:-120}
SPLIT=${SPLIT-test}     # SPLIT= (empty) samples every split
KB=${KB:-5}
CORES=$(nproc)
PY=${PYTHON:-python3}

phase_checks() {
    tests/gpu/run_device_checks.sh bin >"$OUT/checks.log" 2>&1
    echo "checks: exit $?"
    tail -40 "$OUT/checks.log"
}

phase_correctness() {
    local t0=$(date +%s.%N)
    "$H" --catalog "$CAT" run --kernels reference --timing-runs 0 --per-gpu $((CORES - 2)) --jobs 2 \
        --cache "$OUT/cache" >"$OUT/correctness.log" 2>&1
    echo "correctness run: exit $?, $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.0f", b-a}') s"
    tail -2 "$OUT/correctness.log"
    "$H" --catalog "$CAT" results --summary | tail -3
    "$H" --catalog "$CAT" results --json >"$OUT/correctness.json"
    "$PY" tests/bench/device_analysis.py failures "$OUT/correctness.json" | tail -40
}

phase_timed() {
    for k in 1 2; do
        "$H" --catalog "$CAT" run ${SPLIT:+--split "$SPLIT"} --kernels reference --limit "$SAMPLE" --cache "$OUT/cache" \
            >"$OUT/timed$k.log" 2>&1
        echo "timed run $k: exit $?"
        tail -1 "$OUT/timed$k.log"
        "$H" --catalog "$CAT" results --json >"$OUT/timed$k.json"
    done
    "$PY" tests/bench/device_analysis.py timed "$OUT/timed1.json" "$OUT/timed2.json"
}

phase_kernelbench() {
    # KB programs of the test split with plain fills, exported as folders
    "$PY" tests/bench/device_analysis.py export "$CAT" "$OUT/kb" "$KB" >"$OUT/kb-folders.txt"
    "$PY" tests/bench/kernelbench_flow.py --out "$OUT/kernelbench.json" $(cat "$OUT/kb-folders.txt") \
        >"$OUT/kernelbench.log" 2>&1
    echo "kernelbench flow: exit $?"
    tail -3 "$OUT/kernelbench.log"
    "$PY" tests/bench/device_analysis.py kernelbench "$OUT/kernelbench.json" "$H" $(cat "$OUT/kb-folders.txt")
}

phase_ncu() {
    "$PY" tests/bench/device_analysis.py ncu "$OUT/timed1.json" "$CAT" "$OUT/ncu" "$H"
}

for p in "${PHASES[@]}"; do
    echo "=== $p ($(date -u +%H:%M:%S))"
    "phase_$p"
done
