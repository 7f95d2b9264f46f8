/* The session's cache of C reference outputs: a hit gives back exactly the
 * outputs the reference wrote for those inputs, and nothing else is ever
 * served (another seed, config or program, a torch program). */
#include <stdlib.h>
#include <string.h>

#include "common/problem.h"
#include "harness/cref.h"
#include "harness/ref_cache.h"
#include "tests/test.h"

static const char *META =
    "{\"name\": \"c/test/scale\", \"lang\": \"c\", \"family\": \"test\", \"entry\": \"scale\","
    " \"params\": [\"n\"],"
    " \"args\": [{\"name\": \"x\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"in\"},"
    "          {\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"out\"},"
    "          {\"name\": \"n\", \"dtype\": \"i32\", \"role\": \"param\"}],"
    " \"configs\": [{\"name\": \"small\", \"n\": 100}, {\"name\": \"edge\", \"n\": 3},"
    "             {\"name\": \"large\", \"n\": 1000}],"
    " \"tolerance\": {\"atol\": 1e-6, \"rtol\": 1e-5},"
    " \"cost\": {\"flops\": \"n\", \"bytes\": \"8*n\"},"
    " \"provenance\": {\"generator\": \"test\", \"seed\": 1, \"license\": \"CC-BY-4.0\"}}";

/* What a reference would leave in b: y = 2x, taking 1.5 ms */
static void fake_reference_run(RefBuffers *b)
{
    const float *x = b->data[0];
    float *y = b->data[1];
    for (int64_t i = 0; i < b->count[1]; i++)
        y[i] = 2.0f * x[i];
    b->run_seconds = 0.0015;
}

TEST(ref_cache_serves_only_its_own_trials)
{
    Error e;
    Problem *p = NULL;
    CHECK_MSG(problem_parse(META, "meta.json", &p, &e) == 0, "%s", e.msg);
    if (!p)
        return 0;
    const ProblemConfig *small = problem_find_config(p, "small"), *edge = problem_find_config(p, "edge");
    RefCache *c = ref_cache_new();
    RefBuffers a, b;
    CHECK(cref_buffers_init(&a, p, small, 7, &e) == 0);
    CHECK(ref_cache_fetch(c, p, small, 7, &a) == 0);            /* empty */
    fake_reference_run(&a);
    ref_cache_store(c, p, small, 7, &a);

    /* the same trial again: fresh buffers (outputs poisoned) get the outputs */
    CHECK(cref_buffers_init(&b, p, small, 7, &e) == 0);
    CHECK(memcmp(b.data[1], a.data[1], 100 * sizeof(float)) != 0);
    CHECK(ref_cache_fetch(c, p, small, 7, &b) == 1);
    CHECK(memcmp(b.data[1], a.data[1], 100 * sizeof(float)) == 0);
    CHECK(b.run_seconds == 0.0015);
    cref_buffers_release(&b);

    /* another seed or config: not served */
    CHECK(cref_buffers_init(&b, p, small, 8, &e) == 0);
    CHECK(ref_cache_fetch(c, p, small, 8, &b) == 0);
    cref_buffers_release(&b);
    CHECK(cref_buffers_init(&b, p, edge, 7, &e) == 0);
    CHECK(ref_cache_fetch(c, p, edge, 7, &b) == 0);
    cref_buffers_release(&b);
    long hits, stores;
    ref_cache_counts(c, &hits, &stores);
    CHECK(hits == 1 && stores == 1);

    /* another program empties the cache: back on the first, nothing is held */
    Problem *q = NULL;
    char *other = strdup(META);
    memcpy(strstr(other, "c/test/scale"), "c/test/scalf", 12);
    CHECK(problem_parse(other, "meta.json", &q, &e) == 0);
    CHECK(cref_buffers_init(&b, q, problem_find_config(q, "small"), 7, &e) == 0);
    CHECK(ref_cache_fetch(c, q, problem_find_config(q, "small"), 7, &b) == 0);
    cref_buffers_release(&b);
    CHECK(cref_buffers_init(&b, p, small, 7, &e) == 0);
    CHECK(ref_cache_fetch(c, p, small, 7, &b) == 0);
    cref_buffers_release(&b);

    /* torch programs are never cached */
    free(p->lang);
    p->lang = strdup("torch");
    ref_cache_store(c, p, small, 7, &a);
    CHECK(cref_buffers_init(&b, p, small, 7, &e) == 0);
    CHECK(ref_cache_fetch(c, p, small, 7, &b) == 0);
    cref_buffers_release(&b);

    cref_buffers_release(&a);
    ref_cache_free(c);
    problem_free(q);
    problem_free(p);
    free(other);
    return 0;
}
