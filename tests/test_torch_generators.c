/* Torch generators: the three levels emit their declared programs (1,000
 * within 1% in all), every meta.json loads, generation is byte-identical
 * from the same seed, and a sample of every level (first, middle and last
 * family) runs its small and edge configs on CPU torch through
 * generators/torch_check.py (skipped, loudly, without a torch interpreter);
 * conv-headed programs' edge configs do not fill whole thread blocks. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/launch.h"
#include "common/problem.h"
#include "common/strbuf.h"
#include "generators/torch_families.h"
#include "tests/test.h"

/* Generates every torch family into out; counts per level into by_level. */
static int generate_all(TestCtx *t, const char *out, int by_level[3], int *changed)
{
    int n = 0;
    const Family *const *fams = torch_families(&n);
    *changed = 0;
    for (int i = 0; i < n; i++) {
        GenStats s = {0};
        char err[2048];
        if (gen_run_family_lang(fams[i], "torch", out, 20261202, &s, err, sizeof err) != 0) {
            test_fail(t, __FILE__, __LINE__, "%s", err);
            return -1;
        }
        CHECK_MSG(s.programs == fams[i]->count, "%s: %d programs, declared %d", fams[i]->name, s.programs,
                  fams[i]->count);
        int level = fams[i]->category[strlen(fams[i]->category) - 1] - '1';
        CHECK_MSG(level >= 0 && level < 3, "%s: category '%s'", fams[i]->name, fams[i]->category);
        if (level >= 0 && level < 3)
            by_level[level] += s.programs;
        *changed += s.written;
    }
    return 0;
}

/* The first tensor made in forward() without device=: such a tensor stays
 * on the CPU while the model and its inputs are on the GPU ("Expected all
 * tensors to be on the same device", seen on the H200 only).  NULL when
 * every factory call in forward names its device. */
static const char *factory_without_device(const char *source)
{
    static const char *const FACTORIES[] = {"torch.zeros(", "torch.ones(",  "torch.full(",    "torch.empty(",
                                            "torch.arange(", "torch.rand(", "torch.randn(",   "torch.randint(",
                                            "torch.eye(",   "torch.tensor(", "torch.linspace("};
    const char *fwd = strstr(source, "    def forward(");
    if (!fwd)
        return NULL;
    const char *end = strstr(fwd + 1, "\n    def ");
    const char *top = strstr(fwd, "\ndef ");
    if (!end || (top && top < end))
        end = top ? top : fwd + strlen(fwd);
    for (size_t f = 0; f < sizeof FACTORIES / sizeof *FACTORIES; f++)
        for (const char *c = strstr(fwd, FACTORIES[f]); c && c < end; c = strstr(c + 1, FACTORIES[f])) {
            int depth = 0;
            const char *q = c + strlen(FACTORIES[f]) - 1;
            for (; *q; q++) {
                depth += *q == '(';
                if (*q == ')' && --depth == 0)
                    break;
            }
            char *call = xasprintf("%.*s", (int)(q - c), c);
            int named = strstr(call, "device=") != NULL;
            free(call);
            if (!named)
                return c;
        }
    return NULL;
}

/* The first helper ("static __device__ ... name(") that kernel.cu's text
 * never calls, into name (size bytes); 0 when every one is called.  The
 * prelude's dtype-generic tc_ld/tc_st overloads are written before any
 * kernel and are exempt (an arg-reduction stores its indices itself). */
static int unused_helper(const char *cu, char *name, size_t size)
{
    for (const char *h = strstr(cu, "static __device__ "); h; h = strstr(h + 1, "static __device__ ")) {
        const char *open = strchr(h, '('), *eol = strchr(h, '\n');
        if (!open || (eol && eol < open) || memchr(h, '=', (size_t)(open - h)))
            continue;
        const char *e = open, *b;
        while (e > h && e[-1] == ' ')
            e--;
        for (b = e; b > h && (isalnum((unsigned char)b[-1]) || b[-1] == '_');)
            b--;
        snprintf(name, size, "%.*s", (int)(e - b), b);
        if (!*name || strcmp(name, "tc_ld") == 0 || strcmp(name, "tc_st") == 0)
            continue;
        int uses = 0;
        for (const char *u = strstr(cu, name); u; u = strstr(u + 1, name)) {
            const char *a = u + strlen(name);
            while (*a == ' ')
                a++;
            uses += *a == '(' && (u == cu || !(isalnum((unsigned char)u[-1]) || u[-1] == '_'));
        }
        if (uses < 2)
            return 1;
    }
    return 0;
}

/* Loads every program's meta.json under out/torch and checks the torch
 * rules: lang, entry Model, the level's category, model-filled "w." args,
 * every buffer of every config under 2 GiB; and that its kernel.cu calls
 * every helper it defines (a reference carries no dead code: 40 loss,
 * normalize and matvec references once carried an unused block_max). */
static int check_metas(TestCtx *t, const char *out, int *n_meta)
{
    char *root = xasprintf("%s/torch", out);
    DIR *d = opendir(root);
    CHECK_MSG(d != NULL, "no %s", root);
    struct dirent *fe;
    while (d && (fe = readdir(d)) != NULL) {
        if (fe->d_name[0] == '.')
            continue;
        char *fam = xasprintf("%s/%s", root, fe->d_name);
        DIR *pd = opendir(fam);
        struct dirent *pe;
        while (pd && (pe = readdir(pd)) != NULL) {
            if (pe->d_name[0] == '.')
                continue;
            char *meta = xasprintf("%s/%s/meta.json", fam, pe->d_name);
            char *py = xasprintf("%s/%s/program.py", fam, pe->d_name);
            Problem *p = NULL;
            Error e;
            if (problem_load(meta, &p, &e) != 0) {
                test_fail(t, __FILE__, __LINE__, "%s", e.msg);
            } else {
                (*n_meta)++;
                CHECK_MSG(strcmp(p->lang, "torch") == 0 && strcmp(p->entry, "Model") == 0, "%s", meta);
                CHECK_MSG(p->category && strncmp(p->category, "torch-level", 11) == 0, "%s: category", meta);
                CHECK_MSG(file_exists(py), "%s missing", py);
                char *src = NULL;
                Error fe2;
                if (file_read_all(py, 1 << 20, &src, NULL, &fe2) == 0) {
                    const char *bad = factory_without_device(src);
                    CHECK_MSG(!bad, "%s: forward makes a tensor without device=: %.60s", py, bad);
                }
                free(src);
                char *cu_path = xasprintf("%s/%s/kernel.cu", fam, pe->d_name), *cu = NULL, helper[64];
                if (file_read_all(cu_path, 1 << 22, &cu, NULL, &fe2) == 0)
                    CHECK_MSG(!unused_helper(cu, helper, sizeof helper), "%s: %s is never called", cu_path, helper);
                else
                    test_fail(t, __FILE__, __LINE__, "%s", fe2.msg);
                free(cu);
                free(cu_path);
                for (int i = 0; i < p->n_args; i++) {
                    const ProblemArg *a = &p->args[i];
                    if (strncmp(a->name, "w.", 2) == 0)
                        CHECK_MSG(a->role == ROLE_IN && a->fill.kind == FILL_MODEL, "%s: %s not model-filled",
                                  meta, a->name);
                    for (int c = 0; c < p->n_configs && arg_role_is_buffer(a->role); c++) {
                        int64_t count = 0;
                        CHECK(problem_buffer_count(p, a, &p->configs[c], &count, &e) == 0);
                        CHECK_MSG(count * (int64_t)dtype_size(a->dtype) < (2LL << 30),
                                  "%s: %s is %lld elements in config %s (2 GiB at most)", meta, a->name,
                                  (long long)count, p->configs[c].name);
                    }
                }
            }
            problem_free(p);
            free(meta);
            free(py);
        }
        if (pd)
            closedir(pd);
        free(fam);
    }
    if (d)
        closedir(d);
    free(root);
    return 0;
}

/* The interpreter that imports torch: $CUDAPERF_PYTHON, python3, then
 * /usr/bin/python3 (Debian's python3-torch); NULL when none does. */
static const char *torch_python(void)
{
    static const char *const candidates[] = {"python3", "/usr/bin/python3", NULL};
    const char *env = getenv("CUDAPERF_PYTHON");
    if (env && *env)
        return test_sh(NULL, "%s -c 'import torch' >/dev/null", env) == 0 ? env : NULL;
    for (int i = 0; candidates[i]; i++)
        if (test_sh(NULL, "%s -c 'import torch' >/dev/null", candidates[i]) == 0)
            return candidates[i];
    return NULL;
}

TEST(torch_generators)
{
    char *out = xasprintf("%s/gen", t->tmpdir);
    char *out2 = xasprintf("%s/gen2", t->tmpdir);
    int by_level[3] = {0, 0, 0}, again[3] = {0, 0, 0}, other[3] = {0, 0, 0}, changed = 0;
    if (generate_all(t, out, by_level, &changed) != 0)
        goto done;
    int total = by_level[0] + by_level[1] + by_level[2];
    printf("    level 1: %d, level 2: %d, level 3: %d programs\n", by_level[0], by_level[1], by_level[2]);
    CHECK_MSG(total >= 990 && total <= 1010, "%d torch programs, want 1,000 within 1%%", total);
    CHECK_MSG(by_level[0] >= 350 && by_level[1] >= 350 && by_level[2] >= 150, "levels %d/%d/%d", by_level[0],
              by_level[1], by_level[2]);
    int n_meta = 0;
    check_metas(t, out, &n_meta);
    CHECK_MSG(n_meta == total, "%d meta.json files loaded, %d programs generated", n_meta, total);
    /* Deterministic: a rerun writes nothing, a fresh folder is identical. */
    CHECK(generate_all(t, out, again, &changed) == 0);
    CHECK_MSG(changed == 0, "second run changed %d files", changed);
    CHECK(generate_all(t, out2, other, &changed) == 0);
    char *diff = NULL;
    CHECK_MSG(test_sh(&diff, "diff -r '%s' '%s' | head -5", out, out2) == 0 && diff && !*diff,
              "two generations differ: %s", diff ? diff : "");
    free(diff);
done:
    free(out);
    free(out2);
    return 0;
}

TEST(torch_generators_run_on_cpu)
{
    const char *py = torch_python();
    if (!py)
        SKIP("no Python interpreter imports torch (set CUDAPERF_PYTHON, or install python3-torch)");
    char *out = xasprintf("%s/gen", t->tmpdir);
    int n = 0;
    const Family *const *fams = torch_families(&n);
    /* first, middle and last family of each level */
    StrBuf dirs = STRBUF_INIT;
    int sampled = 0;
    for (int level = 0; level < 3; level++) {
        int lo = -1, hi = -1;
        for (int i = 0; i < n; i++) {
            const char *cat = fams[i]->category;
            if (cat[strlen(cat) - 1] - '1' == level) {
                if (lo < 0)
                    lo = i;
                hi = i;
            }
        }
        CHECK_MSG(lo >= 0, "level %d has no family", level + 1);
        if (lo < 0)
            continue;
        int pick[3] = {lo, (lo + hi) / 2, hi};
        for (int k = 0; k < 3; k++) {
            GenStats s = {0};
            char err[2048];
            CHECK_MSG(gen_run_family_lang(fams[pick[k]], "torch", out, 20261202, &s, err, sizeof err) == 0, "%s",
                      err);
            sb_printf(&dirs, " '%s/torch/%s'", out, fams[pick[k]]->name);
            sampled += s.programs;
        }
    }
    char *log = NULL;
    int rc = test_sh(&log, "%s generators/torch_check.py --configs small,edge%s", py, dirs.data ? dirs.data : "");
    CHECK_MSG(rc == 0, "torch_check failed (%d):\n%s", rc, log ? log : "");
    CHECK_MSG(log && strstr(log, "0 failed"), "no summary from torch_check:\n%s", log ? log : "");
    char want[64];
    snprintf(want, sizeof want, "%d programs", sampled);
    CHECK_MSG(log && strstr(log, want), "torch_check did not see the %d sampled programs:\n%s", sampled,
              log ? log : "");
    if (log) {
        const char *summary = strstr(log, "torch_check:");
        printf("    %s: %.*s", py, summary ? (int)strcspn(summary, "\n") : 0, summary ? summary : "");
        printf("\n");
    }
    free(log);
    sb_release(&dirs);
    free(out);
    return 0;
}

/* Every conv-headed torch program's head launch covers more threads than
 * the integers it is given on the edge config, so a planted missing or
 * loosened bounds check lets a thread past the end there.  A strided head
 * used to halve an edge prime to an even size (torch_l2_conv2d_mish_tanh
 * f32-002: 47x31 -> 24x16, 6 channels, 2304 elements = 9 blocks exactly,
 * and 10 blocks on small), hiding both its bounds defects on every config. */
TEST(torch_generators_conv_edge_not_whole_blocks)
{
    char *out = xasprintf("%s/gen", t->tmpdir);
    int n = 0, checked = 0;
    const Family *const *fams = torch_families(&n);
    for (int i = 0; i < n; i++) {
        const char *name = fams[i]->name;
        if ((strncmp(name, "torch_l1_conv", 13) != 0 && strncmp(name, "torch_l2_conv", 13) != 0) ||
            strstr(name, "transpose") || strncmp(name, "torch_l2_convT", 14) == 0)
            continue;
        GenStats s = {0};
        char err[2048];
        if (gen_run_family_lang(fams[i], "torch", out, 20261202, &s, err, sizeof err) != 0) {
            test_fail(t, __FILE__, __LINE__, "%s", err);
            break;
        }
        char *fam = xasprintf("%s/torch/%s", out, name);
        DIR *d = opendir(fam);
        struct dirent *pe;
        while (d && (pe = readdir(d)) != NULL) {
            if (pe->d_name[0] == '.')
                continue;
            char *meta = xasprintf("%s/%s/meta.json", fam, pe->d_name);
            char *launch = xasprintf("%s/%s/launch.json", fam, pe->d_name);
            Problem *p = NULL;
            LaunchPlan *lp = NULL;
            LaunchGeometry geo;
            Error e;
            const ProblemConfig *c = NULL;
            if (problem_load(meta, &p, &e) != 0 || launch_load(launch, p, &lp, &e) != 0 ||
                !(c = problem_find_config(p, "edge")) || lp->n_launches < 1 ||
                launch_geometry(lp, 0, p, c, &geo, &e) != 0) {
                CHECK_MSG(0, "%s/%s: %s", name, pe->d_name, c ? e.msg : "no edge config or launch");
            } else {
                int64_t threads = geo.grid[0] * geo.grid[1] * geo.grid[2] * geo.block[0] * geo.block[1] * geo.block[2];
                for (int a = 0; a < lp->launches[0].n_args; a++) {
                    int64_t v = -1;
                    const LaunchArg *arg = &lp->launches[0].args[a];
                    if (arg->kind == LARG_EXPR && problem_eval(p, c, arg->text, &v, &e) == 0)
                        CHECK_MSG(v != threads,
                                  "%s/%s: edge launches %s over exactly %lld threads (%s), a bounds check "
                                  "never matters",
                                  name, pe->d_name, lp->launches[0].kernel, (long long)threads, arg->text);
                }
                checked++;
            }
            launch_free(lp);
            if (p)
                problem_free(p);
            free(meta);
            free(launch);
        }
        if (d)
            closedir(d);
        free(fam);
    }
    printf("    %d conv-headed programs checked\n", checked);
    CHECK_MSG(checked >= 150, "only %d conv-headed programs", checked);
    free(out);
    return 0;
}
