#include "ingest.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/strbuf.h"
#include "harness/cref.h"
#include "harness/inputs.h"
#include "harness/kernels.h"
#include "harness/torch_ref.h"

#define BATCH 32
#define NEAR_ZERO 1e-6

typedef struct Item {
    char *dir;          /* folder holding meta.json */
    Problem *p;         /* parsed problem (NULL when invalid) */
    char *meta_json;    /* canonical text */
    char *source;
    ProgramHashes h;
    PairFiles pair;     /* the CUDA side: reference pair and variants */
    char *error;        /* why it is invalid */
} Item;

/* ---- discovery ---- */

static char **g_found;
static int g_n_found;

static int collect_meta(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    size_t n = strlen(path);
    if (flag == FTW_F && n >= 9 && strcmp(path + n - 9, "meta.json") == 0 && (n == 9 || path[n - 10] == '/')) {
        g_found = xrealloc(g_found, sizeof(char *) * (size_t)(g_n_found + 1));
        g_found[g_n_found++] = xstrndup(path, n - 10 > 0 ? n - 10 : 0);
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- validation in a worker process ---- */

typedef struct OutputStats {
    int non_finite;       /* NaN/Inf elements (unwritten floats stay NaN) */
    int64_t first_bad;
    double min, max, max_abs;
} OutputStats;

static void output_stats(const ProblemArg *a, const void *buf, int64_t n, OutputStats *s)
{
    s->non_finite = 0;
    s->first_bad = -1;
    s->min = INFINITY;
    s->max = -INFINITY;
    s->max_abs = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = inputs_get(a->dtype, buf, i);
        if (!isfinite(v)) {
            if (s->first_bad < 0)
                s->first_bad = i;
            s->non_finite++;
            continue;
        }
        s->min = fmin(s->min, v);
        s->max = fmax(s->max, v);
        s->max_abs = fmax(s->max_abs, fabs(v));
    }
}

/* Runs config `cf` with `seed`; on success *out holds the buffers (caller
 * releases).  A torch program runs in this worker's torch runner (started
 * on first use, kept for the worker's life); *harness_fault is set when
 * the run failed for a reason that is not the program's (no interpreter
 * with torch). */
static double g_timeout;
static TorchRunner *g_torch;
static int g_torch_threads;

static int is_torch(const Problem *p)
{
    return strcmp(p->lang, "torch") == 0;
}

static int run_config(const Item *it, const char *so, const ProblemConfig *cf, uint64_t seed, RefBuffers *out,
                      int *harness_fault, Error *e)
{
    const Problem *p = it->p;
    SandboxLimits lim = sandbox_default_limits();
    if (g_timeout > 0)
        lim.wall_seconds = lim.cpu_seconds = g_timeout;
    *harness_fault = 0;
    if (cref_buffers_init(out, p, cf, seed, e) != 0)
        return -1;
    if (is_torch(p)) {
        int fault = 0;
        if (!g_torch) {
            TorchRunnerOptions o = torch_runner_default_options();
            o.deadline_s = lim.wall_seconds;
            o.threads = g_torch_threads;
            if (torch_runner_new(&o, 0, &g_torch, e) != 0) {
                *harness_fault = 1;
                cref_buffers_release(out);
                return -1;
            }
        }
        char *label = xasprintf("%s/program.py", it->dir);
        int rc = torch_ref_problem_run(g_torch, p, it->source, label, cf, seed, "cpu", out->data, out->count, &fault,
                                       e);
        free(label);
        if (rc != 0) {
            *harness_fault = !fault;
            cref_buffers_release(out);
            return -1;
        }
        return 0;
    }
    if (cref_run(so, p, out, &lim, e) != 0) {
        error_prefix(e, "config %s", cf->name);
        cref_buffers_release(out);
        return -1;
    }
    return 0;
}

/* verdict: 0 ok, 1 degenerate, 2 failed, 3 not checked (the harness could
 * not run it: no torch); reason filled for 1, 2 and 3. */
static int validate(const Item *it, const IngestOptions *opt, char *reason, size_t rlen)
{
    Error e = {{0}, 0, 0};
    const Problem *p = it->p;
    char *so = NULL;
    RefBuffers a = {0}, b = {0};
    int verdict = 0, hf = 0;
    if (!is_torch(p) && cref_compile(p, it->source, opt->cache_dir, &so, &e) != 0) {
        snprintf(reason, rlen, "%s", e.msg);
        return 2;
    }
    const ProblemConfig *small = problem_find_config(p, "small");
    if (run_config(it, so, small, opt->seed, &a, &hf, &e) != 0) {
        snprintf(reason, rlen, "%s", e.msg);
        verdict = hf ? 3 : 2;
        goto done;
    }
    int all_const = 1, all_zero = 1, same = 1, has_vector = 0;
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *arg = &p->args[i];
        if (!arg_role_is_output(arg->role))
            continue;
        OutputStats s;
        output_stats(arg, a.data[i], a.count[i], &s);
        if (s.non_finite) {
            snprintf(reason, rlen, "config small: output '%s' has %d non-finite elements (first at %lld)%s",
                     arg->name, s.non_finite, (long long)s.first_bad,
                     dtype_is_float(arg->dtype) && !is_torch(p) ? "; unwritten elements stay NaN" : "");
            verdict = 2;
            goto done;
        }
        /* A one-element output (a sum, a score) is trivially "constant";
         * only longer outputs count, and the two-seed test covers the rest. */
        if (s.min != s.max || a.count[i] == 1)
            all_const = 0;
        if (s.max_abs > NEAR_ZERO)
            all_zero = 0;
        if (a.count[i] > 1)
            has_vector = 1;
    }
    if (run_config(it, so, small, opt->seed + 1, &b, &hf, &e) != 0) {
        snprintf(reason, rlen, "%s (second seed)", e.msg);
        verdict = hf ? 3 : 2;
        goto done;
    }
    for (int i = 0; i < p->n_args && same; i++)
        if (arg_role_is_output(p->args[i].role) &&
            memcmp(a.data[i], b.data[i], (size_t)a.count[i] * dtype_size(p->args[i].dtype)) != 0)
            same = 0;
    if (all_const && has_vector) {
        snprintf(reason, rlen, "every output is constant on config small");
        verdict = 1;
        goto done;
    }
    if (all_zero) {
        snprintf(reason, rlen, "every output is near zero (|x| <= %g) on config small", NEAR_ZERO);
        verdict = 1;
        goto done;
    }
    if (same) {
        snprintf(reason, rlen, "outputs do not depend on the inputs (identical for two seeds on config small)");
        verdict = 1;
        goto done;
    }
    /* Edge configs must run cleanly too (bounds, tiny sizes). */
    for (int k = 0; k < p->n_configs; k++) {
        const ProblemConfig *cf = &p->configs[k];
        if (strncmp(cf->name, "edge", 4) != 0)
            continue;
        RefBuffers eb = {0};
        if (run_config(it, so, cf, opt->seed, &eb, &hf, &e) != 0) {
            snprintf(reason, rlen, "%s", e.msg);
            verdict = hf ? 3 : 2;
            goto done;
        }
        for (int i = 0; i < p->n_args && !verdict; i++) {
            if (!arg_role_is_output(p->args[i].role))
                continue;
            OutputStats s;
            output_stats(&p->args[i], eb.data[i], eb.count[i], &s);
            if (s.non_finite) {
                snprintf(reason, rlen, "config %s: output '%s' has %d non-finite elements (first at %lld)",
                         cf->name, p->args[i].name, s.non_finite, (long long)s.first_bad);
                verdict = 2;
            }
        }
        cref_buffers_release(&eb);
        if (verdict)
            goto done;
    }
done:
    cref_buffers_release(&a);
    cref_buffers_release(&b);
    free(so);
    return verdict;
}

/* One line per item: "index verdict reason" (reason without newlines). */
static void worker_main(Item *items, const int *todo, int n_todo, int wid, int jobs, const IngestOptions *opt, int fd)
{
    sandbox_isolate_network();
    g_timeout = opt->timeout_seconds;
    /* one torch thread per worker when the workers fill the machine */
    g_torch_threads = jobs > 1 ? 1 : 0;
    for (int k = wid; k < n_todo; k += jobs) {
        char reason[1600] = "";
        int verdict = validate(&items[todo[k]], opt, reason, sizeof reason);
        for (char *q = reason; *q; q++)
            if (*q == '\n' || *q == '\t' || *q == '\r')
                *q = ' ';
        char *line = xasprintf("%d\t%d\t%s\n", todo[k], verdict, reason);
        size_t len = strlen(line), off = 0;
        while (off < len) {
            ssize_t w = write(fd, line + off, len - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(1);
            off += (size_t)w;
        }
        free(line);
    }
    torch_runner_free(g_torch);
    _exit(0);
}

/* ---- the parent ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress(const IngestOptions *opt, int done, int total, double t0, int final)
{
    static int last_pct = -1;
    if (opt->quiet || total == 0)
        return;
    int tty = isatty(STDERR_FILENO);
    int pct = (int)(100.0 * done / total);
    if (!tty && !final && pct / 10 == last_pct / 10)
        return;
    last_pct = pct;
    double el = now_s() - t0, rate = el > 0 ? done / el : 0;
    double eta = rate > 0 ? (total - done) / rate : 0;
    fprintf(stderr, "%sharness ingest: %d/%d programs (%d%%), %.1f/s, ETA %.0f s%s", tty ? "\r" : "", done, total,
            pct, rate, eta, tty && !final ? "   " : "\n");
    fflush(stderr);
}

static void item_release(Item *it)
{
    free(it->dir);
    problem_free(it->p);
    free(it->meta_json);
    free(it->source);
    free(it->error);
    pair_files_release(&it->pair);
}

/* Loads one folder into *it; returns 0 (valid), or -1 with it->error. */
static int load_item(Item *it, const char *dir)
{
    Error e = {{0}, 0, 0};
    memset(it, 0, sizeof *it);
    it->dir = xstrdup(dir);
    char *meta_path = xasprintf("%s/meta.json", dir);
    char *src_path = NULL;
    int rc = 0;
    if (problem_load(meta_path, &it->p, &e) != 0) {
        it->error = xstrdup(e.msg);
        rc = -1;
    } else if (strcmp(it->p->lang, "c") != 0 && strcmp(it->p->lang, "torch") != 0) {
        it->error = xasprintf("%s: lang: '%s' programs are not ingested by this build", meta_path, it->p->lang);
        rc = -1;
    } else if (file_read_all(src_path = xasprintf("%s/%s", dir, is_torch(it->p) ? "program.py" : "program.c"),
                             1 << 20, &it->source, NULL, &e) != 0) {
        it->error = xstrdup(e.msg);
        rc = -1;
    } else {
        it->meta_json = problem_to_json(it->p);
        if (catalog_program_hashes(it->p, it->meta_json, it->source, &it->h, &e) != 0 ||
            pair_files_load(dir, it->p, &it->pair, &e) != 0) {
            it->error = xstrdup(e.msg);
            rc = -1;
        }
    }
    free(meta_path);
    free(src_path);
    return rc;
}

/* The caller's verdict listener (ingest_paths_reporting), NULL: print. */
static IngestVerdictFn g_verdict_fn;
static void *g_verdict_ctx;

static void report_invalid(const Item *it)
{
    if (g_verdict_fn)
        g_verdict_fn(g_verdict_ctx, it->dir, it->p ? it->p->name : NULL, 3, it->error);
    else
        fprintf(stderr, "harness ingest: invalid: %s\n", it->error);
}

static int store_result(Catalog *c, Item *it, int verdict, const char *reason, const IngestOptions *opt,
                        IngestSummary *sum, Error *e)
{
    if (verdict == 3) {
        /* the harness's failure, not the program's: nothing is stored, so
         * the next ingest checks it again */
        sum->not_checked++;
        fprintf(stderr, "harness ingest: not checked %s: %s\n", it->p->name, reason);
        return 0;
    }
    if (g_verdict_fn)
        g_verdict_fn(g_verdict_ctx, it->dir, it->p->name, verdict, reason);
    if (verdict == 0) {
        sum->added++;
        return catalog_put_program(c, it->p, it->meta_json, it->source, &it->h, it->p->category, opt->origin, e);
    }
    if (verdict == 1)
        sum->degenerate++;
    else
        sum->failed++;
    if (!g_verdict_fn)
        fprintf(stderr, "harness ingest: %s %s: %s\n", verdict == 1 ? "dropped (degenerate)" : "rejected",
                it->p->name, reason);
    return catalog_put_rejection(c, it->h.content, it->p->name, verdict == 1 ? "degenerate" : "failed", reason, e);
}

int ingest_paths_reporting(Catalog *c, char *const *roots, int n_roots, const IngestOptions *opt, IngestVerdictFn fn,
                           void *ctx, IngestSummary *sum, Error *e)
{
    g_verdict_fn = fn;
    g_verdict_ctx = ctx;
    int rc = ingest_paths(c, roots, n_roots, opt, sum, e);
    g_verdict_fn = NULL;
    g_verdict_ctx = NULL;
    return rc;
}

int ingest_paths(Catalog *c, char *const *roots, int n_roots, const IngestOptions *opt, IngestSummary *sum,
                 Error *e)
{
    int rc = 0, n_items = 0, n_todo = 0, in_txn = 0;
    char *abs_cache = NULL;
    Item *items = NULL;
    int *todo = NULL;
    pid_t *pids = NULL;
    int *fds = NULL;
    StrBuf *partial = NULL;
    memset(sum, 0, sizeof *sum);
    g_found = NULL;
    g_n_found = 0;
    for (int r = 0; r < n_roots; r++) {
        if (!file_is_dir(roots[r]))
            FAIL(e, "cannot ingest '%s': not a directory", roots[r]);
        if (nftw(roots[r], collect_meta, 32, FTW_PHYS) != 0)
            FAIL(e, "cannot walk '%s': %s", roots[r], strerror(errno));
    }
    qsort(g_found, (size_t)g_n_found, sizeof *g_found, cmp_str);
    sum->found = g_n_found;
    items = xcalloc((size_t)g_n_found + 1, sizeof *items);
    todo = xcalloc((size_t)g_n_found + 1, sizeof *todo);
    for (int i = 0; i < g_n_found; i++) {
        Item *it = &items[n_items++];
        if (load_item(it, g_found[i]) != 0) {
            sum->invalid++;
            report_invalid(it);
            continue;
        }
        for (int j = 0; j < n_items - 1; j++) {
            if (items[j].p && strcmp(items[j].p->name, it->p->name) == 0) {
                it->error = xasprintf("%s/meta.json: name: '%s' is also used by %s", it->dir, it->p->name,
                                      items[j].dir);
                break;
            }
        }
        if (it->error) {
            sum->invalid++;
            report_invalid(it);
            problem_free(it->p);
            it->p = NULL;
            continue;
        }
        int known = 0;
        TRY(catalog_knows_content(c, it->h.content, &known, e));
        if (known && !opt->force)
            sum->unchanged++;
        else
            todo[n_todo++] = i;
    }
    if (!opt->quiet)
        fprintf(stderr, "harness ingest: %d programs found, %d already in the catalog, %d to check with %d job(s)\n",
                sum->found, sum->unchanged, n_todo, opt->jobs);
    TRY(file_mkdirs(opt->cache_dir, e));
    /* The sandboxed runs chdir into a private directory: the cache path they
     * load references from must be absolute. */
    abs_cache = realpath(opt->cache_dir, NULL);
    if (!abs_cache)
        FAIL(e, "cannot resolve the cache directory '%s': %s", opt->cache_dir, strerror(errno));
    IngestOptions local_opt = *opt;
    local_opt.cache_dir = abs_cache;
    opt = &local_opt;
    int jobs = opt->jobs < 1 ? 1 : opt->jobs;
    if (jobs > n_todo)
        jobs = n_todo;
    pids = xcalloc((size_t)jobs + 1, sizeof *pids);
    fds = xcalloc((size_t)jobs + 1, sizeof *fds);
    partial = xcalloc((size_t)jobs + 1, sizeof *partial);
    fflush(NULL);
    for (int w = 0; w < jobs; w++) {
        int pfd[2];
        if (pipe(pfd) != 0)
            FAIL(e, "pipe: %s", strerror(errno));
        pid_t pid = fork();
        if (pid < 0)
            FAIL(e, "fork: %s", strerror(errno));
        if (pid == 0) {
            close(pfd[0]);
            for (int k = 0; k < w; k++)
                close(fds[k]);
            worker_main(items, todo, n_todo, w, jobs, opt, pfd[1]);
        }
        close(pfd[1]);
        pids[w] = pid;
        fds[w] = pfd[0];
    }
    double t0 = now_s();
    int done = 0, open_fds = jobs, in_batch = 0;
    while (open_fds > 0) {
        struct pollfd pfds[256];
        int map[256], np = 0;
        for (int w = 0; w < jobs && np < 256; w++)
            if (fds[w] >= 0) {
                pfds[np].fd = fds[w];
                pfds[np].events = POLLIN;
                map[np++] = w;
            }
        if (poll(pfds, (nfds_t)np, 1000) < 0 && errno != EINTR)
            FAIL(e, "poll: %s", strerror(errno));
        for (int k = 0; k < np; k++) {
            if (!(pfds[k].revents & (POLLIN | POLLHUP)))
                continue;
            int w = map[k];
            char buf[8192];
            ssize_t got = read(fds[w], buf, sizeof buf);
            if (got <= 0) {
                close(fds[w]);
                fds[w] = -1;
                open_fds--;
                continue;
            }
            sb_append_n(&partial[w], buf, (size_t)got);
            char *line;
            while ((line = strchr(partial[w].data, '\n')) != NULL) {
                *line = '\0';
                int idx = -1, verdict = 2;
                char *reason = "";
                char *t1 = strchr(partial[w].data, '\t');
                if (t1) {
                    idx = atoi(partial[w].data);
                    verdict = atoi(t1 + 1);
                    char *t2 = strchr(t1 + 1, '\t');
                    reason = t2 ? t2 + 1 : "";
                }
                if (idx >= 0 && idx < n_items && items[idx].p) {
                    if (!in_txn) {
                        TRY(catalog_begin(c, e));
                        in_txn = 1;
                    }
                    TRY(store_result(c, &items[idx], verdict, reason, opt, sum, e));
                    if (++in_batch >= BATCH) {
                        TRY(catalog_commit(c, e));
                        in_txn = 0;
                        in_batch = 0;
                    }
                }
                done++;
                size_t rest = partial[w].len - (size_t)(line + 1 - partial[w].data);
                memmove(partial[w].data, line + 1, rest + 1);
                partial[w].len = rest;
            }
            progress(opt, done, n_todo, t0, 0);
        }
    }
    if (in_txn) {
        TRY(catalog_commit(c, e));
        in_txn = 0;
    }
    if (n_todo)
        progress(opt, done, n_todo, t0, 1);
    for (int w = 0; w < jobs; w++) {
        int status = 0;
        waitpid(pids[w], &status, 0);
        pids[w] = 0;
    }
    if (done < n_todo)
        FAIL(e, "ingest: %d programs were not checked (a worker process died)", n_todo - done);
    TRY(catalog_begin(c, e));
    in_txn = 1;
    /* The CUDA side: cheap (no runs), one transaction; programs that were
     * rejected have no row and keep no kernels. */
    KernelSyncStats ks = {0, 0, 0};
    for (int i = 0; i < n_items; i++) {
        int64_t pid = 0;
        if (!items[i].p || items[i].error)
            continue;
        TRY(kernels_program_id(c, items[i].p->name, &pid, e));
        if (pid)
            TRY(kernels_sync_folder(c, items[i].p->name, &items[i].pair, &ks, e));
    }
    sum->kernels_added = ks.added;
    sum->kernels_removed = ks.removed;
    TRY(catalog_assign_splits(c, &sum->split_changes, e));
    char seedbuf[32];
    snprintf(seedbuf, sizeof seedbuf, "%llu", (unsigned long long)opt->seed);
    TRY(catalog_set_info(c, "check_seed", seedbuf, e));
    TRY(catalog_commit(c, e));
    in_txn = 0;
done:
    if (in_txn)
        catalog_rollback(c); /* only the open batch is lost; committed ones stay */
    for (int w = 0; pids && w < jobs; w++) {
        if (pids[w] > 0) {
            kill(pids[w], SIGKILL);
            waitpid(pids[w], NULL, 0);
        }
        if (fds[w] > 0)
            close(fds[w]);
        sb_release(&partial[w]);
    }
    free(pids);
    free(fds);
    free(partial);
    free(abs_cache);
    for (int i = 0; i < n_items; i++)
        item_release(&items[i]);
    free(items);
    free(todo);
    for (int i = 0; i < g_n_found; i++)
        free(g_found[i]);
    free(g_found);
    g_found = NULL;
    return rc;
}
