#!/bin/sh
# make bench: measures the dataset build and writes docs/BENCHMARKS.md's
# "Dataset build" section (other sections are kept).  Figures: full build time
# from scratch, no-op rebuild time, catalog size, programs per family, and the
# per-program ingest cost as a ratio to a bare `cc -O2 -shared` of the same
# programs measured in the same run (machines here are noisy; the ratio is what
# to compare across runs).  Then the CPU backend on every reference CUDA
# implementation's small config ("CPU backend" section; BENCH_SKIP_CPU_BACKEND=1
# skips it).  GPU figures come from tests/bench/device_bench.sh on a GPU machine.
set -eu
cd "$(dirname "$0")/../.."
OUT=${BENCH_DIR:-$(mktemp -d /tmp/cudaperf-bench-XXXXXX)}
JOBS=${JOBS:-$(nproc)}
now() { date +%s.%N; }

rm -rf "$OUT/programs" "$OUT/catalog.db"* "$OUT/cache"
t0=$(now)
./bin/cudaperf-gen --out "$OUT/programs" >/dev/null
t1=$(now)
./bin/harness --catalog "$OUT/catalog.db" ingest --quiet --jobs "$JOBS" "$OUT/programs" > "$OUT/ingest.log" 2> "$OUT/ingest.err"
t2=$(now)
./bin/cudaperf-gen --out "$OUT/programs" >/dev/null
./bin/harness --catalog "$OUT/catalog.db" ingest --quiet --jobs "$JOBS" "$OUT/programs" > "$OUT/noop.log" 2>&1
t3=$(now)

# Peer in the same run: a bare compile of 100 of the same programs.
ls -d "$OUT"/programs/c/*/* | awk 'NR % 29 == 1' | head -100 > "$OUT/sample.txt"
n_sample=$(wc -l < "$OUT/sample.txt")
t4=$(now)
while read -r d; do cc -std=c11 -O2 -fPIC -shared -w -o "$OUT/x.so" "$d/program.c" -lm; done < "$OUT/sample.txt"
t5=$(now)

programs=$(./bin/harness --catalog "$OUT/catalog.db" catalog stats --json)
size=$(du -k "$OUT/catalog.db" | cut -f1)
hash=$(./bin/harness --catalog "$OUT/catalog.db" catalog hash)
total=$(echo "$programs" | sed -n 's/^{"programs":\([0-9]*\).*/\1/p')
gen_s=$(echo "$t1 - $t0" | bc -l)
ingest_s=$(echo "$t2 - $t1" | bc -l)
noop_s=$(echo "$t3 - $t2" | bc -l)
cc_each=$(echo "($t5 - $t4) / $n_sample" | bc -l)
ingest_each=$(echo "$ingest_s * $JOBS / $total" | bc -l)

section=$(mktemp)
{
  echo "## Dataset build (make bench)"
  echo
  echo "Measured $(date -u +%Y-%m-%d) on $(uname -n), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))."
  echo
  echo "| figure | value |"
  echo "| --- | --- |"
  printf '| full build from scratch (generate + ingest, %s jobs) | %.1f s (generate %.1f s, ingest %.1f s) |\n' "$JOBS" "$(echo "$gen_s + $ingest_s" | bc -l)" "$gen_s" "$ingest_s"
  printf '| no-op rebuild (generate + ingest again) | %.1f s |\n' "$noop_s"
  echo "| programs in the catalog | $total |"
  echo "| catalog size | $((size / 1024)) MiB |"
  echo "| catalog hash | \`$hash\` |"
  printf '| ingest CPU-seconds per program / bare `cc -O2 -shared` per program (same run) | %.2f s / %.3f s = %.1fx |\n' "$ingest_each" "$cc_each" "$(echo "$ingest_each / $cc_each" | bc -l)"
  echo
  echo "Rejections: $(grep -c 'dropped\|rejected' "$OUT/ingest.err" || true) (see \`harness catalog stats\`)."
  echo
  echo "Programs per family:"
  echo
  echo "| family | programs |"
  echo "| --- | --- |"
  echo "$programs" | sed 's/.*"families":{\([^}]*\)}.*/\1/' | tr ',' '\n' | sed 's/"\([^"]*\)":\([0-9]*\)/| \1 | \2 |/'
  echo
} > "$section"

doc=docs/BENCHMARKS.md
[ -f "$doc" ] || printf '# CudaPerf benchmarks\n\nWritten by `make bench` (and by device runs for GPU figures). Each section says how and when it was measured.\n\n' > "$doc"
# Replaces the section headed $1 (up to the next "## ") with the file $2.
replace_section() {
  awk -v sec="$2" -v head="$1" '
    index($0, head) == 1 { while ((getline line < sec) > 0) print line; skip = 1; done = 1; next }
    /^## / { skip = 0 }
    !skip { print }
    END { if (!done) while ((getline line < sec) > 0) print line }
  ' "$doc" > "$doc.tmp" && mv "$doc.tmp" "$doc"
}
replace_section "## Dataset build" "$section"
rm -f "$section"

# Input generation for the large configs: the fills that dominated a large
# config's evaluation, against the same draws sorted by glibc qsort (the path
# before 2026-12-07) in the same run.
section=$(mktemp)
{
  echo "## Input fills of the large configs (make bench)"
  echo
  echo "Measured $(date -u +%Y-%m-%d) on $(uname -n), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))."
  echo "\`bin/bench-inputs\` (tests/bench/bench_inputs.c): \`inputs_fill\` (draws split over the cores, radix sort of"
  echo "the cuts and of sorted keys) against its peer in the same run, the same draws sorted by glibc \`qsort\`."
  echo
  ./bin/bench-inputs
  echo
} > "$section"
replace_section "## Input fills of the large configs" "$section"
rm -f "$section"

# The CPU backend on every reference CUDA implementation's small config
# (issue: at most 20 minutes on a 2-core machine).  BENCH_SKIP_CPU_BACKEND=1
# leaves it out.
if [ "${BENCH_SKIP_CPU_BACKEND:-0}" != 1 ]; then
  t6=$(now)
  ./bin/harness --catalog "$OUT/catalog.db" run --backend cpu --kernels reference --configs small \
      --cache "$OUT/cache" > "$OUT/cpu-backend.log" 2>&1 || true
  t7=$(now)
  ./bin/harness --catalog "$OUT/catalog.db" results --json > "$OUT/cpu-backend.json"
  summary=$(tail -1 "$OUT/cpu-backend.log")
  counts=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["summary"]))' "$OUT/cpu-backend.json")
  section=$(mktemp)
  {
    echo "## CPU backend: every reference on its small config (make bench)"
    echo
    echo "Measured $(date -u +%Y-%m-%d) on $(uname -n), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))."
    echo "\`harness run --backend cpu --kernels reference --configs small\` over the catalog just built"
    echo "(3 fresh-input trials each, cold caches: every kernel compiled with g++ against the prelude)."
    echo
    echo "| figure | value |"
    echo "| --- | --- |"
    printf '| wall time | %.0f s (%.1f min) |\n' "$(echo "$t7 - $t6" | bc -l)" "$(echo "($t7 - $t6) / 60" | bc -l)"
    echo "| verdicts (results by status) | \`$counts\` |"
    echo "| run summary | $summary |"
    echo
  } > "$section"
  replace_section "## CPU backend: every reference" "$section"
  rm -f "$section"
fi

cat "$doc"
echo "bench: catalog and logs in $OUT"
