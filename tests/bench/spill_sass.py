#!/usr/bin/env python3
"""spill_sass.py -- where the register-spills variants' local-memory traffic lands.

    spill_sass.py [--jobs N] [--cache DIR] [--json OUT] [--list] TREE

For every `variants/register-spills/kernel.cu` under TREE (the output of
`cudaperf-gen`, C and torch programs) and for its reference `kernel.cu`, the
source is compiled for sm_90 with NVRTC (the harness's options:
`--std=c++17 -I$CUDA/include -I$CUDA/include/cccl --generate-line-info`, plus
`--ptxas-options=-v` for ptxas's spill figures) and the SASS of every kernel
is read straight from the cubin: no GPU, and no disassembler (this toolkit
ships neither nvdisasm nor cuobjdump).  Only three opcodes matter, the low 12
bits of each 128-bit sm_90 instruction word: LDL 0x983, STL 0x387 and BRA
0x947, whose target is the next instruction plus 256 * (signed bits [32, 82))
+ 4 * bits [16, 24) bytes (found by compiling PTX loops of 1 to 300 known
instructions with `ptxas -O0`: one more instruction in the body lowers bits
[16, 24) by 4, with a borrow of 4 from bit 32 on; a BRA to itself, the code's
last, reads -4 and 0xfc).  A backward BRA
closes a loop spanning [target, branch]; an instruction's loop depth is the
number of such spans holding it.  Per variant:

  spills        ptxas reports spill stores in some kernel
  in_loop       some kernel has more LDL/STL inside loops than the reference's
                same-named kernel (local arrays of the reference are not spills)
  in_deepest    ... inside its deepest loops (those at the kernel's greatest
                loop depth, the static stand-in for "the hot loop")

Only the standard library and the CUDA toolkit's libnvrtc are needed.  Results
are cached per source (sha256 of source, options, NVRTC version) in --cache,
so a second run over a tree of mostly unchanged sources takes seconds.
"""
import argparse
import ctypes
import hashlib
import json
import multiprocessing
import os
import re
import struct
import sys

CUDA = os.environ.get("CUDAPERF_CUDA_HOME", "/usr/local/cuda")
OPTS = ["--gpu-architecture=sm_90", "--std=c++17", "-I%s/include" % CUDA, "-I%s/include/cccl" % CUDA,
        "--generate-line-info", "--ptxas-options=-v"]
OP_LDL, OP_STL, OP_BRA = 0x983, 0x387, 0x947
CACHE_VERSION = "2"   # raise when analyse_source's result changes

_nvrtc = None


def nvrtc():
    global _nvrtc
    if _nvrtc is None:
        _nvrtc = ctypes.CDLL(os.path.join(CUDA, "lib64", "libnvrtc.so"))
    return _nvrtc


def nvrtc_version():
    major, minor = ctypes.c_int(), ctypes.c_int()
    nvrtc().nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    return "%d.%d" % (major.value, minor.value)


def compile_cubin(source):
    """(cubin bytes or None, log text)."""
    lib = nvrtc()
    prog = ctypes.c_void_p()
    if lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"kernel.cu", 0, None, None):
        return None, "nvrtcCreateProgram failed"
    opts = (ctypes.c_char_p * len(OPTS))(*[o.encode() for o in OPTS])
    rc = lib.nvrtcCompileProgram(prog, len(OPTS), opts)
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(prog, log)
    cubin = None
    if rc == 0:
        lib.nvrtcGetCUBINSize(prog, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetCUBIN(prog, buf)
        cubin = buf.raw
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
    return cubin, log.value.decode(errors="replace")


def text_sections(cubin):
    """{kernel name: [128-bit instruction words]} from the cubin's .text.* sections."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    secs = [struct.unpack_from("<IIQQQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]
    out = {}
    for name, _type, _flags, _addr, off, size in secs:
        n = cubin[names + name:cubin.index(b"\0", names + name)].decode()
        if n.startswith(".text."):
            out[n[6:]] = [int.from_bytes(cubin[off + i:off + i + 16], "little") for i in range(0, size, 16)]
    return out


def analyse_kernel(words):
    """Loop spans and local accesses of one kernel's SASS."""
    loops = []
    for i, w in enumerate(words):
        if w & 0xFFF != OP_BRA:
            continue
        hi = (w >> 32) & ((1 << 50) - 1)
        if hi >> 49:
            hi -= 1 << 50
        target = i + 1 + (hi * 64 + ((w >> 16) & 0xFF)) // 4
        if not 0 <= target < len(words):
            raise ValueError("BRA at %#x leaves the kernel (target %d of %d)" % (16 * i, target, len(words)))
        if target < i:          # backward (a BRA to itself ends the code: no loop)
            loops.append((target, i))
    depth = [sum(1 for a, b in loops if a <= i <= b) for i in range(len(words))]
    deepest = max(depth) if depth else 0
    local = [i for i, w in enumerate(words) if w & 0xFFF in (OP_LDL, OP_STL)]
    return {
        "instructions": len(words),
        "loops": len(loops),
        "max_depth": deepest,
        "local": len(local),
        "local_in_loop": sum(1 for i in local if depth[i] > 0),
        "local_in_deepest": sum(1 for i in local if deepest > 0 and depth[i] == deepest),
    }


PTXAS_FN = re.compile(r"Function properties for (\S+)\s*\n[^\n]*?(\d+) bytes stack frame, (\d+) bytes spill stores, "
                      r"(\d+) bytes spill loads")


def analyse_source(args):
    path, cache = args
    source = open(path).read()
    key = hashlib.sha256((CACHE_VERSION + "\0" + "\0".join(OPTS) + "\0" + nvrtc_version() + "\0" + source).encode()).hexdigest()
    cached = os.path.join(cache, key + ".json") if cache else None
    if cached and os.path.exists(cached):
        return path, json.load(open(cached))
    cubin, log = compile_cubin(source)
    result = {"ok": cubin is not None, "kernels": {}}
    if cubin:
        for name, words in text_sections(cubin).items():
            result["kernels"][name] = analyse_kernel(words)
        for m in PTXAS_FN.finditer(log):
            k = result["kernels"].get(m.group(1))
            if k is not None:
                k["stack"], k["spill_stores"], k["spill_loads"] = (int(m.group(i)) for i in (2, 3, 4))
    else:
        result["log"] = log[-2000:]
    if cached:
        tmp = cached + ".%d" % os.getpid()
        json.dump(result, open(tmp, "w"))
        os.replace(tmp, cached)
    return path, result


def judge(ref, var):
    """The per-variant verdicts from the reference's and the variant's analyses."""
    spills = any(k.get("spill_stores", 0) > 0 for k in var["kernels"].values())
    in_loop = in_deepest = False
    for name, k in var["kernels"].items():
        r = ref["kernels"].get(name, {})
        in_loop |= k["local_in_loop"] > r.get("local_in_loop", 0)
        in_deepest |= k["local_in_deepest"] > r.get("local_in_deepest", 0)
    return {"spills": spills, "in_loop": in_loop, "in_deepest": in_deepest}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tree")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "cudaperf-spill-sass"))
    ap.add_argument("--json", help="write the per-variant verdicts here")
    ap.add_argument("--list", action="store_true", help="print one line per variant")
    a = ap.parse_args()
    os.makedirs(a.cache, exist_ok=True)
    variants = []
    for root, dirs, files in os.walk(a.tree):
        dirs.sort()
        if root.endswith(os.path.join("variants", "register-spills")) and "kernel.cu" in files:
            variants.append(os.path.dirname(os.path.dirname(root)))
    paths = []
    for prog in variants:
        paths += [os.path.join(prog, "kernel.cu"), os.path.join(prog, "variants", "register-spills", "kernel.cu")]
    with multiprocessing.Pool(a.jobs) as pool:
        res = dict(pool.imap_unordered(analyse_source, [(p, a.cache) for p in paths], chunksize=4))
    rows = []
    for prog in variants:
        ref = res[os.path.join(prog, "kernel.cu")]
        var = res[os.path.join(prog, "variants", "register-spills", "kernel.cu")]
        rel = os.path.relpath(prog, a.tree)
        parts = os.path.abspath(prog).split(os.sep)
        lang = "torch" if "torch" in parts[-3:] else "c"
        if not ref["ok"] or not var["ok"]:
            rows.append({"program": rel, "lang": lang, "compiled": False})
            continue
        rows.append(dict(program=rel, lang=lang, compiled=True, **judge(ref, var)))
    if a.list:
        for r in rows:
            flags = "compile-error" if not r["compiled"] else " ".join(
                k for k in ("spills", "in_loop", "in_deepest") if r[k]) or "-"
            print("%s\t%s" % (r["program"], flags))
    if a.json:
        json.dump(rows, open(a.json, "w"), indent=1)

    def line(lang):
        rs = [r for r in rows if lang is None or r["lang"] == lang]
        c = [r for r in rs if r["compiled"]]
        return "| %s | %d | %d | %d | %d | %d |" % (
            lang or "all", len(rs), len(rs) - len(c), sum(r["spills"] for r in c), sum(r["in_loop"] for r in c),
            sum(r["in_deepest"] for r in c))
    print("| programs | register-spills variants | compile errors | ptxas spills | LDL/STL in a loop "
          "| LDL/STL in the deepest loop |")
    print("| --- | --- | --- | --- | --- | --- |")
    for lang in ("c", "torch", None):
        print(line(lang))


if __name__ == "__main__":
    sys.exit(main())
