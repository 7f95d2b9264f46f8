#!/usr/bin/env bash
# profile_check.sh — validates the measured structural report on a GPU machine
# (issue 8, items 2 and 4).  Builds nothing: needs bin/harness (built with make,
# carried with the libraries the machine lacks in bin/lib) and a catalog made
# there:
#   bin/cudaperf-gen --out /tmp/ds/programs
#   bin/harness --catalog /tmp/b/catalog.db ingest --jobs 16 /tmp/ds/programs
#
#   tests/gpu/profile_check.sh CATALOG OUTDIR [BIN_DIR]
#   (PROGRAMS=/tmp/ds/programs: the generated folders, for the one eval --profile;
#    STEPS="0 a b c" the steps to run, PAIRS=110 and PAIRS_SECONDS=150 the size and bound of step a)
#
# Steps, each bounded by `timeout` (about 6 minutes in all on an H200):
#   0. environment, and one `harness eval --profile` printed in full
#   a. coalescing pairs: reference vs its "uncoalesced" variant (large config),
#      measured coalescing must order >= 95% of pairs (and the static one too)
#   b. occupancy: static (structure.c) vs cuOccupancyMaxActiveBlocksPerMultiprocessor,
#      exact matches over every reference kernel (small config)
#   c. DRAM bytes of ew_unary, ew_binary, blas1 references (large config) within
#      10% of the cost model's bytes
#   d. the profiled pass's cost per candidate
# Everything goes to OUTDIR (JSON lines per step, logs); the summary at the end
# (also OUTDIR/summary.md) is ready for docs/BENCHMARKS.md.
# Exit status: 0 when every check met its target, 1 otherwise, 2 usage.
set -u
cd "$(dirname "$0")/../.."
CAT=${1:-}
OUT=${2:-}
BIN=${3:-bin}
[ -n "$CAT" ] && [ -n "$OUT" ] || { echo "usage: $0 CATALOG OUTDIR [BIN_DIR]" >&2; exit 2; }
[ -f "$CAT" ] || { echo "profile_check: no catalog '$CAT'" >&2; exit 2; }
H=$BIN/harness
[ -x "$H" ] || { echo "profile_check: $H not found (build with make, carry bin/)" >&2; exit 2; }
[ -d "$BIN/lib" ] && export LD_LIBRARY_PATH="$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PY=$(command -v python3 || true)
[ -n "$PY" ] || { echo "profile_check: python3 is needed for the summary" >&2; exit 2; }
mkdir -p "$OUT"
T0=$(date +%s)

echo "== environment"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -2
grep -H RmProfilingAdminOnly /proc/driver/nvidia/params 2>/dev/null || echo "(no /proc/driver/nvidia/params)"
echo "missing libraries of $H:"; ldd "$H" | grep "not found" || echo "  none"
ls /usr/local/cuda/lib64/libcupti.so* /usr/local/cuda/lib64/libnvperf_host.so 2>&1 | head -4

step() { # name seconds command... : runs with a bound, logs, says how it ended
    local name=$1 secs=$2
    shift 2
    local t=$(date +%s.%N)
    timeout -k 10 "$secs" "$@" >"$OUT/$name.jsonl" 2>"$OUT/$name.log"
    local rc=$?
    local dt=$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "$name: exit $rc in $dt s ($(wc -l <"$OUT/$name.jsonl") lines; log $OUT/$name.log)"
    [ $rc -eq 124 ] && echo "  $name: TIMED OUT after $secs s (partial results are kept)"
    tail -3 "$OUT/$name.log" | sed 's/^/  | /'
    echo "$dt" >"$OUT/$name.seconds"
}

STEPS=" ${STEPS:-0 a b c} "
if [[ $STEPS == *" 0 "* ]]; then
echo "== 0. one candidate with eval --profile (static vs measured side by side)"
D=$(ls -d "${PROGRAMS:-/tmp/ds/programs}"/c/ew_unary/*/ 2>/dev/null | head -1)
if [ -n "$D" ]; then
    timeout -k 5 90 "$H" --catalog "$CAT" eval "$D" --profile --trials 1 >"$OUT/eval_profile.txt" 2>&1
    echo "exit $?"; tail -32 "$OUT/eval_profile.txt"
else
    echo "(no program folder under \${PROGRAMS:-/tmp/ds/programs}/c/ew_unary: set PROGRAMS)"
fi

fi
if [[ $STEPS == *" a "* ]]; then
echo "== a. coalescing pairs (large config)"
step pairs "${PAIRS_SECONDS:-150}" "$H" --catalog "$CAT" profile --pairs uncoalesced --sample "${PAIRS:-110}" \
    --config large --jobs 16
fi
if [[ $STEPS == *" b "* ]]; then
echo "== b. occupancy of every reference (small config, API vs static)"
step occupancy 160 "$H" --catalog "$CAT" profile --kernels reference --config small --occupancy-only --jobs 16
fi
if [[ $STEPS == *" c "* ]]; then
echo "== c. DRAM bytes of streaming references (large config)"
step dram 80 "$H" --catalog "$CAT" profile --kernels reference --families ew_unary,ew_binary,blas1 --sample 45 \
    --config large --jobs 16
fi

echo "== summary"
"$PY" - "$OUT" "$(( $(date +%s) - T0 ))" <<'PYEOF' | tee "$OUT/summary.md"
import json, os, sys, statistics
out, total = sys.argv[1], sys.argv[2]
def load(name):
    rows = []
    p = os.path.join(out, name + ".jsonl")
    if os.path.exists(p):
        for line in open(p):
            try: rows.append(json.loads(line))
            except ValueError: pass
    return rows
ok = True
def prof(r): return r.get("profile") or {}
def status(r): return prof(r).get("status")
statuses = {}
for name in ("pairs", "occupancy", "dram"):
    for r in load(name):
        statuses.setdefault(name, {}).setdefault(r.get("status"), 0)
        statuses[name][r.get("status")] += 1
print("### Measured structure (CUPTI range profiler), H200\n")
print("kernel verdicts per step (pass = the plan ran cleanly; outputs not compared):", statuses)
notes = set(prof(r).get("note", "") for n in ("pairs", "dram") for r in load(n) if status(r) not in ("ok", None))
if notes:
    print("profiler notes:", "; ".join(sorted(notes))[:800])
# (a) pairs
rows = load("pairs")
by = {r["kernel"]: r for r in rows}
pairs = [(by[r["parent"]], r) for r in rows if r.get("defect") == "uncoalesced" and r.get("parent") in by]
m_ok = m_n = s_ok = s_n = 0; fam = {}; bad = []
for ref, var in pairs:
    if status(ref) == "ok" and status(var) == "ok":
        a, b = prof(ref)["derived"]["coalescing"], prof(var)["derived"]["coalescing"]
        if a is not None and b is not None:
            m_n += 1; good = a > b; m_ok += good
            f = fam.setdefault(ref["family"], [0, 0]); f[0] += good; f[1] += 1
            if not good: bad.append("%s (%.3f vs %.3f)" % (ref["program"], a, b))
    sa, sb = (ref.get("static") or {}).get("coalescing"), (var.get("static") or {}).get("coalescing")
    if sa is not None and sb is not None:
        s_n += 1; s_ok += sa > sb
pct = lambda a, b: 100.0 * a / b if b else float("nan")
print("\n(a) coalescing order, reference > uncoalesced variant, large config:")
print("  measured: %d of %d pairs (%.1f%%), target >= 95%% over >= 100 pairs" % (m_ok, m_n, pct(m_ok, m_n)))
print("  static:   %d of %d pairs (%.1f%%)" % (s_ok, s_n, pct(s_ok, s_n)))
print("  families: %d; not ordered: %s" % (len(fam), ", ".join(bad[:12]) or "none"))
ok &= m_n >= 100 and pct(m_ok, m_n) >= 95
# (b) occupancy
rows = load("occupancy"); match = total_l = 0; mism = []; no_api = 0
for r in rows:
    st = (r.get("static") or {}).get("blocks_per_sm"); api = prof(r).get("api_blocks_per_sm")
    if not st or not api:
        no_api += 1; continue
    for i, (s, a) in enumerate(zip(st, api)):
        if a < 0: continue
        total_l += 1
        if s == a: match += 1
        else: mism.append("%s launch %d: static %d, API %d (%s)" % (r["program"], i + 1, s, a, (r["static"].get("limited_by") or ["?"] * (i + 1))[i]))
print("\n(b) occupancy, static vs cuOccupancyMaxActiveBlocksPerMultiprocessor (small config, every reference):")
print("  %d of %d launches match exactly (%.2f%%); %d kernels without both figures" % (match, total_l, pct(match, total_l), no_api))
for m in mism[:15]: print("   ", m)
ok &= total_l > 0 and match == total_l
# (c) DRAM bytes
rows = [r for r in load("dram") if status(r) == "ok"]
within = 0; ratios = []; far = []
for r in rows:
    d = prof(r)["derived"]; ratio = d.get("bytes_ratio")
    if ratio is None: continue
    ratios.append(ratio)
    if abs(ratio - 1) <= 0.10: within += 1
    else: far.append("%s %.3f" % (r["program"], ratio))
print("\n(c) measured DRAM bytes / cost-model bytes, ew_unary + ew_binary + blas1 references, large config:")
if ratios:
    print("  %d of %d within 10%% (median ratio %.3f, min %.3f, max %.3f)" % (within, len(ratios), statistics.median(ratios), min(ratios), max(ratios)))
else:
    print("  no measurement")
for f in far[:12]: print("   ", f)
ok &= bool(ratios) and within == len(ratios)
# (d) cost
allp = [r for n in ("pairs", "dram") for r in load(n) if status(r) == "ok"]
if allp:
    sec = [prof(r)["seconds"] for r in allp]; tot = [r["seconds"] for r in allp]; passes = [prof(r)["passes"] for r in allp]
    print("\n(d) profiled pass per candidate (%d kernels, large config): median %.3f s (p90 %.3f s), %d passes;"
          " whole measurement incl. inputs and static report: median %.3f s" % (len(allp), statistics.median(sec),
          sorted(sec)[int(0.9 * (len(sec) - 1))], statistics.median(passes), statistics.median(tot)))
    un = set(u for r in allp for u in prof(r).get("unavailable", []))
    print("  quantities unavailable on this GPU/CUPTI: %s" % (", ".join(sorted(un)) or "none"))
    occ = [prof(r)["derived"]["occupancy"] for r in allp if prof(r)["derived"].get("occupancy") is not None]
    bar = [prof(r)["quantities"]["barrier_stall"] for r in allp if prof(r)["quantities"].get("barrier_stall") is not None]
    rf = [prof(r)["derived"]["roofline"] for r in allp if prof(r)["derived"].get("roofline") is not None]
    if occ: print("  achieved occupancy median %.3f; barrier stall share median %.4f; roofline fraction median %.3f" % (
        statistics.median(occ), statistics.median(bar) if bar else float("nan"), statistics.median(rf) if rf else float("nan")))
else:
    print("\n(d) no profiled kernel")
for n in ("pairs", "occupancy", "dram"):
    p = os.path.join(out, n + ".seconds")
    if os.path.exists(p): print("  step %s: %s s" % (n, open(p).read().strip()))
print("  script total: %s s" % total)
print("\nresult: %s" % ("all targets met" if ok else "TARGETS NOT MET (see above)"))
sys.exit(0 if ok else 1)
PYEOF
