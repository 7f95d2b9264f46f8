/* cpu_worker.h — `harness worker --backend cpu`: the worker protocol
 * (worker_protocol.h) served on the CPU.
 *
 * The same requests as the GPU worker with host memory behind them: HELLO
 * names the CPU ("CPU (N cores, <model>)", compute capability 0.0); LOAD
 * takes a shared object built by cpu_compile.h and dlopen()s it from a
 * memfd; ALLOC maps every buffer separately, 256-byte aligned as
 * cuMemAlloc's, with guards of its own byte before and after it
 * (guard_zone.h, checked as the GPU worker checks them) and PROT_NONE zones
 * as large as the buffer (1 MiB to 1 GiB) beyond them;
 * RUN runs the launches with cpu_runtime.h (the GPU's grid, block and
 * shared-memory limits checked the same way) and answers wall-clock times,
 * which nobody should read as a speed, and the guards found written.
 *
 * The process is the sandbox: it enters a network namespace where
 * permitted, refuses socket(), has no core dumps, and keeps soft limits on
 * CPU time (per RUN), address space (4 GiB over its buffers) and file size
 * (1 MiB), as C references do.  A kernel that crashes (SIGSEGV, SIGFPE, a
 * fiber stack overflow, ...) gets a last error answer naming the signal,
 * the block and the thread, then the worker exits; one that hangs passes
 * the RUN deadline, is answered WP_TIMEOUT and the parent kills the worker. */
#ifndef CUDAPERF_CPU_WORKER_H
#define CUDAPERF_CPU_WORKER_H

/* Serves requests until EXIT or until the parent goes away; returns the
 * process's exit code. */
int cpu_worker_serve(int fd_in, int fd_out);

#endif
