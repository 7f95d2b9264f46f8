/* KernelBench-format import and export (harness/kb_*): constants and entry
 * points read from the text, constants rewritten, print() found, shape
 * dimensions inferred as expressions (tests/data/kernelbench/infer_cases.txt),
 * and, with a torch interpreter, the hand-written files of
 * tests/data/kernelbench/good imported (configs, shapes), the malformed ones
 * of tests/data/kernelbench/bad each rejected with its reason while a good
 * one in the same call imports, and an import -> export -> import round
 * trip giving the same meta.json.  The torch parts are skipped, loudly,
 * where no interpreter imports torch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/problem.h"
#include "common/strbuf.h"
#include "harness/kb_describe.h"
#include "harness/kb_export.h"
#include "harness/kb_import.h"
#include "harness/kb_infer.h"
#include "harness/kb_source.h"
#include "tests/test.h"

#define GOOD "tests/data/kernelbench/good/"
#define BAD "tests/data/kernelbench/bad/"

static char *slurp(const char *path)
{
    char *s = NULL;
    Error e;
    if (file_read_all(path, 1 << 20, &s, NULL, &e) != 0)
        return NULL;
    return s;
}

TEST(kernelbench_source_text)
{
    char *src = slurp(GOOD "conv_pool.py");
    CHECK(src != NULL);
    if (!src)
        return 0;
    KbConstants k;
    Error e;
    CHECK_MSG(kb_source_constants(src, "conv_pool.py", &k, &e) == 0, "%s", e.msg);
    static const char *const names[] = {"N", "C_IN", "C_OUT", "H", "W", "K"};
    static const int64_t values[] = {8, 16, 32, 64, 48, 3};
    CHECK_MSG(k.n == 6, "%d constants", k.n);
    for (int i = 0; i < 6 && i < k.n; i++)
        CHECK_MSG(strcmp(k.names[i], names[i]) == 0 && k.values[i] == values[i], "constant %d: %s = %lld", i,
                  k.names[i], (long long)k.values[i]);
    CHECK(kb_source_check_entry_points(src, "conv_pool.py", &e) == 0);
    CHECK(kb_source_find_print(src) == 0);
    /* rewriting changes the values and nothing else */
    k.values[3] = 17;
    k.values[0] = 1;
    char *out = NULL;
    CHECK_MSG(kb_source_set_constants(src, &k, "conv_pool.py", &out, &e) == 0, "%s", e.msg);
    CHECK(out && strstr(out, "\nH = 17\n") && strstr(out, "\nN = 1\n") && strstr(out, "\nW = 48\n"));
    CHECK(out && strlen(out) == strlen(src)); /* "64" -> "17", "8" -> "1" */
    KbConstants k2;
    CHECK(out && kb_source_constants(out, "x", &k2, &e) == 0 && k2.values[3] == 17 && k2.values[0] == 1);
    if (out)
        kb_constants_release(&k2);
    free(out);
    /* a name the file does not define is refused */
    KbConstants bad = {1, {"missing"}, {3}};
    out = NULL;
    CHECK(kb_source_set_constants(src, &bad, "conv_pool.py", &out, &e) != 0 && strstr(e.msg, "'missing'"));
    free(out);
    kb_constants_release(&k);
    free(src);

    /* what is not module level is not a constant; strings are not code */
    const char *tricky = "x = 5  # five\n"
                         "y: int = -3\n"
                         "\"\"\"\nz = 7\n\"\"\"\n"
                         "def f():\n    w = 9\n"
                         "v = (1,\n2)\n"
                         "u = 1_000\n"
                         "s = 'print(1)'  # print(2)\n";
    CHECK(kb_source_constants(tricky, "tricky", &k, &e) == 0);
    CHECK_MSG(k.n == 3 && strcmp(k.names[0], "x") == 0 && k.values[0] == 5 && strcmp(k.names[1], "y") == 0 &&
                  k.values[1] == -3 && strcmp(k.names[2], "u") == 0 && k.values[2] == 1000,
              "%d constants", k.n);
    kb_constants_release(&k);
    CHECK(kb_source_find_print(tricky) == 0);
    CHECK(kb_source_check_entry_points(tricky, "tricky", &e) != 0 && strstr(e.msg, "class Model"));

    src = slurp(BAD "prints.py");
    CHECK(src && kb_source_find_print(src) == 8);
    free(src);
    src = slurp(BAD "no_get_inputs.py");
    CHECK(src && kb_source_check_entry_points(src, NULL, &e) != 0 && strstr(e.msg, "get_inputs()"));
    free(src);
    return 0;
}

/* Splits s at sep into at most max trimmed pieces (in place). */
static int split(char *s, char sep, char **out, int max)
{
    int n = 0;
    while (s && n < max) {
        char *next = strchr(s, sep);
        if (next)
            *next++ = '\0';
        while (*s == ' ')
            s++;
        size_t l = strlen(s);
        while (l && (s[l - 1] == ' ' || s[l - 1] == '\n'))
            s[--l] = '\0';
        out[n++] = s;
        s = next;
    }
    return n;
}

TEST(kernelbench_infer_cases)
{
    char *text = slurp("tests/data/kernelbench/infer_cases.txt");
    CHECK(text != NULL);
    if (!text)
        return 0;
    int cases = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !line[0])
            continue;
        char *f[4], *names[8], *cfgs[4], *vals[8], *dims_s[4];
        if (split(line, ';', f, 4) != 4) {
            CHECK_MSG(0, "bad case line");
            continue;
        }
        char want[128];
        snprintf(want, sizeof want, "%s", f[3]);
        int nn = split(f[0], ',', names, 8);
        int nc = split(f[1], '/', cfgs, 4);
        KbConstants k[4];
        int64_t dims[4];
        for (int c = 0; c < nc; c++) {
            int nv = split(cfgs[c], ',', vals, 8);
            k[c].n = nn;
            for (int i = 0; i < nn; i++) {
                k[c].names[i] = names[i];
                k[c].values[i] = i < nv ? atoll(vals[i]) : 0;
            }
        }
        int nd = split(f[2], '/', dims_s, 4);
        for (int c = 0; c < nd; c++)
            dims[c] = atoll(dims_s[c]);
        char *got = kb_infer_dim(k, nc, dims);
        if (strcmp(want, "NONE") == 0)
            CHECK_MSG(got == NULL, "case %d: expected no expression, got '%s'", cases + 1, got);
        else
            CHECK_MSG(got && strcmp(got, want) == 0, "case %d: expected '%s', got '%s'", cases + 1, want,
                      got ? got : "(none)");
        free(got);
        cases++;
    }
    CHECK_MSG(cases >= 14, "only %d cases", cases);
    free(text);
    return 0;
}

/* ---- with torch ---- */

static TorchRunner *runner_or_skip(TestCtx *t, char *why, size_t len)
{
    char py[512];
    Error e;
    TorchRunner *r = NULL;
    if (torch_ref_find_python(py, sizeof py, &e) != 0) {
        snprintf(why, len, "%s", e.msg);
        return NULL;
    }
    TorchRunnerOptions o = torch_runner_default_options();
    o.deadline_s = 30;
    if (torch_runner_new(&o, 1, &r, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "runner: %s", e.msg);
        snprintf(why, len, "the runner did not start");
        return NULL;
    }
    return r;
}

static const ProblemArg *arg(const Problem *p, const char *name)
{
    return problem_find_arg(p, name);
}

static int shape_is(const ProblemArg *a, const char *const *want, int n)
{
    if (!a || a->ndim != n)
        return 0;
    for (int d = 0; d < n; d++)
        if (strcmp(a->shape[d], want[d]) != 0)
            return 0;
    return 1;
}

TEST(kernelbench_import_meta)
{
    char why[600];
    TorchRunner *r = runner_or_skip(t, why, sizeof why);
    if (!r)
        SKIP("no torch interpreter: %s", why);
    KbDescriber d = kb_describer_torch(r);
    KbImportOptions opt;
    memset(&opt, 0, sizeof opt);
    Error e;
    char *src = slurp(GOOD "conv_pool.py"), *meta = NULL;
    Problem *p = NULL;
    CHECK_MSG(kb_import_meta(GOOD "conv_pool.py", src, &opt, &d, &meta, &e) == 0, "%s", e.msg);
    if (meta && problem_parse(meta, "conv_pool", &p, &e) == 0) {
        CHECK(strcmp(p->name, "torch/imported_kernelbench/conv_pool") == 0);
        CHECK(p->prov_source && strcmp(p->prov_source, GOOD "conv_pool.py") == 0);
        static const char *const img[] = {"N", "C_IN", "H", "W"};
        static const char *const wt[] = {"C_OUT", "C_IN", "K", "K"};
        static const char *const mean[] = {"N", "C_IN"};
        CHECK_MSG(shape_is(arg(p, "image"), img, 4), "%s", meta);
        CHECK_MSG(shape_is(arg(p, "w.conv.weight"), wt, 4), "%s", meta);
        CHECK_MSG(shape_is(arg(p, "out1"), mean, 2), "%s", meta);
        const ProblemArg *y = arg(p, "out0");
        CHECK_MSG(y && y->ndim == 4 && strcmp(y->shape[2], "(H-K+1)/2") == 0 && strcmp(y->shape[3], "(W-K+1)/2") == 0,
                  "%s", meta);
        CHECK(arg(p, "w.conv.weight") && arg(p, "w.conv.weight")->fill.kind == FILL_MODEL);
        /* large is the file's own values; small fits 1 MiB; edge is odd */
        const ProblemConfig *lg = problem_find_config(p, "large"), *sm = problem_find_config(p, "small"),
                            *ed = problem_find_config(p, "edge");
        int h = problem_param_index(p, "H");
        CHECK(lg && sm && ed && h >= 0 && lg->params[h] == 64);
        int64_t bytes = 0;
        for (int i = 0; sm && i < p->n_args; i++) {
            int64_t n;
            if (arg_role_is_buffer(p->args[i].role) && problem_buffer_count(p, &p->args[i], sm, &n, &e) == 0)
                bytes += n * (int64_t)dtype_size(p->args[i].dtype);
        }
        CHECK_MSG(bytes > 0 && bytes <= (1 << 20), "small config: %lld bytes", (long long)bytes);
        for (int k = 0; ed && k < p->n_params; k++)
            CHECK_MSG(ed->params[k] % 2 == 1, "edge %s = %lld", p->params[k], (long long)ed->params[k]);
    } else {
        CHECK_MSG(0, "meta does not parse: %s", e.msg);
    }
    problem_free(p);
    free(meta);
    free(src);

    src = slurp(GOOD "linear_gelu_norm.py");
    meta = NULL;
    p = NULL;
    CHECK_MSG(kb_import_meta(GOOD "linear_gelu_norm.py", src, &opt, &d, &meta, &e) == 0, "%s", e.msg);
    if (meta && problem_parse(meta, "linear", &p, &e) == 0) {
        static const char *const x[] = {"batch_size", "in_features"};
        static const char *const o[] = {"batch_size", "out_features"};
        static const char *const w[] = {"out_features", "in_features"};
        CHECK_MSG(shape_is(arg(p, "x"), x, 2) && shape_is(arg(p, "out"), o, 2) &&
                      shape_is(arg(p, "w.fc.weight"), w, 2),
                  "%s", meta);
        CHECK(p->n_params == 3 && p->atol > 0);
    }
    problem_free(p);
    free(meta);
    free(src);
    torch_runner_free(r);
    return 0;
}

/* The line of out naming file, or NULL. */
static const char *line_for(const char *out, const char *file)
{
    char *pat = xasprintf("harness: import: %s: ", file);
    const char *l = strstr(out, pat);
    free(pat);
    return l;
}

TEST(kernelbench_import_export_cli)
{
    char why[600];
    TorchRunner *r = runner_or_skip(t, why, sizeof why);
    if (!r)
        SKIP("no torch interpreter: %s", why);
    torch_runner_free(r);
    char *out = NULL;
    /* good and malformed files in one call: every bad one has its line, the
     * good ones import */
    int rc = test_sh(&out, "bin/harness --catalog %s/a.db import --format kernelbench --timeout 5 --jobs 1 --quiet "
                     "%s %s",
                     t->tmpdir, "tests/data/kernelbench/bad", "tests/data/kernelbench/good");
    if (out && strstr(out, "programs are not ingested by this build")) {
        free(out);
        SKIP("ingest does not take lang \"torch\" programs yet (the runner issue's ingest part)");
    }
    static const struct {
        const char *file, *want;
    } BADS[] = {
        {BAD "syntax_error.py", "syntax error at line 7"},
        {BAD "no_get_inputs.py", "no module-level `def get_inputs()`"},
        {BAD "forward_raises.py", "forward raised"},
        {BAD "prints.py", "prints to stdout (line 8)"},
        {BAD "sleeps.py", "timed out"},
    };
    for (size_t i = 0; i < sizeof BADS / sizeof *BADS; i++) {
        const char *l = out ? line_for(out, BADS[i].file) : NULL;
        const char *nl = l ? strchr(l, '\n') : NULL;
        const char *hit = l ? strstr(l, BADS[i].want) : NULL;
        CHECK_MSG(hit && (!nl || hit < nl), "%s: expected '%s' in:\n%s", BADS[i].file, BADS[i].want, out);
    }
    CHECK_MSG(rc == 0 && out && strstr(out, "7 files: imported 2, skipped 0 (already present), rejected 5"),
              "rc %d:\n%s", rc, out);
    free(out);
    /* a rerun skips both */
    rc = test_sh(&out, "bin/harness --catalog %s/a.db import --format kernelbench --quiet %s", t->tmpdir,
                 "tests/data/kernelbench/good");
    CHECK_MSG(rc == 0 && out && strstr(out, "imported 0, skipped 2 (already present), rejected 0"), "rc %d:\n%s", rc,
              out);
    free(out);
    /* everything rejected: exit 1 */
    rc = test_sh(&out, "bin/harness --catalog %s/a.db import --format kernelbench --quiet %s", t->tmpdir,
                 BAD "no_get_inputs.py");
    CHECK_MSG(rc == 1 && out && strstr(out, "imported 0, skipped 0 (already present), rejected 1"), "rc %d:\n%s", rc,
              out);
    free(out);

    /* export every split (one folder each), then re-import the exported
     * files into another catalog */
    static const char *const SPLITS[] = {"train", "val", "test", "test-ood"};
    for (int s = 0; s < 4; s++) {
        rc = test_sh(&out, "bin/harness --catalog %s/a.db export --format kernelbench --split %s %s/kb/%s",
                     t->tmpdir, SPLITS[s], t->tmpdir, SPLITS[s]);
        CHECK_MSG(rc == 0 && out && strstr(out, "harness export: split") && strstr(out, " 0 unchanged"),
                  "rc %d:\n%s", rc, out);
        free(out);
    }
    rc = test_sh(&out, "ls %s/kb/*/other", t->tmpdir);
    CHECK_MSG(rc == 0 && out && strstr(out, "_conv_pool.py") && strstr(out, "_linear_gelu_norm.py"), "%s", out);
    free(out);
    /* the large config's export is the original text */
    rc = test_sh(&out, "cmp %s/kb/*/other/*_conv_pool.py " GOOD "conv_pool.py", t->tmpdir);
    CHECK_MSG(rc == 0, "exported conv_pool differs from the original: %s", out);
    free(out);
    /* a second export changes nothing */
    rc = test_sh(&out, "for s in train val test test-ood; do bin/harness --catalog %s/a.db export --format "
                       "kernelbench --split $s %s/kb/$s; done",
                 t->tmpdir, t->tmpdir);
    CHECK_MSG(rc == 0 && out && !strstr(out, " 1 files written") && !strstr(out, " 2 files written") &&
                  strstr(out, " 0 stale removed") && !strstr(out, " 1 stale") &&
                  !strstr(out, " 2 stale"),
              "%s", out);
    free(out);
    rc = test_sh(&out, "bin/harness --catalog %s/b.db import --format kernelbench --quiet %s/kb", t->tmpdir,
                 t->tmpdir);
    CHECK_MSG(rc == 0 && out && strstr(out, "imported 2"), "rc %d:\n%s", rc, out);
    free(out);
    /* same meta.json but for name, description and provenance.source */
    rc = test_sh(&out,
                 "for db in a b; do sqlite3 %s/$db.db \"SELECT json_remove(meta, '$.name', '$.description', "
                 "'$.provenance.source') FROM programs ORDER BY substr(name, instr(name, '_') + 1)\" > %s/$db.txt; "
                 "done; cmp %s/a.txt %s/b.txt && wc -l < %s/a.txt",
                 t->tmpdir, t->tmpdir, t->tmpdir, t->tmpdir, t->tmpdir);
    CHECK_MSG(rc == 0 && out && atoi(out) == 2, "round trip: %s", out);
    free(out);
    return 0;
}
