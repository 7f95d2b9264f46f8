#!/usr/bin/env python3
"""device_analysis.py -- the analysis steps of tests/bench/device_bench.sh.

  failures RESULTS.json              statuses, and the failing (kernel, config) results
  timed RUN1.json RUN2.json          per-candidate cost, rank agreement of two timed runs
  export CATALOG DIR N               N test-split programs as folders (program + reference pair)
  kernelbench KB.json HARNESS DIR... harness eval vs KernelBench's flow on the same folders
  agreement GPU.json CPU.json         verdicts of both backends on the same (kernel, config) pairs
  ncu CATALOG DIR HARNESS            harness medians against ncu's gpu__time_duration.sum
  ids CATALOG N                      every reference's kernel id and N variants' (spread over
                                     families and kinds), comma-separated
  defects CATALOG RESULTS.json       planted wrong-result defects: caught on at least one config?
                                     and uncoalesced variants' verdicts
  expect-ids CATALOG EXPECT [LANG]   every variant whose knobs say expect EXPECT (fail: the planted
                                     wrong-result defects), optionally of one language (c, torch)
  sample-ids CATALOG N [EXCLUDE_N]   N kernels spread evenly over the catalog (not those of the
                                     sample of EXCLUDE_N)
  split-shared CATALOG IDS SH PLAIN  the ids of file IDS whose kernel declares shared memory, and the rest
  join-results OUT RESULTS.json...   one results file from runs of disjoint kernels
  family-contender-ids CAT FAMS N    the contenders of N programs of each family of FAMS (a,b,...)
  missed-ids CATALOG RESULTS.json    the expect-fail variants that RESULTS.json judged and never
                                     caught (pass on every config they ran)
  subset-programs SRC DST KINDS      copy each program folder of SRC (cudaperf-gen's tree) that has a
                                     variant whose knobs name a defect of KINDS into DST, with only
                                     those variants and the parents they name: a small catalog to time
  speedup CATALOG RESULTS.json       per program of a timed `run --kernels all`: best variant vs the
                                     reference implementation, vs the C program on one core or torch
                                     eager, the H200 roofline fraction; "slower" variants vs reference

Only the standard library (the device machine has no extra packages we rely on).
"""
import json
import math
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import time


def load(path):
    return json.load(open(path))


def spearman(a, b):
    def ranks(x):
        order = sorted(range(len(x)), key=lambda i: x[i])
        r = [0.0] * len(x)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and x[order[j + 1]] == x[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return r
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.mean(ra), statistics.mean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return num / den if den else float("nan")


def failures(path):
    """The references' results (variants are judged by `defects`)."""
    j = load(path)
    res = [r for r in j["results"] if r.get("origin") == "reference"]
    print("summary (every kernel):", json.dumps(j.get("summary")))
    kernels = {}
    for r in res:
        kernels.setdefault(r["kernel"], []).append(r)
    ok = sum(1 for rs in kernels.values() if all(r["status"] in ("pass", "skipped") for r in rs))
    print("references passing every config they ran: %d of %d (%d results)" % (ok, len(kernels), len(res)))
    # which reference each verdict was checked against (golden.h: a config beyond the
    # C reference's budget is checked against the reference CUDA implementation's
    # second execution), large and the rest apart
    by = {}
    for r in res:
        k = ("large" if r["config"] == "large" else "other", r["status"], r.get("reference_kind") or "-")
        by[k] = by.get(k, 0) + 1
    for k in sorted(by):
        print("  %-5s %-15s checked against %-14s %d" % (k[0], k[1], k[2], by[k]))
    bad = [r for r in res if r["status"] not in ("pass", "skipped")]
    fams = {}
    for r in bad:
        fams.setdefault(r["program"].split("/")[1], set()).add(r["program"])
    print("failing programs by family:", json.dumps({k: len(v) for k, v in sorted(fams.items())}))
    for r in bad[:60]:
        print("%s %s %s: %s" % (r["program"], r["config"], r["status"], (r["error"] or "")[:200]))


def timed(p1, p2):
    a, b = load(p1), load(p2)
    for name, j in (("run 1", a), ("run 2", b)):
        ks = {}
        for r in j["results"]:
            if r.get("kernel_ms") is not None:
                ks[r["kernel"]] = r["kernel_ms"]
        print("%s: %d kernels, per-candidate cost median %.1f ms (p10 %.1f, p90 %.1f)" % (
            name, len(ks), statistics.median(ks.values()), sorted(ks.values())[len(ks) // 10],
            sorted(ks.values())[len(ks) * 9 // 10]))
        print("   statuses:", json.dumps(j.get("summary")))
    key = lambda r: (r["kernel"], r["config"])
    tb = {key(r): r for r in b["results"]}
    xs, ys, ratios, spreads, dropped = [], [], [], [], 0
    for r in a["results"]:
        s = tb.get(key(r))
        if not s or r["status"] != "pass" or s["status"] != "pass":
            continue
        if r["time_median_ms"] is None or s["time_median_ms"] is None:
            continue
        xs.append(r["time_median_ms"])
        ys.append(s["time_median_ms"])
        spreads.append(r["time_spread"] or 0)
        dropped += r["samples_dropped"] or 0
        if r.get("cupti_ms"):
            ratios.append(r["cupti_ms"] / r["time_median_ms"])
    print("timed (kernel, config) pairs in both runs: %d; Spearman of the medians: %.4f" % (len(xs), spearman(xs, ys)))
    for cfg in ("small", "edge-prime"):
        px, py = [], []
        for r in a["results"]:
            s = tb.get(key(r))
            if r["config"] == cfg and s and r["status"] == s["status"] == "pass" and r["time_median_ms"] and \
                    s["time_median_ms"]:
                px.append(r["time_median_ms"])
                py.append(s["time_median_ms"])
        if px:
            print("  config %s only: %d kernels, Spearman %.4f, medians %.4f..%.4f ms" % (
                cfg, len(px), spearman(px, py), min(px), max(px)))
    rel = sorted(abs(x - y) / x for x, y in zip(xs, ys) if x > 0)
    if rel:
        print("run-to-run |difference| of medians: median %.2f%%, p90 %.2f%%" % (
            100 * rel[len(rel) // 2], 100 * rel[len(rel) * 9 // 10]))
    if spreads:
        print("median spread (95%% CI half-width of the median): %.2f%%; samples dropped (throttled): %d" % (
            100 * statistics.median(spreads), dropped))
    if ratios:
        print("CUPTI kernel time / event time: median %.3f (p10 %.3f, p90 %.3f) over %d" % (
            statistics.median(ratios), sorted(ratios)[len(ratios) // 10], sorted(ratios)[len(ratios) * 9 // 10],
            len(ratios)))


def export_folder(db, program, kernel_id, out):
    meta, src = db.execute("SELECT meta, source FROM programs WHERE name = ?", (program,)).fetchone()
    ksrc, launch = db.execute("SELECT source, launch FROM kernels WHERE id = ?", (kernel_id,)).fetchone()
    d = os.path.join(out, re.sub(r"[^A-Za-z0-9_.-]", "_", program))
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "meta.json"), "w").write(meta)
    open(os.path.join(d, "program.c"), "w").write(src)
    open(os.path.join(d, "kernel.cu"), "w").write(ksrc)
    open(os.path.join(d, "launch.json"), "w").write(launch)
    return d


def export(catalog, out, n):
    db = sqlite3.connect(catalog)
    rows = db.execute("SELECT p.name, p.meta, k.id, k.launch FROM programs p JOIN kernels k ON k.program_id = p.id"
                      " WHERE p.split = 'test' AND k.origin = 'reference' ORDER BY p.name").fetchall()
    picked, families = 0, set()
    for name, meta, kid, launch in rows:
        m = json.loads(meta)
        fam = name.split("/")[1]
        fills = [a.get("fill", {}).get("dist", "uniform") for a in m["args"] if a["role"] in ("in", "inout")]
        if fam in families or any(f not in ("uniform", "int") for f in fills):
            continue
        if any(a["dtype"] not in ("f32", "f64", "i32", "i64", "u8", "i8", "i16") for a in m["args"]):
            continue
        families.add(fam)
        print(export_folder(db, name, kid, out))
        picked += 1
        if picked == n:
            break


def kernelbench(kb_json, harness, folders):
    kb = {r["program"]: r for r in load(kb_json)}
    print("%-40s %10s %10s %8s %10s %10s" % ("program", "harness s", "KB build s", "KB s", "KB ok", "ratio"))
    ours, theirs = [], []
    for f in folders:
        meta = json.load(open(os.path.join(f, "meta.json")))
        t0 = time.perf_counter()
        p = subprocess.run([harness, "eval", f, "--cache", f + "/hcache", "--json"], capture_output=True, text=True)
        t = time.perf_counter() - t0
        try:
            verdict = json.loads(p.stdout)["status"]
        except Exception:
            verdict = "error"
        r = kb.get(meta["name"], {})
        total = r.get("total_s")
        ours.append(t)
        if total:
            theirs.append(total)
        print("%-40s %10.2f %10s %8s %10s %10s  (harness: %s)" % (
            meta["name"][-40:], t, "%.1f" % r["build_s"] if total else "-", "%.1f" % total if total else "-",
            r.get("correct", r.get("error", "-")), "%.0fx" % (total / t) if total else "-", verdict))
    if ours and theirs:
        print("median per candidate: harness %.2f s (cold worker, cold cache), KernelBench flow %.1f s: %.0fx" % (
            statistics.median(ours), statistics.median(theirs), statistics.median(theirs) / statistics.median(ours)))


NCU_LAUNCHES = 7


def ncu(catalog, out, harness, want=24):
    """Harness medians against ncu's gpu__time_duration.sum on the large
    config of single-launch references (one per family, at least ~20 us:
    >= 100 MB moved by the cost model) whose C reference the CPU affords."""
    db = sqlite3.connect(catalog)
    rows = db.execute("SELECT p.name, p.meta, k.id, k.launch FROM programs p JOIN kernels k ON k.program_id = p.id"
                      " WHERE k.origin = 'reference' ORDER BY p.name").fetchall()
    picked, families = [], set()
    for name, meta, kid, launch in rows:
        fam = name.split("/")[1]
        if fam in families or len(json.loads(launch)["launches"]) != 1:
            continue
        m = json.loads(meta)
        cfg = [c for c in m["configs"] if c["name"] == "large"]
        if not cfg:
            continue
        env = {k: v for k, v in cfg[0].items() if k != "name"}
        env.update({"min": min, "max": max})
        try:
            flops = eval(m["cost"]["flops"], {}, env)
            nbytes = eval(m["cost"]["bytes"], {}, env)
        except Exception:
            continue
        if nbytes < 1e8 or flops > 4e9 or nbytes > 2e9:
            continue
        families.add(fam)
        picked.append((name, kid))
    # every candidate in turn until `want` of them were timed by both: a
    # kernel the harness gives no time for (its large config failed) is
    # replaced by the next family's
    results = []
    for name, kid in picked:
        if len(results) == want:
            break
        d = export_folder(db, name, kid, out)
        p = subprocess.run([harness, "eval", d, "--configs", "large", "--trials", "1", "--cache", out + "/hcache",
                            "--json"], capture_output=True, text=True)
        try:
            c = json.loads(p.stdout)["configs"][0]
            h, cu = c["median_ms"], c.get("cupti_ms")
        except Exception:
            print("%s: harness gave no time (%s)" % (name, (p.stderr or p.stdout)[-300:]))
            continue
        entry = json.loads(db.execute("SELECT launch FROM kernels WHERE id = ?", (kid,)).fetchone()[0])
        entry = entry["launches"][0]["kernel"]
        # a median against a median: ncu profiles every launch of the kernel in
        # three correctness trials (the first one runs on a GPU whose clock
        # has not ramped up yet, under --clock-control none) and the median
        # of its durations is compared
        cmd = ["ncu", "--clock-control", "none", "--metrics", "gpu__time_duration.sum", "-k", "regex:^%s$" % entry,
               "-c", str(NCU_LAUNCHES), "--csv", harness, "eval", d, "--configs", "large", "--trials", "3",
               "--timing-runs", "0", "--cache", out + "/hcache"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        durations = []
        for line in p.stdout.splitlines():
            if "gpu__time_duration.sum" in line:
                cells = [x.strip('"') for x in line.split('","')]
                unit, val = cells[-2], cells[-1].replace(",", "")
                try:
                    durations.append(float(val) * {"nsecond": 1, "usecond": 1e3, "msecond": 1e6,
                                                   "second": 1e9}.get(unit, 1))
                except ValueError:
                    pass
        ns = statistics.median(durations) if durations else None
        if durations:
            print("  ncu: %d launches, first %.6f ms, median %.6f ms" % (len(durations), durations[0] / 1e6, ns / 1e6))
        if ns is None or not h:
            print("%s: ncu gave no time (%s)" % (name, (p.stderr or p.stdout)[-300:]))
            continue
        results.append((name, float(h), ns / 1e6, float(cu) if cu not in (None, "") else None))
        print("  %s: harness %r ms, ncu %.6f ms, CUPTI %r ms" % (name, h, ns / 1e6, cu), flush=True)
    print("%-44s %12s %12s %12s %8s" % ("program (config large)", "harness ms", "ncu ms", "CUPTI ms", "diff"))
    diffs = []
    for prog, h, n, c in results:
        diffs.append(abs(h - n) / n)
        print("%-44s %12.5f %12.5f %12s %7.2f%%" % (prog[-44:], h, n, "%.5f" % c if c else "-", 100 * (h - n) / n))
    if diffs:
        print("%d kernels: median |harness - ncu| / ncu = %.2f%%, max %.2f%%, within 2%%: %d" % (
            len(diffs), 100 * statistics.median(diffs), 100 * max(diffs), sum(d <= 0.02 for d in diffs)))


def verdict_class(status):
    return {"pass": "pass", "wrong_result": "wrong", "runtime_error": "crash", "timeout": "crash"}.get(status, status)


def agreement(gpu_json, cpu_json):
    """Verdicts of the same (kernel, config) pairs on the GPU and on the CPU
    backend: pass / wrong result / crash (runtime error or timeout)."""
    g, c = load(gpu_json), load(cpu_json)
    key = lambda r: (r["kernel"], r["config"])
    cpu = {key(r): r for r in c["results"] if r["status"] != "skipped"}
    same, diff = 0, []
    for r in g["results"]:
        o = cpu.get(key(r))
        if r["status"] == "skipped" or not o:
            continue
        if verdict_class(r["status"]) == verdict_class(o["status"]):
            same += 1
        else:
            diff.append((r, o))
    n = same + len(diff)
    print("(kernel, config) pairs judged by both backends: %d; same verdict: %d (%.2f%%)" % (
        n, same, 100.0 * same / n if n else 0))
    causes = {}
    for r, o in diff:
        k = "%s: GPU %s, CPU %s" % (r.get("defect") or r.get("origin"), r["status"], o["status"])
        causes[k] = causes.get(k, 0) + 1
    for k, v in sorted(causes.items(), key=lambda kv: -kv[1]):
        print("  %4d  %s" % (v, k))
    for r, o in diff[:40]:
        print("  %s kernel %s (%s) %s: GPU %s [%s] / CPU %s [%s]" % (
            r["program"], r["kernel"], r.get("defect") or r.get("origin"), r["config"], r["status"],
            (r.get("error") or "")[:80], o["status"], (o.get("error") or "")[:80]))


def ids(catalog, n):
    """Every reference kernel and n variants dealt round-robin over
    (family, variant kind), so each family and each kind is represented."""
    print(",".join(str(x) for x in verify_ids(catalog, n)))


RACE_DEFECTS = ("missing-syncthreads", "non-atomic-accumulation")


def race_ids(catalog, n, others):
    """The race variants among verify's selection of n variants, and
    `others` more of that selection (references and variants, evenly spread):
    what --racecheck is judged on, and where it must not cry race."""
    db = sqlite3.connect(catalog)
    defect = {kid: json.loads(k or "{}").get("defect") for kid, k in db.execute("SELECT id, knobs FROM kernels")}
    picked = verify_ids(catalog, n)
    races = [k for k in picked if defect.get(k) in RACE_DEFECTS]
    rest = [k for k in picked if defect.get(k) not in RACE_DEFECTS]
    step = max(1.0, len(rest) / others) if others else 0
    extra = [rest[int(i * step)] for i in range(min(others, len(rest)))] if others else []
    print(",".join(str(x) for x in sorted(races + extra)))


def even_sample(rows, n):
    step = max(1.0, len(rows) / n)
    return [rows[int(i * step)] for i in range(min(n, len(rows)))]


def sample_ids(catalog, n, exclude_n=0):
    """n kernels (references and variants alike) spread evenly over the whole
    catalog in program order: a sample with the catalog's own mix of kinds.
    With exclude_n, drawn from the kernels that the sample of exclude_n
    leaves out (a second sample disjoint from a first one)."""
    db = sqlite3.connect(catalog)
    rows = [r[0] for r in db.execute("SELECT k.id FROM kernels k JOIN programs p ON p.id = k.program_id"
                                     " ORDER BY p.name, k.id")]
    if exclude_n:
        first = set(even_sample(rows, exclude_n))
        rows = [r for r in rows if r not in first]
    print(",".join(str(x) for x in even_sample(rows, n)))


def split_shared(catalog, ids_path, shared_out, plain_out):
    """Splits a kernel id list by whether the kernel's source declares shared
    memory: racecheck can report hazards on shared memory only, so a kernel
    without any gets nothing from it but a slower run."""
    db = sqlite3.connect(catalog)
    src = dict(db.execute("SELECT id, source FROM kernels"))
    ids = [int(x) for x in open(ids_path).read().strip().split(",") if x]
    shared = [i for i in ids if "__shared__" in (src.get(i) or "")]
    plain = [i for i in ids if "__shared__" not in (src.get(i) or "")]
    open(shared_out, "w").write(",".join(map(str, shared)))
    open(plain_out, "w").write(",".join(map(str, plain)))
    print("kernels with shared memory: %d, without: %d" % (len(shared), len(plain)))


def join_results(out, *paths):
    """One results file from several runs' (of disjoint kernels)."""
    rows = []
    for p in paths:
        rows += load(p)["results"]
    json.dump({"results": rows}, open(out, "w"))


def verify_ids(catalog, n):
    db = sqlite3.connect(catalog)
    rows = db.execute("SELECT k.id, k.origin, p.name, k.knobs FROM kernels k JOIN programs p ON p.id = k.program_id"
                      " ORDER BY p.name, k.id").fetchall()
    refs = [r[0] for r in rows if r[1] == "reference"]
    buckets = {}
    for kid, origin, name, knobs in rows:
        if origin != "variant":
            continue
        kind = (json.loads(knobs or "{}").get("derived") or "?")
        buckets.setdefault((name.split("/")[1], str(kind)), []).append(kid)
    rng = random.Random(20261203)
    for k in sorted(buckets):
        rng.shuffle(buckets[k])
    picked, keys, depth = [], sorted(buckets), 0
    while len(picked) < n and any(len(buckets[k]) > depth for k in keys):
        for k in keys:
            b = buckets[k]
            if depth < len(b) and len(picked) < n:
                picked.append(b[depth])
        depth += 1
    return refs + sorted(set(picked))


def expect_ids(catalog, expect, lang=None):
    """Every variant whose knobs expect `expect`, in program order."""
    db = sqlite3.connect(catalog)
    rows = db.execute("SELECT k.id, k.knobs, p.name FROM kernels k JOIN programs p ON p.id = k.program_id"
                      " WHERE k.origin = 'variant' ORDER BY p.name, k.id").fetchall()
    picked = [kid for kid, knobs, name in rows if json.loads(knobs or "{}").get("expect") == expect
              and (lang is None or name.startswith(lang + "/"))]
    print(",".join(str(x) for x in picked))


# The harness's default budget of a C reference per config (harness/golden.h).
GOLDEN_BUDGET_FLOPS, GOLDEN_BUDGET_BYTES = 4e9, 2.0 * 1024 ** 3


def beyond_budget(meta):
    """Whether some config of the program costs its C reference more than
    the default budget (cost.ref_flops / ref_bytes where meta.json gives
    them, else cost.flops / bytes), so that config is checked against golden
    outputs.  A model Python cannot evaluate counts as beyond: the selection
    errs on running a program again."""
    cost = meta.get("cost", {})
    fl, by = cost.get("ref_flops", cost.get("flops")), cost.get("ref_bytes", cost.get("bytes"))
    for cfg in meta.get("configs", []):
        env = {k: v for k, v in cfg.items() if k != "name"}
        env.update({"min": min, "max": max})
        try:
            if float(eval(fl, {}, env)) > GOLDEN_BUDGET_FLOPS or float(eval(by, {}, env)) > GOLDEN_BUDGET_BYTES:
                return True
        except Exception:
            return True
    return False


def reference_ids(catalog, lang, first_family="", also="", beyond_before="", beyond_skip=""):
    """The reference kernels of LANG's programs, in program order, from the
    family FIRST_FAMILY on (name order), and those of the families ALSO
    names (comma-separated): the rest of a census that an earlier device
    session left unfinished, and families whose configs changed since.
    With BEYOND_BEFORE, also the programs of the families before it (name
    order; none of BEYOND_SKIP) that have a config beyond the C reference's
    budget: a census of an older harness skipped those configs."""
    db = sqlite3.connect(catalog)
    rows = db.execute("SELECT k.id, p.name, p.meta FROM kernels k JOIN programs p ON p.id = k.program_id"
                      " WHERE k.origin = 'reference' AND p.name LIKE ? ORDER BY p.name, k.id",
                      (lang + "/%",)).fetchall()
    extra = set(f for f in also.split(",") if f)
    skip = set(f for f in beyond_skip.split(",") if f)

    def wanted(name, meta):
        fam = name.split("/")[1]
        if fam >= first_family or fam in extra:
            return True
        return fam < beyond_before and fam not in skip and beyond_budget(json.loads(meta))
    print(",".join(str(kid) for kid, name, meta in rows if wanted(name, meta)))


def missed_ids(catalog, results):
    """The expect-fail variants RESULTS.json judged without a non-pass verdict."""
    db = sqlite3.connect(catalog)
    expect = {kid: json.loads(k or "{}").get("expect") for kid, k in db.execute("SELECT id, knobs FROM kernels")}
    seen, caught = set(), set()
    for r in load(results)["results"]:
        if r["status"] == "skipped":
            continue
        seen.add(r["kernel"])
        if r["status"] != "pass":
            caught.add(r["kernel"])
    print(",".join(str(k) for k in sorted(seen - caught) if expect.get(k) == "fail"))


def defects(catalog, *results):
    """Each planted defect whose knobs expect a wrong result ("fail") must be
    caught (any non-pass verdict) on at least one config; race defects are
    reported separately (a race may not show); "slower" variants must pass.
    Several result files (runs of the same catalog's kernels on other
    configs) count together."""
    db = sqlite3.connect(catalog)
    knobs = {kid: json.loads(k or "{}") for kid, k in db.execute("SELECT id, knobs FROM kernels")}
    by_kernel = {}
    for path in results:
        for r in load(path)["results"]:
            if r["status"] != "skipped":
                by_kernel.setdefault(r["kernel"], []).append(r)
    table = {}
    missed = []
    for kid, rs in by_kernel.items():
        kn = knobs.get(kid, {})
        expect = kn.get("expect") or ("pass" if rs[0]["origin"] == "reference" else "?")
        what = kn.get("defect") or kn.get("derived") or rs[0]["origin"]
        caught = any(r["status"] != "pass" for r in rs)
        t = table.setdefault((expect, what), [0, 0])
        t[0] += 1
        t[1] += caught
        if expect == "fail" and not caught:
            missed.append((rs[0]["program"], kid, what))
    print("%-8s %-34s %8s %12s" % ("expect", "variant kind", "kernels", "non-pass"))
    for (expect, what), (n, c) in sorted(table.items()):
        print("%-8s %-34s %8d %12d" % (expect, what[:34], n, c))
    fail = [(e, w) for (e, w) in table if e == "fail"]
    nf = sum(table[k][0] for k in fail)
    nc = sum(table[k][1] for k in fail)
    print("wrong-result defects caught on at least one config: %d of %d" % (nc, nf))
    for m in missed[:60]:
        print("  missed: %s kernel %s (%s)" % m)


# The H200 roofline the CUDA-side issue names: measured copy bandwidth and FP32 peak.
ROOF_BYTES_PER_S = 4.3e12
ROOF_FLOPS_PER_S = 67e12


def cost_at(meta, config):
    """(flops, bytes) of the program's cost model on the named config, or None."""
    cfg = [c for c in meta.get("configs", []) if c.get("name") == config]
    if not cfg:
        return None
    env = {k: v for k, v in cfg[0].items() if k != "name"}
    env.update({"min": min, "max": max})
    try:
        return float(eval(meta["cost"]["flops"], {}, env)), float(eval(meta["cost"]["bytes"], {}, env))
    except Exception:
        return None


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def speedup_rows(catalog, results):
    """Per program of a speedup run: the best variant against the reference
    CUDA implementation on the timed config (a variant counts only if it
    passed every config it ran), against the C program on one CPU core
    (reference_cpu_ms) or torch eager (baseline_ms), and the best kernel's
    fraction of the H200 roofline; plus one row per timed "slower" variant.
    Rows name programs, not catalog ids, so rows of runs on different
    machines (shards of one sample) combine."""
    db = sqlite3.connect(catalog)
    meta = {n: json.loads(m) for n, m in db.execute("SELECT name, meta FROM programs")}
    knobs = {kid: json.loads(k or "{}") for kid, k in db.execute("SELECT id, knobs FROM kernels")}
    # whether ptxas spilled in a kernel's launched code (its stored structural
    # report: the same for every run), so "register-spills" variants that do
    # not spill are told apart from those that do
    spilled = {}
    for kid, text in db.execute("SELECT kernel_id, structure FROM results WHERE structure IS NOT NULL"):
        if kid in spilled:
            continue
        try:
            ks = json.loads(text).get("kernels", [])
        except ValueError:
            continue
        spilled[kid] = any((k.get("compiled") or {}).get("spill_stores", 0) > 0 for k in ks if k.get("launched", True))
    rows = [r for r in load(results)["results"] if r["status"] != "skipped"]
    by_prog = {}
    for r in rows:
        by_prog.setdefault(r["program"], {}).setdefault(r["kernel"], []).append(r)
    out, slower = [], []
    for prog, kernels in sorted(by_prog.items()):
        ref = [rs for rs in kernels.values() if rs[0]["origin"] == "reference"]
        if not ref:
            continue
        timed = [r for r in ref[0] if r.get("time_median_ms")]
        if not timed or any(r["status"] != "pass" for r in ref[0]):
            continue
        t = timed[0]
        config, ref_ms = t["config"], t["time_median_ms"]
        best_ms, best_kind = None, None
        # each variant that passes every config, with its time on the timed config
        variant_ms = {}
        for kid, rs in kernels.items():
            tr = [r for r in rs if r["config"] == config and r.get("time_median_ms")]
            if rs[0]["origin"] == "variant" and tr and all(r["status"] == "pass" for r in rs):
                variant_ms[kid] = tr[0]["time_median_ms"]
        named_ms = {knobs.get(kid, {}).get("derived"): ms for kid, ms in variant_ms.items()}
        for kid, ms in variant_ms.items():
            kn = knobs.get(kid, {})
            if kn.get("expect") == "slower":
                parent_ms = named_ms.get(kn.get("parent"))
                slower.append(dict(program=prog, defect=kn.get("defect") or "?", ratio=ms / ref_ms,
                                   spills=spilled.get(kid), parent=kn.get("parent"),
                                   vs_parent=ms / parent_ms if parent_ms else None))
            if best_ms is None or ms < best_ms:
                best_ms, best_kind = ms, kn.get("derived") or kn.get("defect") or "?"
        if best_ms is None:
            continue
        torch = prog.startswith("torch/")
        host_ms = t.get("baseline_ms") if torch else t.get("reference_cpu_ms")
        c = cost_at(meta.get(prog, {}), config)
        top = min(best_ms, ref_ms)
        roof = max(c[1] / ROOF_BYTES_PER_S, c[0] / ROOF_FLOPS_PER_S) * 1e3 / top if c else None
        out.append(dict(program=prog, family=prog.split("/")[1], config=config, ref_ms=ref_ms, best_ms=best_ms,
                        best=best_kind, vs_ref=ref_ms / best_ms, vs_host=(host_ms / top) if host_ms else None,
                        host="torch eager" if torch else "C, one core", roofline=roof))
    return out, slower


def speedup_report(out, slower):
    print("programs with a timed reference and at least one passing timed variant: %d (%d families)" % (
        len(out), len(set(o["family"] for o in out))))
    def summary(label, xs):
        xs = [x for x in xs if x is not None]
        if xs:
            xs.sort()
            print("  %-44s n=%4d  median %8.3f  geomean %8.3f  p10 %8.3f  p90 %8.3f" % (
                label, len(xs), statistics.median(xs), geomean(xs), xs[len(xs) // 10], xs[(9 * len(xs)) // 10]))
    summary("best variant / reference implementation", [o["vs_ref"] for o in out])
    print("    best variant faster than the reference: %d of %d" % (sum(o["vs_ref"] > 1 for o in out), len(out)))
    summary("best kernel vs the C program on one core", [o["vs_host"] for o in out if o["host"] != "torch eager"])
    summary("best kernel vs torch eager", [o["vs_host"] for o in out if o["host"] == "torch eager"])
    summary("best kernel's fraction of the H200 roofline", [o["roofline"] for o in out])
    kinds = {}
    for o in out:
        kinds[o["best"]] = kinds.get(o["best"], 0) + 1
    print("  fastest variant kind:", ", ".join("%s %d" % kv for kv in sorted(kinds.items(), key=lambda kv: -kv[1])))
    fam = {}
    for o in out:
        fam.setdefault(o["family"], []).append(o)
    print("\n%-34s %4s %10s %10s %10s" % ("family", "n", "vs ref", "vs host", "roofline"))
    for f, os_ in sorted(fam.items()):
        g = lambda k: geomean([o[k] for o in os_ if o[k] is not None])
        print("%-34s %4d %10.3f %10.3f %10.3f" % (f, len(os_), g("vs_ref"), g("vs_host"), g("roofline")))
    print("\n\"slower\" variants (passing every config) against the reference on the timed config:")
    def by_group(value, label):
        groups = {}
        for v in slower:
            if v.get(value) is None:
                continue
            d = label(v)
            if v["defect"] == "register-spills" and v.get("spills") is not None:
                d += " (ptxas spills)" if v["spills"] else " (no spill)"
            groups.setdefault(d, []).append(v[value])
        for d, ratios in sorted(groups.items()):
            print("  %-32s %4d timed, %4d more than 5%% slower; time ratio median %.3f" % (
                d, len(ratios), sum(r > 1.05 for r in ratios), statistics.median(ratios)))
    by_group("ratio", lambda v: v["defect"])
    # the same against the kernel each was planted in, where it names one
    by_group("vs_parent", lambda v: "%s vs %s" % (v["defect"], v["parent"]))

def speedup(catalog, results, rows_out=None):
    """The speedup figures of one run; with rows_out, its rows saved as JSON
    for speedup_combine."""
    out, slower = speedup_rows(catalog, results)
    if rows_out:
        with open(rows_out, "w") as f:
            json.dump({"programs": out, "slower": slower}, f)
    speedup_report(out, slower)


def speedup_combine(*paths):
    """The speedup figures over the rows of several runs (shards of one
    sample, each from its own machine); a program in two files counts once."""
    out, slower, seen = [], [], set()
    for p in paths:
        d = json.load(open(p))
        fresh = [o for o in d["programs"] if o["program"] not in seen]
        names = set(o["program"] for o in fresh)
        out += fresh
        slower += [v for v in d["slower"] if v["program"] in names]
        seen |= names
    speedup_report(out, slower)


def contender_ids(catalog, want, shard, after=""):
    """The kernel ids that `harness run --kernels contenders --sample-programs
    WANT --shard I/N` selects (run.c's select_kernels, restated), less the
    programs whose names sort before AFTER: the tail of a shard that a run
    cut short, for a fresh machine to finish."""
    db = sqlite3.connect(catalog)
    rows = db.execute("SELECT k.id, k.program_id, p.name FROM kernels k JOIN programs p ON p.id = k.program_id"
                      " WHERE k.origin = 'reference' OR (k.origin = 'variant' AND"
                      " coalesce(json_extract(k.knobs, '$.expect'), 'pass') IN ('pass', 'slower'))"
                      " ORDER BY p.name, k.origin <> 'reference', k.id").fetchall()
    programs = []
    for _, pid, _ in rows:
        if not programs or programs[-1] != pid:
            programs.append(pid)
    want, total = int(want), len(programs)
    kept = set(programs) if total <= want else {programs[k * total // want] for k in range(want)}
    sample = [pid for pid in programs if pid in kept]
    index, count = (int(x) for x in shard.split("/"))
    mine = set(sample[index::count])
    print(",".join(str(kid) for kid, pid, name in rows if pid in mine and name >= after))


def family_contender_ids(catalog, families, per_family):
    """The contenders (reference and variants not planted to fail) of
    per_family programs of each named family (comma-separated), spread evenly
    over the family in name order."""
    db = sqlite3.connect(catalog)
    picked = []
    for fam in families.split(","):
        progs = [r[0] for r in db.execute("SELECT id FROM programs WHERE name LIKE ? ORDER BY name", ("%/" + fam + "/%",))]
        for pid in even_sample(progs, int(per_family)):
            picked += [r[0] for r in db.execute(
                "SELECT id FROM kernels WHERE program_id = ? AND (origin = 'reference' OR (origin = 'variant' AND"
                " coalesce(json_extract(knobs, '$.expect'), 'pass') IN ('pass', 'slower'))) ORDER BY id", (pid,))]
    print(",".join(map(str, picked)))


def kind_ids(catalog, kinds, want, lang=""):
    """The reference and the variants whose knobs name a defect of KINDS
    (comma-separated, e.g. register-spills,uncoalesced) of WANT programs that
    have such a variant, spread evenly over them in name order (every family
    in turn); LANG (c or torch) narrows the programs."""
    db = sqlite3.connect(catalog)
    kinds = kinds.split(",")
    marks = ",".join("?" * len(kinds))
    progs = [r[0] for r in db.execute(
        "SELECT DISTINCT p.id FROM kernels k JOIN programs p ON p.id = k.program_id WHERE k.origin = 'variant'"
        " AND json_extract(k.knobs, '$.defect') IN (%s) AND p.name LIKE ? ORDER BY p.name" % marks,
        kinds + [(lang + "/%") if lang else "%"])]
    by_family = {}
    for pid, name in db.execute("SELECT id, name FROM programs"):
        by_family.setdefault(name.split("/")[1], []).append(pid)
    chosen = set(progs)
    # every family in turn, then evenly within each
    fams = sorted(f for f, ps in by_family.items() if chosen & set(ps))
    per = {f: [p for p in progs if p in set(by_family[f])] for f in fams}
    picked, i = [], 0
    while len(picked) < min(int(want), len(progs)):
        for f in fams:
            if i < len(per[f]) and len(picked) < int(want):
                picked.append(per[f][i])
        i += 1
    ids = []
    for pid in sorted(picked):
        # with the variants their parents: a planted defect is measured
        # against the kernel it was planted in (knobs.json "parent")
        ids += [r[0] for r in db.execute(
            "WITH picked AS (SELECT id, parent_id FROM kernels WHERE program_id = ? AND (origin = 'reference' OR"
            " (origin = 'variant' AND json_extract(knobs, '$.defect') IN (%s))))"
            " SELECT id FROM picked UNION SELECT parent_id FROM picked WHERE parent_id IS NOT NULL ORDER BY 1"
            % marks, [pid] + kinds)]
    print(",".join(map(str, ids)))


def subset_programs(src, dst, kinds):
    """The program folders of SRC with a variant planted with a defect of KINDS
    (comma-separated), copied to DST with the reference pair, those variants and
    the parents their knobs.json name (in turn, so a parent's parent comes too);
    the other variants are left out.  Timing a few hundred kernels then needs a
    catalog of those alone, not of every variant of their families."""
    import shutil
    kinds = set(kinds.split(","))
    copied = 0
    for root, dirs, files in os.walk(src):
        dirs.sort()
        if "meta.json" not in files:
            continue
        dirs[:] = []  # a program folder: its variants are read below
        vdir = os.path.join(root, "variants")
        knobs = {}
        for name in sorted(os.listdir(vdir)) if os.path.isdir(vdir) else []:
            path = os.path.join(vdir, name, "knobs.json")
            if os.path.isfile(path):
                knobs[name] = load(path)
        keep = [n for n, k in knobs.items() if k.get("defect") in kinds]
        if not keep:
            continue
        i = 0
        while i < len(keep):
            parent = knobs[keep[i]].get("parent")
            if parent and parent not in keep:
                if parent not in knobs:
                    sys.exit("%s/%s/knobs.json: parent '%s' names no variant" % (vdir, keep[i], parent))
                keep.append(parent)
            i += 1
        out = os.path.join(dst, os.path.relpath(root, src))
        os.makedirs(os.path.join(out, "variants"), exist_ok=True)
        for f in files:
            shutil.copy2(os.path.join(root, f), out)
        for name in keep:
            shutil.copytree(os.path.join(vdir, name), os.path.join(out, "variants", name), dirs_exist_ok=True)
        copied += 1
    print("subset-programs: %d programs with a variant of %s copied to %s" % (copied, ",".join(sorted(kinds)), dst))


def cost(*logs):
    """Where evaluation time went: the "cost: <process> <phase> <ms>" lines
    that CUDAPERF_TRACE_COST=1 makes the harness print (harness/cost_trace.h),
    summed by (process, phase), largest first, with counts and medians."""
    by = {}
    for path in logs:
        for line in open(path, errors="replace"):
            f = line.split()
            if len(f) == 4 and f[0] == "cost:":
                try:
                    by.setdefault((f[1], f[2]), []).append(float(f[3]))
                except ValueError:
                    pass
    # "<phase>-count" lines carry a count (timing samples), not milliseconds
    counts = {k: sorted(by.pop(k)) for k in [k for k in by if k[1].endswith("-count")]}
    total = sum(sum(v) for v in by.values()) or 1.0
    print("| process | phase | count | total s | share | median ms | p90 ms |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for (proc, phase), v in sorted(by.items(), key=lambda kv: -sum(kv[1])):
        v = sorted(v)
        print("| %s | %s | %d | %.1f | %.1f%% | %.2f | %.2f |" % (proc, phase, len(v), sum(v) / 1e3,
              100 * sum(v) / total, v[len(v) // 2], v[min(len(v) - 1, int(len(v) * 0.9))]))
    for (proc, phase), v in counts.items():
        print("%s %s: %d lines, median %g, p90 %g" % (proc, phase, len(v), v[len(v) // 2],
              v[min(len(v) - 1, int(len(v) * 0.9))]))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "failures":
        failures(*args)
    elif cmd == "timed":
        timed(*args)
    elif cmd == "export":
        export(args[0], args[1], int(args[2]))
    elif cmd == "kernelbench":
        kernelbench(args[0], args[1], args[2:])
    elif cmd == "agreement":
        agreement(*args)
    elif cmd == "ncu":
        ncu(*args)
    elif cmd == "ids":
        ids(args[0], int(args[1]))
    elif cmd == "sample-ids":
        sample_ids(args[0], int(args[1]), int(args[2]) if len(args) > 2 else 0)
    elif cmd == "split-shared":
        split_shared(*args)
    elif cmd == "join-results":
        join_results(*args)
    elif cmd == "race-ids":
        race_ids(args[0], int(args[1]), int(args[2]))
    elif cmd == "expect-ids":
        expect_ids(*args)
    elif cmd == "reference-ids":
        reference_ids(*args)
    elif cmd == "missed-ids":
        missed_ids(*args)
    elif cmd == "defects":
        defects(*args)
    elif cmd == "speedup-combine":
        speedup_combine(*args)
    elif cmd == "speedup":
        speedup(*args)
    elif cmd == "contender-ids":
        contender_ids(*args)
    elif cmd == "family-contender-ids":
        family_contender_ids(*args)
    elif cmd == "kind-ids":
        kind_ids(*args)
    elif cmd == "subset-programs":
        subset_programs(*args)
    elif cmd == "cost":
        cost(*args)
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
