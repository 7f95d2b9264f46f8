/* meta.json loader: a good file round-trips canonically; every malformed
 * field in tests/data/meta_bad.txt is refused with file: field: message. */
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/problem.h"
#include "common/strbuf.h"
#include "tests/test.h"

TEST(problem_good_roundtrip)
{
    Problem *p = NULL, *q = NULL;
    Error e;
    if (problem_load("tests/data/meta/good.json", &p, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s", e.msg);
        return -1;
    }
    CHECK(strcmp(p->name, "c/stencil2d/jacobi5-f32-003") == 0);
    CHECK(p->n_params == 2 && p->n_args == 5 && p->n_configs == 3);
    CHECK(p->args[0].dtype == DT_F32 && p->args[0].role == ROLE_IN && p->args[0].ndim == 2);
    CHECK(p->args[0].fill.kind == FILL_UNIFORM && p->args[0].fill.lo == -1.0);
    const ProblemConfig *edge = problem_find_config(p, "edge");
    CHECK(edge && edge->params[1] == 7);
    CHECK(problem_scalar_value(&p->args[2], edge) == 0.5);
    CHECK(problem_scalar_value(&p->args[2], problem_find_config(p, "small")) == 0.25);
    int64_t n = 0;
    CHECK(problem_buffer_count(p, &p->args[0], problem_find_config(p, "large"), &n, &e) == 0 && n == 4096 * 4096);
    /* the C reference's own cost defaults to the problem's, and a given one
     * survives the round trip */
    int64_t rf = 0, rb = 0;
    CHECK(problem_reference_cost(p, problem_find_config(p, "small"), &rf, &rb, &e) == 0 && rf == 5 * 64 * 64 &&
          rb == 8 * 64 * 64);
    p->cost_ref_bytes = xstrdup("64*n*m");
    char *json = problem_to_json(p);
    CHECK(problem_parse(json, "roundtrip", &q, &e) == 0);
    CHECK(q && problem_reference_cost(q, problem_find_config(q, "small"), &rf, &rb, &e) == 0 &&
          rf == 5 * 64 * 64 && rb == 64 * 64 * 64);
    if (q) {
        char *json2 = problem_to_json(q);
        CHECK_MSG(strcmp(json, json2) == 0, "canonical form is not a fixed point");
        free(json2);
    }
    free(json);
    problem_free(p);
    problem_free(q);
    return 0;
}

/* A torch program: its parameters are in buffers filled by the reference
 * program ({"dist": "model"}), kept through the canonical round trip. */
TEST(problem_torch_model_fill)
{
    Problem *p = NULL, *q = NULL;
    Error e;
    if (problem_load("tests/data/meta/torch_good.json", &p, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s", e.msg);
        return -1;
    }
    const ProblemArg *w = problem_find_arg(p, "w.linear.weight");
    CHECK(w && w->role == ROLE_IN && w->fill.kind == FILL_MODEL && w->ndim == 2);
    CHECK(p->args[0].fill.kind == FILL_UNIFORM);
    char *json = problem_to_json(p);
    CHECK(strstr(json, "\"dist\":\t\"model\"") != NULL);
    CHECK(problem_parse(json, "roundtrip", &q, &e) == 0);
    if (q) {
        CHECK(problem_find_arg(q, "w.linear.bias")->fill.kind == FILL_MODEL);
        char *json2 = problem_to_json(q);
        CHECK_MSG(strcmp(json, json2) == 0, "canonical form is not a fixed point");
        free(json2);
    }
    free(json);
    problem_free(p);
    problem_free(q);
    return 0;
}

TEST(problem_bad_cases)
{
    char *text = NULL;
    Error e;
    if (file_read_all("tests/data/meta_bad.txt", 1 << 20, &text, NULL, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s", e.msg);
        return -1;
    }
    int cases = 0;
    char *cursor = text;
    while ((cursor = strstr(cursor, "\n### ")) != NULL) {
        char *expect = cursor + 5;
        char *nl = strchr(expect, '\n');
        if (!nl)
            break;
        *nl = '\0';
        char *json = nl + 1;
        char *next = strstr(json, "\n### ");
        char *body = next ? xstrndup(json, (size_t)(next - json)) : xstrdup(json);
        Problem *p = NULL;
        int rc = problem_parse(body, "bad/meta.json", &p, &e);
        CHECK_MSG(rc != 0, "accepted a bad meta.json (expected '%s')", expect);
        if (rc != 0) {
            CHECK_MSG(strncmp(e.msg, "bad/meta.json", 13) == 0, "error does not name the file: %s", e.msg);
            CHECK_MSG(strstr(e.msg, expect) != NULL, "error '%s' lacks '%s'", e.msg, expect);
        }
        problem_free(p);
        free(body);
        cases++;
        cursor = next ? next : json + strlen(json);
    }
    CHECK_MSG(cases >= 30, "only %d cases read", cases);
    free(text);
    return 0;
}

TEST(problem_missing_file)
{
    Problem *p = NULL;
    Error e;
    CHECK(problem_load("tests/data/meta/no-such.json", &p, &e) != 0);
    CHECK(strstr(e.msg, "no-such.json") && strstr(e.msg, "No such file"));
    return 0;
}

/* A candidate is timed on one config: the one with the most bytes in the
 * cost model, whatever order the configs come in. */
#include "harness/eval.h"
TEST(problem_timed_config_is_the_largest)
{
    Problem *p = NULL;
    Error e;
    if (problem_load("tests/data/meta/good.json", &p, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s", e.msg);
        return -1;
    }
    const ProblemConfig *order1[] = {problem_find_config(p, "small"), problem_find_config(p, "large"),
                                     problem_find_config(p, "edge")};
    const ProblemConfig *order2[] = {problem_find_config(p, "edge"), problem_find_config(p, "small")};
    CHECK(order1[0] && order1[1] && order1[2]);
    CHECK(eval_timed_config(p, order1, 3) == 1);
    int k = eval_timed_config(p, order2, 2);
    int64_t b0 = 0, b1 = 0;
    CHECK(problem_eval(p, order2[0], p->cost_bytes, &b0, NULL) == 0 &&
          problem_eval(p, order2[1], p->cost_bytes, &b1, NULL) == 0);
    CHECK_MSG(k == (b1 > b0 ? 1 : 0), "picked %d with bytes %lld, %lld", k, (long long)b0, (long long)b1);
    problem_free(p);
    return 0;
}
