"""torch_runner.py -- the PyTorch reference runner of CudaPerf.

A long-lived child of the C harness (harness/torch_ref.c): `import torch`
costs about a second, so one process serves many requests.  It speaks the
binary protocol described in docs/TORCH_RUNNER.md on its original stdin and
stdout; everything the programs it runs print goes to stderr (fd 1 is
redirected there before any program is loaded), so no program can corrupt
the protocol.  Requests:

  hello     the runner's versions (protocol, torch, python) and whether CUDA works
  describe  run get_init_inputs()/get_inputs() and one forward: module-level
            integer constants, inputs, outputs and state_dict entries (dtype, shape)
  run       build the model under torch.manual_seed(seed) on the CPU, move it to
            the device, eval(), forward under no_grad on the inputs the harness
            sent; reply with the outputs and every state_dict entry as w.<key>
  time      on a GPU: time torch eager (and torch.compile where it works) under
            the harness's timing protocol

A failing program (syntax error, missing get_inputs, forward that raises,
wrong outputs) gets an error reply of one line and the runner goes on
serving.  Works on torch 1.13 (Debian, CPU) and torch 2.x (CUDA).  No
pickles: headers are JSON, buffers raw little-endian bytes.
"""

import json
import math
import os
import struct
import sys
import time
import traceback
import types
import warnings

PROTOCOL_VERSION = 1
# Run as `python3 -c <text>` by the harness: no __file__ then.
_RUNNER_FILE = globals().get("__file__", "<string>")
MAGIC = b"CPTR"
HEAD = struct.Struct("<4sIII")  # magic, version, header bytes, buffer count
MAX_HEADER = 64 << 20

# Redirect before torch (or any program) can write to fd 1: the protocol keeps
# private duplicates of the original stdin/stdout, and fd 0/1 become
# /dev/null and stderr.
_proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
_proto_out = os.fdopen(os.dup(1), "wb", buffering=0)
os.dup2(2, 1)
_devnull = os.open(os.devnull, os.O_RDONLY)
os.dup2(_devnull, 0)
os.close(_devnull)
sys.stdout = sys.stderr
sys.stdin = open(os.devnull, "r")

import torch  # noqa: E402  (after the redirection on purpose)

# CudaPerf dtype names <-> torch dtypes (common/dtype.h).
_DTYPES = {
    "f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16,
    "i8": torch.int8, "u8": torch.uint8, "i16": torch.int16, "i32": torch.int32,
    "i64": torch.int64, "bool": torch.bool,
}
_NAMES = {v: k for k, v in _DTYPES.items()}
# Types whose bytes reach numpy through a same-sized integer view (numpy
# has no bfloat16; bool goes as u8).
_VIEW_AS = {torch.bfloat16: torch.int16, torch.float16: torch.int16, torch.bool: torch.uint8}


class ProgramError(Exception):
    """The program (not the runner) failed: reported as one line."""


class ProtocolError(Exception):
    """The request is malformed: reported, then the runner exits."""


# ---- framing ----

def _read_exact(n):
    chunks, left = [], n
    while left:
        b = _proto_in.read(left)
        if not b:
            return None
        chunks.append(b)
        left -= len(b)
    return b"".join(chunks)


def read_frame():
    """(header dict, [bytes]) or None at end of input."""
    raw = _read_exact(HEAD.size)
    if raw is None:
        return None
    magic, version, hlen, nbuf = HEAD.unpack(raw)
    if magic != MAGIC:
        raise ProtocolError("bad magic %r" % magic)
    if version != PROTOCOL_VERSION:
        raise ProtocolError("protocol version %d (this runner speaks %d)" % (version, PROTOCOL_VERSION))
    if hlen > MAX_HEADER:
        raise ProtocolError("header of %d bytes" % hlen)
    text = _read_exact(hlen)
    if text is None:
        raise ProtocolError("truncated header")
    header = json.loads(text.decode("utf-8"))
    bufs = []
    for _ in range(nbuf):
        lb = _read_exact(8)
        if lb is None:
            raise ProtocolError("truncated buffer length")
        (n,) = struct.unpack("<Q", lb)
        data = _read_exact(n) if n else b""
        if data is None:
            raise ProtocolError("truncated buffer")
        bufs.append(data)
    return header, bufs


def _json_safe(v):
    """NaN and infinities are not JSON: they travel as null."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: _json_safe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_safe(x) for x in v]
    return v


def write_frame(header, bufs=()):
    text = json.dumps(_json_safe(header), separators=(",", ":"), allow_nan=False).encode("utf-8")
    parts = [HEAD.pack(MAGIC, PROTOCOL_VERSION, len(text), len(bufs)), text]
    for b in bufs:
        parts.append(struct.pack("<Q", len(b)))
        parts.append(b)
    _proto_out.write(b"".join(parts))
    _proto_out.flush()


# ---- tensors <-> bytes ----

def tensor_bytes(t):
    t = t.detach().to("cpu").contiguous().reshape(-1)
    view = _VIEW_AS.get(t.dtype)
    if view is not None:
        t = t.view(view) if t.dtype != torch.bool else t.to(torch.uint8)
    return t.numpy().tobytes()


def tensor_from(data, dtype_name, shape):
    if dtype_name not in _DTYPES:
        raise ProtocolError("unknown dtype '%s'" % dtype_name)
    dt = _DTYPES[dtype_name]
    count = 1
    for d in shape:
        count *= int(d)
    size = torch.empty((), dtype=dt).element_size()
    if len(data) != count * size:
        raise ProtocolError("buffer of %d bytes for %s%s" % (len(data), dtype_name, list(shape)))
    if count == 0:
        return torch.empty([int(d) for d in shape], dtype=dt)
    if dt == torch.bool:
        t = torch.frombuffer(bytearray(data), dtype=torch.uint8).to(torch.bool)
    else:
        t = torch.frombuffer(bytearray(data), dtype=dt)
    return t.reshape([int(d) for d in shape])


def describe_tensor(name, t):
    if t.dtype not in _NAMES:
        raise ProgramError("%s has dtype %s, which CudaPerf has no name for" % (name, t.dtype))
    return {"name": name, "dtype": _NAMES[t.dtype], "shape": list(t.shape)}


# ---- loading a program ----

def load_program(req):
    """A fresh module from the request's source (or its file), with the
    module-level integer constants overridden by req["params"]."""
    path = req.get("program") or "program.py"
    src = req.get("source")
    if src is None:
        try:
            with open(path, "r", encoding="utf-8") as f:
                src = f.read()
        except OSError as ex:
            raise ProgramError("cannot read: %s" % ex.strerror)
    mod = types.ModuleType("cudaperf_program")
    mod.__file__ = path
    try:
        code = compile(src, path, "exec")
    except SyntaxError as ex:
        raise ProgramError("syntax error at line %s: %s" % (ex.lineno, ex.msg))
    try:
        exec(code, mod.__dict__)
    except Exception as ex:
        raise ProgramError("loading failed: %s" % one_line(ex))
    params = req.get("params") or {}
    for name, value in params.items():
        if name not in mod.__dict__:
            raise ProgramError("has no module-level constant '%s'" % name)
        old = mod.__dict__[name]
        if not isinstance(old, int) or isinstance(old, bool):
            raise ProgramError("module-level '%s' is %s, not an integer constant" % (name, type(old).__name__))
        mod.__dict__[name] = int(value)
    for fn in ("get_inputs", "get_init_inputs"):
        if not callable(mod.__dict__.get(fn)):
            raise ProgramError("has no %s()" % fn)
    entry = req.get("entry") or "Model"
    if not isinstance(mod.__dict__.get(entry), type):
        raise ProgramError("has no class %s" % entry)
    return mod, entry


def constants_of(mod):
    out = {}
    for k, v in mod.__dict__.items():
        if k.startswith("_") or isinstance(v, bool) or not isinstance(v, int):
            continue
        out[k] = v
    return out


def build_model(mod, entry, seed, device):
    """Parameters initialised on the CPU under the seed (identical on every
    machine), then moved to the device."""
    torch.manual_seed(int(seed))
    try:
        init = mod.get_init_inputs()
        init = list(init) if isinstance(init, (list, tuple)) else [init]
        model = getattr(mod, entry)(*init)
    except Exception as ex:
        raise ProgramError("building %s failed: %s" % (entry, one_line(ex)))
    if not isinstance(model, torch.nn.Module):
        raise ProgramError("%s is not an nn.Module" % entry)
    return model.to(device).eval()


def outputs_of(result):
    if isinstance(result, torch.Tensor):
        return [result]
    if isinstance(result, (list, tuple)) and all(isinstance(t, torch.Tensor) for t in result):
        return list(result)
    raise ProgramError("forward returned %s, not a tensor or a tuple of tensors" % type(result).__name__)


def forward(model, inputs):
    try:
        with torch.no_grad():
            return outputs_of(model(*inputs))
    except ProgramError:
        raise
    except Exception as ex:
        raise ProgramError("forward raised %s" % one_line(ex))


def state_of(model):
    return [("w." + k, v) for k, v in model.state_dict().items()]


def one_line(ex):
    text = "%s: %s" % (type(ex).__name__, ex)
    text = " ".join(text.split())
    # where in the program it happened: the last frame in the program file
    tb = traceback.extract_tb(ex.__traceback__)
    for fr in reversed(tb):
        if fr.filename != _RUNNER_FILE and "site-packages" not in fr.filename and "dist-packages" not in fr.filename:
            text += " (line %d)" % fr.lineno
            break
    return text[:1500]


def device_of(req):
    dev = req.get("device", "cpu")
    if dev not in ("cpu", "cuda"):
        raise ProtocolError("device '%s' (cpu or cuda)" % dev)
    if dev == "cuda" and not torch.cuda.is_available():
        raise ProgramError("device cuda requested but torch %s sees no GPU" % torch.__version__)
    return dev


def precise(dev):
    """References are computed without TF32 shortcuts."""
    if dev == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False


# ---- requests ----

def cuda_state():
    """(available, why not): torch explains a failed CUDA initialisation only
    in a warning, which the harness should pass on to the user."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ok = bool(torch.cuda.is_available())
    if ok:
        return True, ""
    why = "; ".join(str(w.message).strip() for w in caught)
    return False, (why or "torch.cuda.is_available() is False (torch built %s CUDA)" % (
        "with" if torch.version.cuda else "without"))[:400]


def op_hello(req, bufs):
    cuda, why = cuda_state()
    return {"ok": True, "protocol": PROTOCOL_VERSION, "torch": torch.__version__,
            "python": sys.version.split()[0], "cuda": cuda, "cuda_note": why,
            "compile": hasattr(torch, "compile")}, []


def op_describe(req, bufs):
    mod, entry = load_program(req)
    constants = constants_of(mod)
    seed = int(req.get("seed", 0))
    model = build_model(mod, entry, seed, "cpu")
    torch.manual_seed(seed)
    try:
        inputs = mod.get_inputs()
        inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    except Exception as ex:
        raise ProgramError("get_inputs() raised %s" % one_line(ex))
    try:
        init = mod.get_init_inputs()
        init = list(init) if isinstance(init, (list, tuple)) else [init]
    except Exception as ex:
        raise ProgramError("get_init_inputs() raised %s" % one_line(ex))
    in_desc = []
    for i, t in enumerate(inputs):
        if isinstance(t, torch.Tensor):
            in_desc.append(describe_tensor("input%d" % i, t))
        elif isinstance(t, (bool, int, float)):
            in_desc.append({"name": "input%d" % i, "value": t, "type": type(t).__name__})
        else:
            raise ProgramError("get_inputs()[%d] is %s, not a tensor or a number" % (i, type(t).__name__))
    init_desc = []
    for i, v in enumerate(init):
        if isinstance(v, (bool, int, float)):
            init_desc.append({"value": v, "type": type(v).__name__})
        elif isinstance(v, torch.Tensor):
            init_desc.append(describe_tensor("init%d" % i, v))
        else:
            init_desc.append({"type": type(v).__name__, "value": None})
    outs = forward(model, inputs)
    out_desc = [describe_tensor("out" if len(outs) == 1 else "out%d" % i, t) for i, t in enumerate(outs)]
    state = [describe_tensor(k, v) for k, v in state_of(model)]
    return {"ok": True, "constants": constants, "inputs": in_desc, "init_inputs": init_desc,
            "outputs": out_desc, "state": state}, []


def inputs_from(req, bufs, dev):
    specs = req.get("inputs") or []
    if len(specs) != len(bufs):
        raise ProtocolError("%d input descriptions for %d buffers" % (len(specs), len(bufs)))
    out = []
    for s, b in zip(specs, bufs):
        out.append(tensor_from(b, s["dtype"], s["shape"]).to(dev))
    scalars = req.get("scalars") or []
    for s in scalars:  # non-tensor forward arguments, after the tensors
        out.append(s)
    return out


def op_run(req, bufs):
    dev = device_of(req)
    precise(dev)
    mod, entry = load_program(req)
    model = build_model(mod, entry, req.get("seed", 0), dev)
    inputs = inputs_from(req, bufs, dev)
    outs = forward(model, inputs)
    want = req.get("n_outputs")
    if want is not None and int(want) != len(outs):
        raise ProgramError("forward returned %d outputs, meta.json declares %d" % (len(outs), int(want)))
    if dev == "cuda":
        torch.cuda.synchronize()
    named = [("out" if len(outs) == 1 else "out%d" % i, t) for i, t in enumerate(outs)]
    named += state_of(model)
    descs, data = [], []
    for name, t in named:
        descs.append(describe_tensor(name, t))
        data.append(tensor_bytes(t))
    return {"ok": True, "outputs": descs[:len(outs)], "state": descs[len(outs):]}, data


# ---- timing (GPU only) ----

def _spread(sorted_ms):
    """Half the width of the median's 95% confidence interval (order
    statistics), relative to the median: harness/stats.c's rule."""
    n = len(sorted_ms)
    med = _quantile(sorted_ms, 0.5)
    if n < 3 or med <= 0:
        return float("inf")
    h = 1.96 * math.sqrt(n) / 2.0
    lo = max(0, int(math.floor(n / 2.0 - h)))
    hi = min(n - 1, int(math.ceil(n / 2.0 + h)))
    return (sorted_ms[hi] - sorted_ms[lo]) / (2.0 * med)


def _quantile(s, q):
    pos = q * (len(s) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (pos - lo) * (s[hi] - s[lo])


def _summary(ms):
    s = sorted(ms)
    if not s:
        return {"median_ms": None, "iqr_ms": None, "min_ms": None, "count": 0, "spread": None}
    return {"median_ms": _quantile(s, 0.5), "iqr_ms": _quantile(s, 0.75) - _quantile(s, 0.25),
            "min_ms": s[0], "count": len(s), "spread": _spread(s)}


class _Timer:
    """One callable timed under the protocol: on `stream`, the L2 flushed by
    a memset outside the window, a spin kernel ahead of the start event so
    the host's launch overhead is not inside the events."""

    def __init__(self, fn, stream, flush, sleep_cycles):
        self.fn, self.stream, self.flush, self.sleep_cycles = fn, stream, flush, sleep_cycles
        self.ms = []

    def sample(self):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        with torch.cuda.stream(self.stream):
            self.flush.zero_()
            torch.cuda._sleep(self.sleep_cycles)
            start.record(self.stream)
            self.fn()
            end.record(self.stream)
        end.synchronize()
        self.ms.append(start.elapsed_time(end))


def op_time(req, bufs):
    dev = device_of(req)
    if dev != "cuda":
        raise ProgramError("timing needs device cuda")
    t = req.get("timing") or {}
    flush_mib = max(128, int(t.get("flush_mib", 256)))
    min_samples = max(10, int(t.get("min_samples", 10)))
    max_samples = int(t.get("max_samples", 2000))
    target = float(t.get("target_spread", 0.01))
    budget = float(t.get("budget_s", 0.5))
    min_time = float(t.get("min_time_s", 0.0))
    warm_runs = max(3, int(t.get("warmup_runs", 3)))
    warm_ms = max(10.0, float(t.get("warmup_ms", 10.0)))
    want_compile = bool(req.get("compile", True))

    mod, entry = load_program(req)
    model = build_model(mod, entry, req.get("seed", 0), dev)
    inputs = inputs_from(req, bufs, dev)
    stream = torch.cuda.Stream()
    flush = torch.empty(flush_mib << 20, dtype=torch.uint8, device=dev)
    torch.cuda.synchronize()  # model and inputs were made on the default stream

    def eager():
        with torch.no_grad():
            return model(*inputs)

    plans = [("eager", eager)]
    note = []
    reply = {"ok": True, "torch": torch.__version__, "device": torch.cuda.get_device_name()}
    if want_compile:
        if not hasattr(torch, "compile"):
            reply["compile_error"] = "torch %s has no torch.compile" % torch.__version__
        else:
            try:
                compiled = torch.compile(model)

                def comp():
                    with torch.no_grad():
                        return compiled(*inputs)

                with torch.cuda.stream(stream):
                    ref = outputs_of(eager())
                    got = outputs_of(comp())
                stream.synchronize()
                worst = 0.0
                for a, b in zip(got, ref):
                    if a.shape != b.shape:
                        raise ProgramError("compiled output shape %s differs from eager %s" % (list(a.shape), list(b.shape)))
                    if a.numel():
                        worst = max(worst, float((a.float() - b.float()).abs().max()))
                reply["compile_max_abs_diff"] = worst
                plans.append(("compile", comp))
            except Exception as ex:
                reply["compile_error"] = one_line(ex)

    # warm-up: at least warm_runs executions and warm_ms of GPU time each,
    # also measuring how long the host takes to issue one execution
    issue_s = 0.0
    for name, fn in plans:
        with torch.cuda.stream(stream):
            t0, n = time.perf_counter(), 0
            while True:
                h0 = time.perf_counter()
                fn()
                issue_s = max(issue_s, time.perf_counter() - h0)
                n += 1
                stream.synchronize()
                if n >= warm_runs and (time.perf_counter() - t0) * 1e3 >= warm_ms:
                    break
    # the spin kernel must outlast the host's issue of one execution
    clock_hz = 2.0e9
    sleep_cycles = int((2.0 * issue_s + 50e-6) * clock_hz)
    timers = [_Timer(fn, stream, flush, sleep_cycles) for _, fn in plans]
    t0 = time.perf_counter()
    k = 0
    while True:
        # ABBA order between eager and compiled
        order = timers if k % 2 == 0 else list(reversed(timers))
        for tm in order:
            tm.sample()
        k += 1
        n = len(timers[0].ms)
        el = time.perf_counter() - t0
        if n >= max_samples:
            break
        if n >= min_samples and el >= min_time and all(_spread(sorted(tm.ms)) <= target for tm in timers):
            break
        if n >= min_samples and el >= budget:
            note.append("time budget of %.2f s reached before the median was known to %.1f%%" % (budget, target * 100))
            break
    for (name, _), tm in zip(plans, timers):
        reply[name] = _summary(tm.ms)
    reply["note"] = "; ".join(note)
    return reply, []


OPS = {"hello": op_hello, "describe": op_describe, "run": op_run, "time": op_time}


def main():
    for arg in sys.argv[1:]:
        if arg.startswith("--threads="):
            torch.set_num_threads(max(1, int(arg.split("=", 1)[1])))
    while True:
        try:
            frame = read_frame()
        except ProtocolError as ex:
            write_frame({"ok": False, "error": "protocol: %s" % ex})
            return 2
        if frame is None:
            return 0
        req, bufs = frame
        op = OPS.get(req.get("op"))
        t0 = time.perf_counter()
        try:
            if op is None:
                raise ProtocolError("unknown op '%s'" % req.get("op"))
            reply, data = op(req, bufs)
        except ProgramError as ex:
            reply, data = {"ok": False, "error": str(ex)}, []
        except ProtocolError as ex:
            write_frame({"ok": False, "error": "protocol: %s" % ex})
            return 2
        except Exception as ex:  # the runner's own failure on this program
            reply, data = {"ok": False, "error": one_line(ex)}, []
        except SystemExit as ex:  # a program calling exit() does not end the runner
            reply, data = {"ok": False, "error": "the program called exit(%s)" % ex.code}, []
        reply["seconds"] = time.perf_counter() - t0
        sys.stderr.flush()
        write_frame(reply, data)


if __name__ == "__main__":
    sys.exit(main())
