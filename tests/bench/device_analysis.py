#!/usr/bin/env python3
"""device_analysis.py -- the analysis steps of tests/bench/device_bench.sh.

  failures RESULTS.json              statuses, and the failing (kernel, config) results
  timed RUN1.json RUN2.json          per-candidate cost, rank agreement of two timed runs
  export CATALOG DIR N               N test-split programs as folders (program + reference pair)
  kernelbench KB.json HARNESS DIR... harness eval vs KernelBench's flow on the same folders
  ncu RUN.json CATALOG DIR HARNESS   harness medians against ncu's gpu__time_duration.sum

Only the standard library (the device machine has no extra packages we rely on).
"""
import json
import os
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
    j = load(path)
    res = j["results"]
    print("summary:", json.dumps(j.get("summary")))
    kernels = {}
    for r in res:
        kernels.setdefault(r["kernel"], []).append(r)
    ok = sum(1 for rs in kernels.values() if all(r["status"] in ("pass", "skipped") for r in rs))
    print("kernels passing every config they ran: %d of %d" % (ok, len(kernels)))
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


def ncu(run_json, catalog, out, harness, want=20):
    db = sqlite3.connect(catalog)
    j = load(run_json)
    cands = []
    for r in j["results"]:
        if r["status"] != "pass" or not r["time_median_ms"] or r["time_median_ms"] < 0.02:
            continue
        launch = json.loads(db.execute("SELECT launch FROM kernels WHERE id = ?", (r["kernel"],)).fetchone()[0])
        if len(launch["launches"]) != 1:
            continue
        cands.append((r, launch["launches"][0]["kernel"]))
    cands.sort(key=lambda c: c[0]["time_median_ms"])
    step = max(1, len(cands) // want)
    rows = []
    for r, entry in cands[::step][:want]:
        d = export_folder(db, r["program"], r["kernel"], out)
        cmd = ["ncu", "--clock-control", "none", "--metrics", "gpu__time_duration.sum", "-k", "regex:^%s$" % entry,
               "-c", "1", "--csv", harness, "eval", d, "--configs", r["config"], "--trials", "1", "--timing-runs", "0",
               "--cache", d + "/hcache"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        ns = None
        for line in p.stdout.splitlines():
            if "gpu__time_duration.sum" in line:
                cells = [c.strip('"') for c in line.split('","')]
                unit, val = cells[-2], cells[-1].replace(",", "")
                try:
                    v = float(val)
                except ValueError:
                    continue
                ns = v * {"nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9}.get(unit, 1)
        if ns is None:
            print("%s %s: ncu gave no time (%s)" % (r["program"], r["config"], (p.stderr or p.stdout)[-300:]))
            continue
        ms = ns / 1e6
        rows.append((r["program"], r["config"], r["time_median_ms"], ms, r.get("cupti_ms")))
    print("%-44s %-11s %12s %12s %12s %8s" % ("program", "config", "harness ms", "ncu ms", "CUPTI ms", "diff"))
    diffs = []
    for prog, cfg, h, n, c in rows:
        diffs.append(abs(h - n) / n)
        print("%-44s %-11s %12.5f %12.5f %12s %7.2f%%" % (prog[-44:], cfg, h, n, "%.5f" % c if c else "-",
                                                          100 * (h - n) / n))
    if diffs:
        print("%d kernels: median |harness - ncu| / ncu = %.2f%%, max %.2f%%, within 2%%: %d" % (
            len(diffs), 100 * statistics.median(diffs), 100 * max(diffs), sum(d <= 0.02 for d in diffs)))


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
    elif cmd == "ncu":
        ncu(*args)
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
