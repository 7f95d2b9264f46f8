#!/usr/bin/env bash
# device_bench.sh — the GPU figures of docs/BENCHMARKS.md, on a machine with a GPU.
#
# Run from the repository root with bin/ built (and bin/lib holding the shared
# libraries the device machine lacks) and datasets/catalog.db carried:
#
#   tests/bench/device_bench.sh PHASE... [--out DIR]
#
# Phases (each prints a short table last; full logs under DIR):
#   setup       build the catalog in DIR (generate + ingest with every core) unless DIR/catalog.db
#               exists (the full catalog is larger than what the device tool carries); the C
#               programs only unless SETUP_LANG= (empty: every language)
#   verify      every reference and VERIFY_VARIANTS variants (spread over families and kinds):
#               on the GPU on every config but large (correctness, planted defects caught) and,
#               at the same time, with the CPU backend on their small config (agreement)
#   checks      the fixture and adversarial candidates (tests/gpu/run_device_checks.sh)
#   correctness every reference kernel of the catalog on every config but CORR_SKIP
#               (default: large), correctness only, 3 trials ("every reference passes")
#   agreement   AGREE kernels (references and variants) on their small config, for the
#               CPU backend's agreement figure (compare with the same run --backend cpu)
#   timed       SAMPLE test-split references (spread over the families) timed twice on
#               three configs (small, edge, edge-prime): per-candidate cost, and the
#               Spearman rank correlation of the two runs' medians
#   kernelbench the same KB kernels through KernelBench's load_inline flow
#               (tests/bench/kernelbench_flow.py) and through `harness eval`
#   race        --racecheck on the race variants of verify's selection and RACE_OTHERS more kernels, beside
#               the plain GPU run and the CPU backend (small config): agreement, races caught
#   defects     DEFECTS_SAMPLE low-precision-accumulation variants on the large config, where long sums
#               show them (verify leaves large out)
#   census      the CUDA side's verification in one pass over DIR/catalog-torch.db (after torchcat):
#               every C reference implementation on every config, large included (torch ones: torchrefs),
#               and beside it every planted wrong-result defect (knobs expect "fail", C and torch) on
#               every config but large; then the defects none of those caught, on the large config.
#               Correctness only, one trial (two for the defects: guards read as indices too);
#               CENSUS_BUDGET bounds each run (rerun to resume);
#               CENSUS_PARTS=refs runs the references alone; CENSUS_LARGE_BUDGET bounds the large part;
#               CENSUS_FROM=FAMILY: the C references from that family on (name order; the rest of a census),
#               and those of the families CENSUS_ALSO lists (a,b: configs changed since), and with
#               CENSUS_BEYOND_BEFORE=FAMILY those of the families before it (but CENSUS_BEYOND_SKIP) that have
#               a config beyond the C reference's budget (checked against golden outputs since c249a8e)
#   altspeed    the contenders of ALT_PER_FAMILY programs of each family of ALT_FAMILIES (those whose
#               generators emit alternatives from the template library's knob space), timed like
#               speedup (one trial, ALT_BUDGET s): best variant vs reference, fastest kind
#   slower      the "slower" variants (SLOWER_KINDS, default register-spills,uncoalesced) of SLOWER_PROGRAMS
#               programs, every family in turn (SLOWER_CAT, default the C catalog), their references and
#               the parents they name (register-spills: partial-sums-P), timed (one trial, SLOWER_BUDGET s;
#               rerun to resume): how many are measurably slower than the reference and than the parent
#   slowerset   DIR/catalog-slowerset.db: the programs of SLOWER_FAMILIES (a,b,...; default every family) that
#               have a variant of SLOWER_KINDS, with only those variants, the parents they name and the
#               reference (device_analysis.py subset-programs); then `SLOWER_CAT=DIR/catalog-slowerset.db
#               ... slower` times every one of them without a catalog of all their families' variants
#   torchcat    DIR/catalog-torch.db: the C catalog plus the torch programs (after setup)
#   torchrefs   every torch program's reference CUDA implementation, its reference computed by torch on
#               the GPU, small/edge/large, in DIR/catalog-torch.db (the C catalog plus the torch programs;
#               TORCH_BUDGET bounds it)
#   ncu         harness medians against ncu's gpu__time_duration.sum (20 kernels, large
#               configs of single-launch references, one per family)
#   speedup     the contenders (`--kernels contenders`: the reference and the variants not planted
#               to fail) of SPEEDUP_PROGRAMS programs spread over all families of SPEEDUP_CAT, timed on
#               the GPU by SPEEDUP_PER_GPU workers taking turns, with SPEEDUP_TRIALS trials (bounded by
#               SPEEDUP_BUDGET s; rerun the phase to resume): best variant vs reference, vs the C program
#               on one core / torch eager, roofline fraction, "slower" variants (SPEEDUP_CPU=1: the CPU
#               backend beside it, and the two backends' agreement).  SPEEDUP_SHARD=I/N runs shard I
#               of the sample; each shard leaves DIR/speedup-rows-IofN.json, and
#               `device_analysis.py speedup-combine FILE...` gives the figures of all of them
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
[ -f "$CAT" ] || [ ! -f datasets/catalog.db ] || cp datasets/catalog.db "$CAT"
SAMPLE=${SAMPLE:-120}
SPLIT=${SPLIT-test}     # SPLIT= (empty) samples every split
KB=${KB:-5}
AGREE=${AGREE:-600}
CORR_SKIP=${CORR_SKIP-large}   # configs the correctness phase leaves out (CPU reference cost)
CORES=$(nproc)
PY=${PYTHON:-python3}

phase_setup() {
    if [ -f "$CAT" ]; then
        echo "catalog: $CAT exists"
        return
    fi
    local t0=$(date +%s)
    rm -rf "$OUT/programs"
    bin/cudaperf-gen --out "$OUT/programs" >"$OUT/gen.log" 2>&1 &&
        "$H" --catalog "$CAT" ingest --jobs "$CORES" "$OUT/programs/${SETUP_LANG:-c}" >"$OUT/ingest.log" 2>&1
    echo "catalog build: exit $?, $(( $(date +%s) - t0 )) s"
    tail -2 "$OUT/ingest.log"
}

VERIFY_VARIANTS=${VERIFY_VARIANTS:-2500}
VERIFY_BUDGET=${VERIFY_BUDGET:-420}
phase_verify() {
    "$PY" tests/bench/device_analysis.py ids "$CAT" "$VERIFY_VARIANTS" >"$OUT/verify-ids.txt"
    local ids=$(cat "$OUT/verify-ids.txt") n=$(tr ',' '\n' <"$OUT/verify-ids.txt" | wc -l)
    echo "verify: $n kernels"
    cp "$CAT" "$OUT/catalog-cpu.db"
    local t0=$(date +%s)
    timeout -s INT "$VERIFY_BUDGET" "$H" --catalog "$CAT" run --kernels "$ids" --skip-configs large \
        --timing-runs 0 --per-gpu "${VERIFY_PER_GPU:-5}" --jobs 2 --cache "$OUT/cache" >"$OUT/verify-gpu.log" 2>&1 &
    local gpu=$!
    if command -v "${CXX:-g++}" >/dev/null; then
        timeout -s INT "$VERIFY_BUDGET" "$H" --catalog "$OUT/catalog-cpu.db" run --backend cpu --kernels "$ids" \
            --configs small --trials 1 --jobs $((CORES - 7)) --cache "$OUT/cache-cpu" >"$OUT/verify-cpu.log" 2>&1
        echo "CPU backend run: exit $?, $(( $(date +%s) - t0 )) s"
    else
        echo "no ${CXX:-g++} here: the CPU backend side is not run"
    fi
    wait $gpu
    echo "GPU run: exit $?, $(( $(date +%s) - t0 )) s"
    tail -1 "$OUT/verify-gpu.log"
    "$H" --catalog "$CAT" results --summary | tail -4
    "$H" --catalog "$CAT" results --json >"$OUT/verify-gpu.json"
    "$PY" tests/bench/device_analysis.py failures "$OUT/verify-gpu.json" | tail -30
    "$PY" tests/bench/device_analysis.py defects "$CAT" "$OUT/verify-gpu.json"
    if [ -s "$OUT/verify-cpu.log" ]; then
        tail -1 "$OUT/verify-cpu.log"
        "$H" --catalog "$OUT/catalog-cpu.db" results --json >"$OUT/verify-cpu.json"
        "$PY" tests/bench/device_analysis.py agreement "$OUT/verify-gpu.json" "$OUT/verify-cpu.json"
    fi
}

phase_checks() {
    tests/gpu/run_device_checks.sh bin >"$OUT/checks.log" 2>&1
    echo "checks: exit $?"
    tail -40 "$OUT/checks.log"
}

phase_correctness() {
    local t0=$(date +%s.%N)
    # CORR_BUDGET (seconds): stop the run then (SIGINT: stored as interrupted,
    # continued later with `harness run --resume`)
    ${CORR_BUDGET:+timeout -s INT "$CORR_BUDGET"} \
    "$H" --catalog "$CAT" run --kernels reference ${CORR_SKIP:+--skip-configs "$CORR_SKIP"} --timing-runs 0 \
        --per-gpu $((CORES - 2)) --jobs 2 --cache "$OUT/cache" >"$OUT/correctness.log" 2>&1
    echo "correctness run: exit $?, $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.0f", b-a}') s"
    tail -2 "$OUT/correctness.log"
    "$H" --catalog "$CAT" results --summary | tail -3
    "$H" --catalog "$CAT" results --json >"$OUT/correctness.json"
    "$PY" tests/bench/device_analysis.py failures "$OUT/correctness.json" | tail -40
}

phase_agreement() {
    # the GPU side of the CPU-backend agreement figure: AGREE kernels (references
    # and variants, spread over the catalog) on their small config
    "$H" --catalog "$CAT" run --kernels all --sample "$AGREE" --configs small --timing-runs 0 \
        --per-gpu $((CORES - 2)) --jobs 2 --cache "$OUT/cache" >"$OUT/agreement.log" 2>&1
    echo "agreement run (GPU side): exit $?"
    tail -1 "$OUT/agreement.log"
    "$H" --catalog "$CAT" results --json >"$OUT/agreement-gpu.json"
}

phase_timed() {
    for k in 1 2; do
        ${TIMED_BUDGET:+timeout -s INT "$TIMED_BUDGET"} \
        "$H" --catalog "$CAT" run ${SPLIT:+--split "$SPLIT"} --kernels reference --sample "$SAMPLE" \
            --configs small,edge,edge-prime --cache "$OUT/cache" \
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

SPEEDUP_PROGRAMS=${SPEEDUP_PROGRAMS:-200}
SPEEDUP_BUDGET=${SPEEDUP_BUDGET:-480}
SPEEDUP_TRIALS=${SPEEDUP_TRIALS:-3}
SPEEDUP_PER_GPU=${SPEEDUP_PER_GPU:-8}
SPEEDUP_CPU=${SPEEDUP_CPU:-0}
SPEEDUP_SHARD=${SPEEDUP_SHARD:-}     # I/N: shard I of the sample only (another call, another machine, does the rest)
# The run of a catalog that carries the given marker in its stored selection,
# or nothing: a rerun of the phase resumes it.
sample_run() {
    "$PY" -c '
import json, sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute("SELECT id, selection FROM runs ORDER BY id").fetchall()
m = [i for i, sel in rows if json.loads(sel or "{}").get("sample_programs") == int(sys.argv[2])
     and json.loads(sel or "{}").get("kernels") == "contenders"
     and json.loads(sel or "{}").get("shard", "") == sys.argv[3]]
print(m[-1] if m else "")' "$1" "$SPEEDUP_PROGRAMS" "$SPEEDUP_SHARD"
}
phase_speedup() {
    # SPEEDUP_CAT: the catalog sampled (default the C one; DIR/catalog-torch.db after the torchrefs phase
    # holds the torch programs too).  SPEEDUP_PER_GPU workers share the GPU: inputs, C references and
    # comparisons overlap while every measurement has the GPU to itself (gpu_share.h); the C references'
    # one-core times then come from a machine with that many busy cores.  SPEEDUP_CPU=1 runs the CPU
    # backend on the same kernels beside it (small config; it competes for the cores).
    local cat=${SPEEDUP_CAT:-$CAT}
    local cpucat="$OUT/catalog-speedup-cpu.db" t0=$(date +%s)
    local g=$(sample_run "$cat") c=""
    local sel="--kernels contenders --sample-programs $SPEEDUP_PROGRAMS ${SPEEDUP_SHARD:+--shard $SPEEDUP_SHARD}"
    local gsel=${g:+--resume $g --quiet}
    timeout -s INT "$SPEEDUP_BUDGET" "$H" --catalog "$cat" run ${gsel:-$sel --trials $SPEEDUP_TRIALS} \
        --per-gpu "$SPEEDUP_PER_GPU" --jobs 4 --cache "$OUT/cache" >>"$OUT/speedup-gpu.log" 2>&1 &
    local gpu=$!
    if [ "$SPEEDUP_CPU" = 1 ] && command -v "${CXX:-g++}" >/dev/null; then
        [ -f "$cpucat" ] || cp "$cat" "$cpucat"
        c=$(sample_run "$cpucat")
        local csel=${c:+--resume $c --quiet}
        timeout -s INT "$SPEEDUP_BUDGET" "$H" --catalog "$cpucat" run --backend cpu \
            ${csel:-$sel --configs small --trials 1} --jobs $((CORES - 8)) --cache "$OUT/cache-cpu" \
            >>"$OUT/speedup-cpu.log" 2>&1
        echo "CPU backend run: exit $?, $(( $(date +%s) - t0 )) s"
        c=$(sample_run "$cpucat")
    fi
    wait $gpu
    echo "GPU run: exit $?, $(( $(date +%s) - t0 )) s"
    g=$(sample_run "$cat")
    tail -1 "$OUT/speedup-gpu.log"
    "$H" --catalog "$cat" results "$g" --json >"$OUT/speedup-gpu.json"
    # the rows name programs, not ids: `device_analysis.py speedup-combine` joins the shards' files
    "$PY" tests/bench/device_analysis.py speedup "$cat" "$OUT/speedup-gpu.json" \
        "$OUT/speedup-rows${SPEEDUP_SHARD:+-${SPEEDUP_SHARD/\//of}}.json"
    if [ -n "$c" ]; then
        "$H" --catalog "$cpucat" results "$c" --json >"$OUT/speedup-cpu.json"
        "$PY" tests/bench/device_analysis.py agreement "$OUT/speedup-gpu.json" "$OUT/speedup-cpu.json"
    fi
}

RACE_OTHERS=${RACE_OTHERS:-300}
phase_race() {
    # --racecheck (harness/racecheck.h) against the CPU backend: the race variants among verify's
    # selection (VERIFY_VARIANTS) and RACE_OTHERS more of it (references and variants: racecheck must
    # not cry race there), small config, one trial: on the GPU plain, on the GPU under racecheck, and
    # on the CPU backend, all three at once; RACE_BUDGET bounds each
    # RACE_SAMPLE=N instead: N kernels spread evenly over the whole catalog (its own mix of kinds);
    # RACE_CAT: the catalog sampled (default the C one; DIR/catalog-torch.db holds both languages);
    # RACE_PLAIN=0 leaves the plain GPU run out; RACE_SHARED_ONLY=1 runs racecheck only on the kernels
    # that declare shared memory (the only memory its hazards are about) and the others plain, and
    # judges the GPU by the two together; the CPU backend likewise (its own --racecheck, cpu_racecheck.h)
    local cat=${RACE_CAT:-$CAT}
    if [ -n "${RACE_SAMPLE:-}" ]; then
        "$PY" tests/bench/device_analysis.py sample-ids "$cat" "$RACE_SAMPLE" >"$OUT/race-ids.txt"
    else
        "$PY" tests/bench/device_analysis.py race-ids "$cat" "$VERIFY_VARIANTS" "$RACE_OTHERS" >"$OUT/race-ids.txt"
    fi
    local ids=$(cat "$OUT/race-ids.txt") rids b=${RACE_BUDGET:-240} t0=$(date +%s)
    echo "race: $(tr ',' '\n' <"$OUT/race-ids.txt" | wc -l) kernels"
    rids=$ids
    if [ "${RACE_SHARED_ONLY:-0}" = 1 ]; then
        "$PY" tests/bench/device_analysis.py split-shared "$cat" "$OUT/race-ids.txt" "$OUT/race-ids-shared.txt" \
            "$OUT/race-ids-plain.txt"
        rids=$(cat "$OUT/race-ids-shared.txt")
    fi
    local rcat="$OUT/catalog-race.db" pcat="$OUT/catalog-race-plain.db" ccat="$OUT/catalog-race-cpu.db"
    cp "$cat" "$rcat"; cp "$cat" "$pcat"; cp "$cat" "$ccat"
    local opts="--configs small --trials 1 --timing-runs 0"
    timeout -s INT "$b" "$H" --catalog "$rcat" run --kernels "$rids" $opts --racecheck --per-gpu "${RACE_PER_GPU:-8}" \
        --jobs 2 --cache "$OUT/cache" >"$OUT/race-gpu.log" 2>&1 &
    local g1=$!
    local g2= pids=$ids
    [ "${RACE_SHARED_ONLY:-0}" = 1 ] && pids=$(cat "$OUT/race-ids-plain.txt")
    if [ "${RACE_PLAIN:-1}" = 1 ] || [ "${RACE_SHARED_ONLY:-0}" = 1 ]; then
        timeout -s INT "$b" "$H" --catalog "$pcat" run --kernels "$pids" $opts --per-gpu 2 --jobs 1 --cache "$OUT/cache" \
            >"$OUT/race-plain.log" 2>&1 &
        g2=$!
    fi
    if [ "${RACE_SHARED_ONLY:-0}" = 1 ]; then
        # the CPU backend the same way: its own racecheck where shared memory is declared
        local ccat2="$OUT/catalog-race-cpu-plain.db"
        cp "$cat" "$ccat2"
        timeout -s INT "$b" "$H" --catalog "$ccat" run --kernels "$rids" $opts --backend cpu --racecheck \
            --per-gpu "${RACE_CPU_WORKERS:-4}" --cache "$OUT/cache-cpu" >"$OUT/race-cpu.log" 2>&1
        echo "CPU backend --racecheck: exit $?, $(( $(date +%s) - t0 )) s"
        timeout -s INT "$b" "$H" --catalog "$ccat2" run --kernels "$pids" $opts --backend cpu \
            --per-gpu "${RACE_CPU_WORKERS:-4}" --cache "$OUT/cache-cpu" >"$OUT/race-cpu-plain.log" 2>&1
        echo "CPU backend plain: exit $?, $(( $(date +%s) - t0 )) s"
    else
        timeout -s INT "$b" "$H" --catalog "$ccat" run --kernels "$ids" $opts --backend cpu --per-gpu "${RACE_CPU_WORKERS:-4}" \
            --cache "$OUT/cache-cpu" >"$OUT/race-cpu.log" 2>&1
        echo "CPU backend: exit $?, $(( $(date +%s) - t0 )) s"
    fi
    wait $g1; echo "GPU --racecheck: exit $?, $(( $(date +%s) - t0 )) s"
    [ -z "$g2" ] || { wait $g2; echo "GPU plain: exit $?, $(( $(date +%s) - t0 )) s"; }
    tail -1 "$OUT/race-gpu.log"
    for c in race race-plain race-cpu race-cpu-plain; do
        [ -f "$OUT/catalog-$c.db" ] && "$H" --catalog "$OUT/catalog-$c.db" results --json >"$OUT/$c.json"
    done
    local gpu="$OUT/race.json" cpu="$OUT/race-cpu.json"
    if [ "${RACE_SHARED_ONLY:-0}" = 1 ]; then
        "$PY" tests/bench/device_analysis.py join-results "$OUT/race-joined.json" "$OUT/race.json" "$OUT/race-plain.json"
        "$PY" tests/bench/device_analysis.py join-results "$OUT/race-cpu-joined.json" "$OUT/race-cpu.json" \
            "$OUT/race-cpu-plain.json"
        gpu="$OUT/race-joined.json" cpu="$OUT/race-cpu-joined.json"
        echo "-- racecheck where shared memory is declared, plain elsewhere: GPU against the CPU backend"
    else
        if [ -n "$g2" ]; then
            echo "-- plain GPU against the CPU backend"
            "$PY" tests/bench/device_analysis.py agreement "$OUT/race-plain.json" "$OUT/race-cpu.json" | sed -n 1,12p
        fi
        echo "-- GPU under --racecheck against the CPU backend"
    fi
    "$PY" tests/bench/device_analysis.py agreement "$gpu" "$cpu" | sed -n 1,40p
    echo "-- planted defects, GPU"
    "$PY" tests/bench/device_analysis.py defects "$cat" "$gpu" | sed -n 1,30p
    "$PY" - "$OUT/race.json" <<'PYEOF'
import collections, json, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"] if r["status"] != "skipped"]
flag = collections.Counter((r.get("defect") or r["origin"]) for r in rows if "shared-memory race" in (r.get("error") or ""))
print("-- racecheck's hazards by kernel kind (references and unplanted variants must have none):", dict(flag))
PYEOF
}

DEFECTS_SAMPLE=${DEFECTS_SAMPLE:-150}
phase_defects() {
    # the planted defects that show on long sums only: DEFECTS_SAMPLE low-precision-accumulation variants,
    # spread over the catalog, on the large config (the verify phase leaves it out); bounded by DEFECTS_BUDGET
    "$PY" - "$CAT" "$DEFECTS_SAMPLE" >"$OUT/defects-ids.txt" <<'PYEOF'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
want = int(sys.argv[2])
ids = [kid for kid, k in db.execute("SELECT id, knobs FROM kernels ORDER BY id")
       if json.loads(k or "{}").get("defect") == "low-precision-accumulation"]
step = max(1.0, len(ids) / want)
print(",".join(str(ids[int(i * step)]) for i in range(min(want, len(ids)))))
PYEOF
    local t0=$(date +%s)
    ${DEFECTS_BUDGET:+timeout -s INT "$DEFECTS_BUDGET"} \
    "$H" --catalog "$CAT" run --kernels "$(cat "$OUT/defects-ids.txt")" --configs large --timing-runs 0 --trials 1 \
        --per-gpu $((CORES - 2)) --jobs 2 --cache "$OUT/cache" >"$OUT/defects.log" 2>&1
    echo "defects run: exit $?, $(( $(date +%s) - t0 )) s"
    tail -1 "$OUT/defects.log"
    "$H" --catalog "$CAT" results --json >"$OUT/defects.json"
    "$PY" - "$OUT/defects.json" <<'PYEOF'
import collections, json, sys
rows = json.load(open(sys.argv[1]))["results"]
st = collections.Counter(r["status"] for r in rows)
print("low-precision-accumulation on the large config: %d kernels, caught (not pass) %d; %s"
      % (len(rows), sum(v for k, v in st.items() if k != "pass"), dict(st)))
PYEOF
}

# The last run of a catalog if it did not finish (a rerun of a phase resumes it), "new" if the
# catalog has no run yet, else nothing (done).
run_to_resume() {
    "$PY" -c '
import sqlite3, sys
r = sqlite3.connect(sys.argv[1]).execute("SELECT id, status FROM runs ORDER BY id DESC LIMIT 1").fetchone()
print("new" if not r else r[0] if r[1] != "finished" else "")' "$1"
}
# resumable_run BUDGET CATALOG LOG WORKERS JOBS CACHE SELECTION...: start the catalog's one run with
# SELECTION, or resume it if it did not finish (nothing if it did), bounded by BUDGET seconds
resumable_run() {
    local budget=$1 cat=$2 log=$3 workers=$4 jobs=$5 cache=$6 r
    shift 6
    r=$(run_to_resume "$cat")
    [ -n "$r" ] || return 0
    [ "$r" = new ] || set -- --resume "$r" --quiet
    timeout -s INT "$budget" "$H" --catalog "$cat" run "$@" --per-gpu "$workers" --jobs "$jobs" \
        --cache "$cache" >>"$log" 2>&1
}
phase_census() {
    # catalog copies: two runs at once, each resumable on its own
    local tcat="$OUT/catalog-torch.db" t0=$(date +%s) c b=${CENSUS_BUDGET:-400}
    for c in refs defects large; do [ -f "$OUT/catalog-census-$c.db" ] || cp "$tcat" "$OUT/catalog-census-$c.db"; done
    "$PY" tests/bench/device_analysis.py expect-ids "$tcat" fail >"$OUT/census-defect-ids.txt"
    echo "census: $(tr ',' '\n' <"$OUT/census-defect-ids.txt" | grep -c .) planted wrong-result defects"
    local refsel=(--program 'c/%' --kernels reference)
    if [ -n "${CENSUS_FROM:-}" ]; then
        "$PY" tests/bench/device_analysis.py reference-ids "$tcat" c "$CENSUS_FROM" "${CENSUS_ALSO:-}" \
            "${CENSUS_BEYOND_BEFORE:-}" "${CENSUS_BEYOND_SKIP:-}" \
            >"$OUT/census-ref-ids.txt"
        refsel=(--kernels "$(cat "$OUT/census-ref-ids.txt")")
        echo "census: $(tr ',' '\n' <"$OUT/census-ref-ids.txt" | grep -c .) C references from family $CENSUS_FROM on"
    fi
    resumable_run "$b" "$OUT/catalog-census-refs.db" "$OUT/census-refs.log" "${CENSUS_REF_WORKERS:-8}" 2 "$OUT/cache" \
        "${refsel[@]}" --timing-runs 0 --trials 1 &
    local g1=$!
    if [ "${CENSUS_PARTS:-refs defects}" != refs ]; then
        resumable_run "$b" "$OUT/catalog-census-defects.db" "$OUT/census-defects.log" "${CENSUS_DEFECT_WORKERS:-6}" \
            "${CENSUS_DEFECT_JOBS:-4}" "$OUT/cache-d" --kernels "$(cat "$OUT/census-defect-ids.txt")" \
            --skip-configs large --timing-runs 0 --trials 2
        echo "defects run (configs but large): exit $?, $(( $(date +%s) - t0 )) s"
    fi
    wait $g1; echo "references run (C, every config the CPU reference affords): exit $?, $(( $(date +%s) - t0 )) s"
    for c in refs defects; do
        [ -s "$OUT/census-$c.log" ] || continue
        tail -1 "$OUT/census-$c.log"
        "$H" --catalog "$OUT/catalog-census-$c.db" results --json >"$OUT/census-$c.json"
    done
    "$PY" tests/bench/device_analysis.py failures "$OUT/census-refs.json" | tail -30
    [ "${CENSUS_PARTS:-refs defects}" != refs ] || return 0
    [ -z "$(run_to_resume "$OUT/catalog-census-defects.db")" ] || { echo "defects run unfinished: rerun census"; return; }
    "$PY" tests/bench/device_analysis.py missed-ids "$tcat" "$OUT/census-defects.json" >"$OUT/census-missed-ids.txt"
    local nmissed=$(tr ',' '\n' <"$OUT/census-missed-ids.txt" | grep -c .) large=
    echo "defects not caught on the configs but large: $nmissed"
    if [ "$nmissed" -gt 0 ]; then
        resumable_run "${CENSUS_LARGE_BUDGET:-$b}" "$OUT/catalog-census-large.db" "$OUT/census-large.log" $((CORES - 2)) 2 "$OUT/cache" \
            --kernels "$(cat "$OUT/census-missed-ids.txt")" --configs large --timing-runs 0 --trials 2
        echo "those on the large config: exit $?, $(( $(date +%s) - t0 )) s"
        "$H" --catalog "$OUT/catalog-census-large.db" results --json >"$OUT/census-large.json"
        large="$OUT/census-large.json"
    fi
    "$PY" tests/bench/device_analysis.py defects "$tcat" "$OUT/census-defects.json" $large | tail -40
}

ALT_FAMILIES=${ALT_FAMILIES:-gemm,reduce_all,reduce_rows,softmax,layernorm,transpose,ew_chain}
phase_altspeed() {
    local cat="$OUT/catalog-alt.db" t0=$(date +%s)
    [ -f "$cat" ] || cp "$CAT" "$cat"
    "$PY" tests/bench/device_analysis.py family-contender-ids "$cat" "$ALT_FAMILIES" "${ALT_PER_FAMILY:-6}" \
        >"$OUT/alt-ids.txt"
    echo "altspeed: $(tr ',' '\n' <"$OUT/alt-ids.txt" | grep -c .) kernels"
    resumable_run "${ALT_BUDGET:-300}" "$cat" "$OUT/alt-gpu.log" "${ALT_PER_GPU:-8}" 4 "$OUT/cache" \
        --kernels "$(cat "$OUT/alt-ids.txt")" --trials 1
    echo "GPU run: exit $?, $(( $(date +%s) - t0 )) s"
    tail -1 "$OUT/alt-gpu.log"
    "$H" --catalog "$cat" results --json >"$OUT/alt-gpu.json"
    "$PY" tests/bench/device_analysis.py speedup "$cat" "$OUT/alt-gpu.json" "$OUT/alt-rows.json"
}

SLOWER_KINDS=${SLOWER_KINDS:-register-spills,uncoalesced}
phase_slower() {
    # the "slower" variants of SLOWER_PROGRAMS programs (every family in turn) and their references, timed on the
    # config with the most bytes: are they correct and measurably slower (ptxas spills read from the stored structure)
    local cat="$OUT/catalog-slower.db" t0=$(date +%s)
    [ -f "$cat" ] || cp "${SLOWER_CAT:-$CAT}" "$cat"
    "$PY" tests/bench/device_analysis.py kind-ids "$cat" "$SLOWER_KINDS" "${SLOWER_PROGRAMS:-120}" >"$OUT/slower-ids.txt"
    echo "slower: $(tr ',' '\n' <"$OUT/slower-ids.txt" | grep -c .) kernels"
    resumable_run "${SLOWER_BUDGET:-300}" "$cat" "$OUT/slower-gpu.log" "${SLOWER_PER_GPU:-8}" 4 "$OUT/cache" \
        --kernels "$(cat "$OUT/slower-ids.txt")" --trials 1
    echo "GPU run: exit $?, $(( $(date +%s) - t0 )) s"
    tail -1 "$OUT/slower-gpu.log"
    "$H" --catalog "$cat" results --json >"$OUT/slower-gpu.json"
    "$PY" tests/bench/device_analysis.py speedup "$cat" "$OUT/slower-gpu.json" "$OUT/slower-rows.json" | sed -n '/slower. variants/,$p'
}

phase_slowerset() {
    local scat="$OUT/catalog-slowerset.db" t0=$(date +%s) fams=()
    if [ -f "$scat" ]; then
        echo "catalog: $scat exists"
        return
    fi
    [ -z "${SLOWER_FAMILIES:-}" ] || for f in ${SLOWER_FAMILIES//,/ }; do fams+=(--family "$f"); done
    rm -rf "$OUT/slowerset-programs" "$OUT/slowerset"
    bin/cudaperf-gen --out "$OUT/slowerset-programs" "${fams[@]}" >"$OUT/slowerset-gen.log" 2>&1 &&
        "$PY" tests/bench/device_analysis.py subset-programs "$OUT/slowerset-programs" "$OUT/slowerset" "$SLOWER_KINDS" &&
        "$H" --catalog "$scat" ingest --jobs "$CORES" --quiet "$OUT/slowerset" >"$OUT/slowerset-ingest.log" 2>&1
    echo "slower-set catalog: exit $?, $(( $(date +%s) - t0 )) s"
    tail -1 "$OUT/slowerset-ingest.log"
}

phase_torchcat() {
    # DIR/catalog-torch.db: the C catalog plus the torch programs (for torchrefs, and for a speedup
    # sample over both languages: SPEEDUP_CAT=DIR/catalog-torch.db)
    local tcat="$OUT/catalog-torch.db" t0=$(date +%s)
    if [ -f "$tcat" ]; then
        echo "catalog: $tcat exists"
        return
    fi
    [ -d "$OUT/programs/torch" ] || bin/cudaperf-gen --out "$OUT/programs" >"$OUT/gen.log" 2>&1
    cp "$CAT" "$tcat"
    "$H" --catalog "$tcat" ingest --jobs "$CORES" "$OUT/programs/torch" >"$OUT/ingest-torch.log" 2>&1
    echo "torch ingest: exit $?, $(( $(date +%s) - t0 )) s"; tail -1 "$OUT/ingest-torch.log"
}

phase_torchrefs() {
    # every torch program's reference CUDA implementation against torch on the GPU (correctness on
    # small, edge and large), in DIR/catalog-torch.db
    local tcat="$OUT/catalog-torch.db" t0=$(date +%s)
    phase_torchcat
    # an interrupted run (TORCH_BUDGET) is resumed by the next call of the phase
    local resume=$("$PY" -c '
import sqlite3, sys
r = sqlite3.connect(sys.argv[1]).execute("SELECT id FROM runs WHERE status != ? ORDER BY id DESC LIMIT 1",
                                          ("finished",)).fetchone()
print(r[0] if r else "")' "$tcat")
    ${TORCH_BUDGET:+timeout -s INT "$TORCH_BUDGET"} \
    "$H" --catalog "$tcat" run ${resume:+--resume $resume} \
        ${resume:---program 'torch/%' --kernels reference --timing-runs 0 --trials 1} --per-gpu "${TORCH_PER_GPU:-8}" \
        --jobs 2 --cache "$OUT/cache-torch" >>"$OUT/torchrefs.log" 2>&1
    echo "torch references: exit $?, $(( $(date +%s) - t0 )) s"
    tail -1 "$OUT/torchrefs.log"
    "$H" --catalog "$tcat" results --json >"$OUT/torchrefs.json"
    "$PY" tests/bench/device_analysis.py failures "$OUT/torchrefs.json" | tail -30
}

phase_ncu() {
    "$PY" tests/bench/device_analysis.py ncu "$CAT" "$OUT/ncu" "$H"
}

for p in "${PHASES[@]}"; do
    echo "=== $p ($(date -u +%H:%M:%S))"
    "phase_$p"
done
