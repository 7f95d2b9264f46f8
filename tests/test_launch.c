/* launch.json loader: a good plan parses and evaluates per config; malformed
 * fields are refused with file: field: message; geometry limits are checked. */
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/launch.h"
#include "common/strbuf.h"
#include "tests/test.h"

static Problem *good_problem(TestCtx *t)
{
    Problem *p = NULL;
    Error e;
    if (problem_load("tests/data/meta/good.json", &p, &e) != 0)
        test_fail(t, __FILE__, __LINE__, "%s", e.msg);
    return p;
}

TEST(launch_good)
{
    Problem *p = good_problem(t);
    LaunchPlan *lp = NULL;
    Error e;
    if (!p)
        return -1;
    CHECK_MSG(launch_load("tests/data/launch/good.json", p, &lp, &e) == 0, "%s", e.msg);
    if (!lp)
        return -1;
    CHECK(lp->n_scratch == 1 && lp->n_launches == 2);
    CHECK(lp->launches[0].args[1].kind == LARG_SCRATCH && lp->launches[0].args[0].kind == LARG_PROBLEM);
    CHECK(lp->launches[1].args[2].kind == LARG_PROBLEM && lp->launches[1].args[3].kind == LARG_EXPR);
    LaunchGeometry g;
    CHECK(launch_geometry(lp, 0, p, problem_find_config(p, "edge"), &g, &e) == 0);
    CHECK(g.grid[0] == 1 && g.grid[1] == 1 && g.grid[2] == 1 && g.block[0] == 32 && g.block[1] == 8);
    CHECK(launch_geometry(lp, 0, p, problem_find_config(p, "large"), &g, &e) == 0);
    CHECK(g.grid[0] == 128 && g.grid[1] == 512);
    int64_t n;
    CHECK(launch_scratch_count(lp, 0, p, problem_find_config(p, "small"), &n, &e) == 0 && n == 64 * 64);
    launch_free(lp);
    /* Limits are checked per config. */
    const char *too_big = "{\"launches\": [{\"kernel\": \"k\", \"grid\": [1], \"block\": [64, 32], \"args\": []}]}";
    CHECK(launch_parse(too_big, "big.json", p, &lp, &e) == 0);
    CHECK(launch_geometry(lp, 0, p, problem_find_config(p, "small"), &g, &e) != 0 && strstr(e.msg, "2048 threads"));
    launch_free(lp);
    const char *smem = "{\"launches\": [{\"kernel\": \"k\", \"grid\": [1], \"block\": [32], \"smem\": \"n*m*4\","
                       " \"args\": []}]}";
    CHECK(launch_parse(smem, "smem.json", p, &lp, &e) == 0);
    CHECK(launch_geometry(lp, 0, p, problem_find_config(p, "small"), &g, &e) == 0);
    CHECK(launch_geometry(lp, 0, p, problem_find_config(p, "large"), &g, &e) != 0 && strstr(e.msg, "shared memory"));
    launch_free(lp);
    const char *zero = "{\"launches\": [{\"kernel\": \"k\", \"grid\": [\"n-64\"], \"block\": [32], \"args\": []}]}";
    CHECK(launch_parse(zero, "zero.json", p, &lp, &e) == 0);
    CHECK(launch_geometry(lp, 0, p, problem_find_config(p, "small"), &g, &e) != 0 && strstr(e.msg, "grid[0] = 0"));
    launch_free(lp);
    problem_free(p);
    return 0;
}

TEST(launch_bad_cases)
{
    Problem *p = good_problem(t);
    char *text = NULL;
    Error e;
    if (!p || file_read_all("tests/data/launch_bad.txt", 1 << 20, &text, NULL, &e) != 0)
        return -1;
    int cases = 0;
    char *cursor = text;
    while ((cursor = strstr(cursor, "\n### ")) != NULL) {
        char *expect = cursor + 5, *nl = strchr(expect, '\n');
        if (!nl)
            break;
        *nl = '\0';
        char *json = nl + 1, *next = strstr(json, "\n### ");
        char *body = next ? xstrndup(json, (size_t)(next - json)) : xstrdup(json);
        LaunchPlan *lp = NULL;
        int rc = launch_parse(body, "bad/launch.json", p, &lp, &e);
        CHECK_MSG(rc != 0, "accepted a bad launch.json (expected '%s')", expect);
        if (rc != 0)
            CHECK_MSG(strncmp(e.msg, "bad/launch.json: ", 17) == 0 && strstr(e.msg, expect), "error '%s' lacks '%s'",
                      e.msg, expect);
        launch_free(lp);
        free(body);
        cases++;
        cursor = next ? next : json + strlen(json);
    }
    CHECK(cases >= 12);
    free(text);
    problem_free(p);
    return 0;
}
