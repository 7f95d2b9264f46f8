# torch_cuda_diag.py — which restriction of the torch runner's sandbox hides the GPU from torch?
# Run on a GPU machine with a CUDA torch: python3 tests/gpu/torch_cuda_diag.py
# Each mode runs torch.cuda.is_available() in a fresh process under one restriction:
# plain, a new network namespace, the harness's seccomp filter (socket() refused), the same
# filter allowing AF_UNIX (what the harness now does for its CUDA runner).
import ctypes, struct, subprocess, sys
mode = sys.argv[1] if len(sys.argv) > 1 else "driver"
if mode == "driver":
    for m in ["plain", "unshare", "seccomp", "seccomp_unix"]:
        p = subprocess.run([sys.executable, __file__, m], capture_output=True, text=True, timeout=120)
        print("%-8s rc %d: %s %s" % (m, p.returncode, p.stdout.strip()[-300:], p.stderr.strip()[-300:]))
    sys.exit(0)
libc = ctypes.CDLL(None, use_errno=True)
if mode == "unshare":
    print("unshare", libc.unshare(0x40000000), ctypes.get_errno(), end="; ")
if mode in ("seccomp", "seccomp_unix"):
    # the harness's filter (sandbox.c): socket() -> EACCES, or allowed for AF_UNIX (x86_64)
    def stmt(code, k): return struct.pack("HBBI", code, 0, 0, k)
    def jump(code, k, jt, jf): return struct.pack("HBBI", code, jt, jf, k)
    fam = 1 if mode == "seccomp_unix" else 0xFFFFFFFF
    f = b"".join([stmt(0x20, 4), jump(0x15, 0xC000003E, 1, 0), stmt(0x06, 0x7FFF0000), stmt(0x20, 0),
                  jump(0x15, 41, 0, 3), stmt(0x20, 16), jump(0x15, fam, 1, 0), stmt(0x06, 0x00050000 | 13),
                  stmt(0x06, 0x7FFF0000)])
    buf = ctypes.create_string_buffer(f)
    class Prog(ctypes.Structure): _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
    prog = Prog(9, ctypes.cast(buf, ctypes.c_void_p))
    libc.prctl(38, 1, 0, 0, 0)
    print("seccomp", libc.prctl(22, 2, ctypes.byref(prog), 0, 0), end="; ")
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    import torch
    ok = torch.cuda.is_available()
print("cuda", ok, [str(x.message)[:200] for x in w])
