"""torch_check.py - checks generated PyTorch programs against their meta.json.

usage: python3 generators/torch_check.py [--configs small,edge] [--times FILE] DIR...

Each DIR is a program folder (program.py + meta.json) or a folder searched
for them.  For every program and config it loads program.py, sets the module
constants from the config, builds Model(*get_init_inputs()) in eval mode,
draws get_inputs() and checks:
  - the inputs' count, shapes and dtypes against meta.json's forward inputs,
    their values inside the declared fill ("uniform" [lo, hi), "int" [lo, hi));
  - the state_dict against the "w.<key>" args: same keys, order, shapes, dtypes;
  - forward() under no_grad: outputs' count, shapes and dtypes, finite values,
    the same outputs from a second call (determinism);
  - on "small": outputs change with the inputs (other draws) and a
    multi-element output is not constant (not degenerate).
Prints one line per failure ("path: config: reason"), then a summary with the
total seconds; exits 1 if any program failed, 2 on bad usage.  One process
for all programs: torch is imported once.
"""
import importlib.util
import json
import math
import os
import sys
import time

import torch

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "f64": torch.float64,
          "i64": torch.int64, "i32": torch.int32, "bool": torch.bool}


def eval_expr(expr, env):
    """The project's integer expressions: + - * / % min max, "/" truncating."""
    if isinstance(expr, int):
        return expr
    text = expr.replace("/", "//")
    return int(eval(text, {"__builtins__": {}, "min": min, "max": max}, dict(env)))


def find_programs(roots):
    for root in roots:
        if os.path.isfile(os.path.join(root, "meta.json")):
            yield root
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            if "program.py" in filenames and "meta.json" in filenames:
                yield dirpath


def load_module(path, serial):
    spec = importlib.util.spec_from_file_location("cudaperf_prog_%d" % serial, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def check_config(mod, meta, cfg, small):
    env = {k: v for k, v in cfg.items() if k != "name"}
    for k, v in env.items():
        if not isinstance(getattr(mod, k, None), int):
            return "module constant %s missing or not an integer" % k
        setattr(mod, k, v)
    args = meta["args"]
    fwd = [a for a in args if a["role"] == "in" and not a["name"].startswith("w.")]
    outs = [a for a in args if a["role"] == "out"]
    weights = [a for a in args if a["name"].startswith("w.")]
    torch.manual_seed(1234)
    model = mod.Model(*mod.get_init_inputs())
    model.eval()
    sd = model.state_dict()
    keys = list(sd.keys())
    want = [w["name"][2:] for w in weights]
    if keys != want:
        return "state_dict keys %s, meta.json lists %s" % (keys, want)
    for w in weights:
        t = sd[w["name"][2:]]
        shape = [eval_expr(e, env) for e in w["shape"]]
        if list(t.shape) != shape or t.dtype != DTYPES[w["dtype"]]:
            return "%s: %s %s, meta.json says %s %s" % (w["name"], list(t.shape), t.dtype, shape, w["dtype"])
        if w.get("fill", {}).get("dist") != "model":
            return "%s: fill is not {\"dist\": \"model\"}" % w["name"]
    inputs = mod.get_inputs()
    if len(inputs) != len(fwd):
        return "get_inputs() gives %d tensors, meta.json lists %d forward inputs" % (len(inputs), len(fwd))
    for a, t in zip(fwd, inputs):
        shape = [eval_expr(e, env) for e in a["shape"]]
        if list(t.shape) != shape or t.dtype != DTYPES[a["dtype"]]:
            return "input %s: %s %s, meta.json says %s %s" % (a["name"], list(t.shape), t.dtype, shape, a["dtype"])
        f = a.get("fill", {})
        if f.get("dist") == "uniform" and t.numel():
            lo, hi = f.get("lo", -1.0), f.get("hi", 1.0)
            v = t.float()
            if v.min().item() < lo - 1e-2 * abs(lo) - 1e-3 or v.max().item() > hi + 1e-2 * abs(hi) + 1e-3:
                return "input %s: values [%g, %g] outside fill [%g, %g)" % (a["name"], v.min(), v.max(), lo, hi)
        elif f.get("dist") == "int" and t.numel():
            lo, hi = eval_expr(f["lo"], env), eval_expr(f["hi"], env)
            if t.long().min().item() < lo or t.long().max().item() >= hi:
                return "input %s: values outside fill [%d, %d)" % (a["name"], lo, hi)
    with torch.no_grad():
        res = as_tuple(model(*inputs))
        again = as_tuple(model(*inputs))
    if len(res) != len(outs):
        return "forward() returns %d tensors, meta.json lists %d outputs" % (len(res), len(outs))
    for a, t, u in zip(outs, res, again):
        shape = [eval_expr(e, env) for e in a["shape"]]
        if not isinstance(t, torch.Tensor):
            return "output %s is not a tensor" % a["name"]
        if list(t.shape) != shape or t.dtype != DTYPES[a["dtype"]]:
            return "output %s: %s %s, meta.json says %s %s" % (a["name"], list(t.shape), t.dtype, shape, a["dtype"])
        if t.is_floating_point() and not torch.isfinite(t).all():
            return "output %s has non-finite values" % a["name"]
        if not torch.equal(t, u):
            return "output %s differs between two calls (not deterministic)" % a["name"]
    if small:
        changed = False
        for seed in (99, 12345):
            torch.manual_seed(seed)
            other = mod.get_inputs()
            with torch.no_grad():
                res2 = as_tuple(model(*other))
            changed |= any(not torch.equal(x, y) for x, y in zip(res, res2))
        if not changed:
            return "outputs do not depend on the inputs (degenerate)"
        multi = [t for t in res if t.numel() > 1]
        if multi and all(t.min() == t.max() for t in multi):
            return "every multi-element output is constant (degenerate)"
    return None


def main(argv):
    configs = ["small", "edge"]
    times_path = None
    roots = []
    i = 0
    while i < len(argv):
        if argv[i] == "--configs" and i + 1 < len(argv):
            configs = argv[i + 1].split(",")
            i += 2
        elif argv[i] == "--times" and i + 1 < len(argv):
            times_path = argv[i + 1]
            i += 2
        elif argv[i].startswith("-"):
            sys.stderr.write("torch_check: unknown option '%s'\n" % argv[i])
            return 2
        else:
            roots.append(argv[i])
            i += 1
    if not roots:
        sys.stderr.write(__doc__)
        return 2
    torch.set_num_threads(max(1, min(4, os.cpu_count() or 1)))
    n = failed = 0
    slow = []
    t_all = time.perf_counter()
    times = []
    for serial, d in enumerate(find_programs(roots)):
        n += 1
        try:
            with open(os.path.join(d, "meta.json")) as f:
                meta = json.load(f)
            mod = load_module(os.path.join(d, "program.py"), serial)
        except Exception as e:  # a broken file is a failure of this program only
            print("%s: cannot load: %s" % (d, str(e).splitlines()[0] if str(e) else type(e).__name__))
            failed += 1
            continue
        by_name = {c["name"]: c for c in meta["configs"]}
        bad = None
        for name in configs:
            if name not in by_name:
                bad = "%s: no such config" % name
                break
            t0 = time.perf_counter()
            try:
                why = check_config(mod, meta, by_name[name], name == "small")
            except Exception as e:
                why = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
            dt = time.perf_counter() - t0
            if name == "small":
                times.append((dt, d))
                if dt > 0.5:
                    slow.append((dt, d))
            if why:
                bad = "%s: %s" % (name, why)
                break
        if bad:
            failed += 1
            print("%s: %s" % (d, bad))
        sys.stdout.flush()
    total = time.perf_counter() - t_all
    small_total = sum(t for t, _ in times)
    for dt, d in sorted(slow, reverse=True)[:10]:
        print("%s: small: slow on CPU (%.2f s)" % (d, dt))
    if times_path:
        with open(times_path, "w") as f:
            for dt, d in sorted(times, reverse=True):
                f.write("%.4f %s\n" % (dt, d))
    print("torch_check: %d programs, %d failed, configs %s, %.1f s in all (small configs %.1f s), torch %s" %
          (n, failed, ",".join(configs), total, small_total, torch.__version__))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
