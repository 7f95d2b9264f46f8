/* Expression evaluator: values, precedence, min/max, and every refusal.
 * Cases live in tests/data/expr_cases.txt. */
#include <stdlib.h>
#include <string.h>

#include "common/expr.h"
#include "common/fileio.h"
#include "tests/test.h"

TEST(expr_cases)
{
    static const char *const names[] = {"n", "m", "k", "big"};
    static const int64_t values[] = {64, 7, 3, 4611686018427387904LL};
    ExprEnv env = {names, values, 4};
    char *text = NULL;
    Error e;
    if (file_read_all("tests/data/expr_cases.txt", 1 << 20, &text, NULL, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s", e.msg);
        return -1;
    }
    int cases = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !line[0])
            continue;
        /* "expr => value" or "expr => error: substring" */
        char *arrow = strstr(line, " => ");
        CHECK_MSG(arrow != NULL, "malformed case line: %s", line);
        if (!arrow)
            continue;
        *arrow = '\0';
        const char *want = arrow + 4;
        int64_t v = 0;
        int rc = expr_eval(line, &env, &v, &e);
        cases++;
        if (strncmp(want, "error: ", 7) == 0) {
            CHECK_MSG(rc != 0, "'%s' should fail, gave %lld", line, (long long)v);
            if (rc != 0)
                CHECK_MSG(strstr(e.msg, want + 7) != NULL, "'%s': error '%s' lacks '%s'", line, e.msg, want + 7);
        } else {
            CHECK_MSG(rc == 0, "'%s' failed: %s", line, rc ? e.msg : "");
            CHECK_MSG(rc != 0 || v == strtoll(want, NULL, 10), "'%s' = %lld, want %s", line, (long long)v, want);
        }
    }
    CHECK(cases >= 20);
    free(text);
    return 0;
}

TEST(expr_check_mode)
{
    static const char *const names[] = {"n"};
    ExprEnv env = {names, NULL, 1};
    Error e;
    CHECK(expr_check("n/(n-n) + max(n, 2)", &env, &e) == 0); /* values ignored in check mode */
    CHECK(expr_check("n + q", &env, &e) != 0 && strstr(e.msg, "unknown name 'q'"));
    CHECK(expr_check("(n", &env, &e) != 0);
    return 0;
}
