/* libFuzzer target for the meta.json loader: any byte string must either
 * parse into a Problem that re-serialises to a fixed point, or be refused
 * with a message naming the file; never crash, leak or read out of bounds.
 * Build and run: make fuzz (clang -fsanitize=fuzzer,address,undefined). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/problem.h"
#include "common/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = xstrndup((const char *)data, size);
    Problem *p = NULL;
    Error e;
    if (problem_parse(text, "fuzz/meta.json", &p, &e) == 0) {
        char *json = problem_to_json(p);
        Problem *q = NULL;
        if (problem_parse(json, "fuzz/canonical.json", &q, &e) != 0)
            abort(); /* what we write, we must read */
        char *json2 = problem_to_json(q);
        if (strcmp(json, json2) != 0)
            abort();
        free(json2);
        problem_free(q);
        free(json);
        problem_free(p);
    } else if (strncmp(e.msg, "fuzz/meta.json", 14) != 0) {
        abort(); /* every refusal names the file */
    }
    free(text);
    return 0;
}
