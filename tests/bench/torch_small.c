/* torch_small.c — measures the torch reference runner: one runner, every
 * given program folder's small config (inputs from the harness's generator,
 * seed 1, CPU), wall time in all and per program.  Issue 4's "time to run
 * every PyTorch reference's small config".  Built from the harness objects:
 *   make -j2 && cc -O2 -std=c11 -D_GNU_SOURCE -I. -I/usr/local/cuda/include tests/bench/torch_small.c \
 *     $(ls build/harness/*.o | grep -v /main.o) build/common/*.o -o /tmp/torch_small -lcjson -lcrypto \
 *     -lm -lsqlite3 -lpcre2-8 -lnvrtc -ldl -L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64
 *   bin/cudaperf-gen --out /tmp/tgen $(bin/cudaperf-gen --list | awk '/^torch_/{print "--family " $1}')
 *   /tmp/torch_small $(find /tmp/tgen -name meta.json -printf '%h\n' | sort) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/fileio.h"
#include "common/strbuf.h"
#include "harness/cref.h"
#include "harness/torch_ref.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc, char **argv)
{
    Error e; TorchRunner *r; TorchRunnerOptions o = torch_runner_default_options();
    double t0 = now();
    if (torch_runner_new(&o, 1, &r, &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
    double t1 = now(); int ok = 0, bad = 0; double worst = 0; char worst_name[512] = "";
    for (int i = 1; i < argc; i++) {
        Problem *p; char *src; char *meta = xasprintf("%s/meta.json", argv[i]), *py = xasprintf("%s/program.py", argv[i]);
        if (problem_load(meta, &p, &e) || file_read_all(py, 1 << 20, &src, NULL, &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
        RefBuffers b; const ProblemConfig *c = problem_find_config(p, "small");
        double a = now();
        if (cref_buffers_init(&b, p, c, 1, &e) || torch_ref_problem_run(r, p, src, py, c, 1, "cpu", b.data, b.count, NULL, &e)) { bad++; fprintf(stderr, "%s\n", e.msg); }
        else ok++;
        double d = now() - a; if (d > worst) { worst = d; snprintf(worst_name, sizeof worst_name, "%s", p->name); }
        cref_buffers_release(&b); problem_free(p); free(src); free(meta); free(py);
    }
    double t2 = now();
    printf("runner start %.2f s; %d programs' small config in %.2f s (%.1f ms each), %d failed; slowest %.3f s (%s); restarts %d\n",
           t1 - t0, ok + bad, t2 - t1, (t2 - t1) * 1e3 / (ok + bad), bad, worst, worst_name, torch_runner_restarts(r));
    torch_runner_free(r);
    return 0;
}
