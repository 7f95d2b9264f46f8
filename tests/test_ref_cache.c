/* The session's cache of whole trials: a hit gives back exactly the inputs
 * the candidate received (inout buffers as they were before the reference)
 * and exactly the outputs the reference wrote; nothing else is ever served
 * (another seed, config or program, a trial never finished); the cap is
 * honoured and comes from the environment when set. */
#include <stdlib.h>
#include <string.h>

#include "common/problem.h"
#include "harness/cref.h"
#include "harness/ref_cache.h"
#include "tests/test.h"

/* x in, z inout, y out: the reference sets y = 2x and z += 1 */
static const char *META =
    "{\"name\": \"c/test/scale\", \"lang\": \"c\", \"family\": \"test\", \"entry\": \"scale\","
    " \"params\": [\"n\"],"
    " \"args\": [{\"name\": \"x\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"in\"},"
    "          {\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"out\"},"
    "          {\"name\": \"z\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"inout\"},"
    "          {\"name\": \"n\", \"dtype\": \"i32\", \"role\": \"param\"}],"
    " \"configs\": [{\"name\": \"small\", \"n\": 100}, {\"name\": \"edge\", \"n\": 3},"
    "             {\"name\": \"large\", \"n\": 1000}],"
    " \"tolerance\": {\"atol\": 1e-6, \"rtol\": 1e-5},"
    " \"cost\": {\"flops\": \"n\", \"bytes\": \"12*n\"},"
    " \"provenance\": {\"generator\": \"test\", \"seed\": 1, \"license\": \"CC-BY-4.0\"}}";

/* What a reference would leave in b, taking 1.5 ms */
static void fake_reference_run(RefBuffers *b)
{
    const float *x = b->data[0];
    float *y = b->data[1], *z = b->data[2];
    for (int64_t i = 0; i < b->count[1]; i++) {
        y[i] = 2.0f * x[i];
        z[i] += 1.0f;
    }
    b->run_seconds = 0.0015;
}

/* One trial through the cache as eval.c runs it: 1 when served, 0 when
 * run (and kept if it fits); *keep says what begin answered. */
static int trial(RefCache *c, const Problem *p, const char *config, uint64_t seed, RefCacheKeep *keep)
{
    Error e;
    RefTrial t;
    const ProblemConfig *cf = problem_find_config(p, config);
    if (ref_cache_fetch(c, p, cf, seed, &t))
        return 1;
    RefBuffers b;
    if (cref_buffers_init(&b, p, cf, seed, &e) != 0)
        return -1;
    *keep = ref_cache_begin(c, p, cf, seed, &b);
    fake_reference_run(&b);
    ref_cache_finish(c, p, cf, seed, &b, NULL);
    cref_buffers_release(&b);
    return 0;
}

TEST(ref_cache_serves_only_its_own_trials)
{
    Error e;
    Problem *p = NULL;
    CHECK_MSG(problem_parse(META, "meta.json", &p, &e) == 0, "%s", e.msg);
    if (!p)
        return 0;
    unsetenv(REF_CACHE_ENV);
    const ProblemConfig *small = problem_find_config(p, "small"), *edge = problem_find_config(p, "edge");
    RefCache *c = ref_cache_new(&e);
    CHECK(c != NULL);
    if (!c)
        return 0;
    RefTrial kt;
    RefBuffers a, fresh;
    CHECK(cref_buffers_init(&a, p, small, 7, &e) == 0);
    CHECK(cref_buffers_init(&fresh, p, small, 7, &e) == 0);   /* the inputs of seed 7, untouched */
    CHECK(ref_cache_fetch(c, p, small, 7, &kt) == 0);            /* empty */
    CHECK(ref_cache_begin(c, p, small, 7, &a) == REF_CACHE_KEPT);
    CHECK(ref_cache_fetch(c, p, small, 7, &kt) == 0);            /* begun, not finished: not served */
    fake_reference_run(&a);
    ref_cache_finish(c, p, small, 7, &a, "cpu-test");
    CHECK(ref_cache_bytes(c) == 4 * 100 * 4);                   /* x, z before; y, z after */

    /* the same trial again: the very inputs (z before the reference), the
     * very outputs (z after it), the reference's time and kind */
    CHECK(ref_cache_fetch(c, p, small, 7, &kt) == 1);
    CHECK(kt.bytes[0] == 400 && kt.bytes[1] == 400 && kt.bytes[2] == 400 && kt.bytes[3] == 0);
    CHECK(kt.inputs[0] && memcmp(kt.inputs[0], fresh.data[0], 400) == 0);
    CHECK(kt.inputs[1] == NULL && kt.outputs[0] == NULL);
    CHECK(kt.inputs[2] && memcmp(kt.inputs[2], fresh.data[2], 400) == 0);
    CHECK(kt.outputs[1] && memcmp(kt.outputs[1], a.data[1], 400) == 0);
    CHECK(kt.outputs[2] && memcmp(kt.outputs[2], a.data[2], 400) == 0);
    CHECK(memcmp(a.data[2], fresh.data[2], 400) != 0);
    CHECK(kt.inputs[3] == NULL && kt.outputs[3] == NULL);
    CHECK(kt.run_seconds == 0.0015);
    CHECK(kt.kind && strcmp(kt.kind, "cpu-test") == 0);
    CHECK(ref_cache_begin(c, p, small, 7, &a) == REF_CACHE_HELD);
    cref_buffers_release(&fresh);

    /* another seed or config: not served; a finish without its begin keeps nothing */
    CHECK(ref_cache_fetch(c, p, small, 8, &kt) == 0);
    CHECK(ref_cache_fetch(c, p, edge, 7, &kt) == 0);
    ref_cache_finish(c, p, edge, 7, &a, NULL);
    CHECK(ref_cache_fetch(c, p, edge, 7, &kt) == 0);
    /* a begun trial whose reference failed is dropped by the next begin */
    RefBuffers d;
    CHECK(cref_buffers_init(&d, p, edge, 7, &e) == 0);
    CHECK(ref_cache_begin(c, p, edge, 7, &d) == REF_CACHE_KEPT);
    RefCacheKeep k = REF_CACHE_HELD;
    CHECK(trial(c, p, "small", 8, &k) == 0 && k == REF_CACHE_KEPT);
    ref_cache_finish(c, p, edge, 7, &d, NULL);
    CHECK(ref_cache_fetch(c, p, edge, 7, &kt) == 0);
    CHECK(ref_cache_bytes(c) == 2 * 1600);
    cref_buffers_release(&d);
    long hits, stores;
    ref_cache_counts(c, &hits, &stores);
    CHECK(hits == 1 && stores == 2);

    /* another program empties the cache: back on the first, nothing is held */
    Problem *q = NULL;
    char *other = strdup(META);
    memcpy(strstr(other, "c/test/scale"), "c/test/scalf", 12);
    CHECK(problem_parse(other, "meta.json", &q, &e) == 0);
    CHECK(ref_cache_fetch(c, q, problem_find_config(q, "small"), 7, &kt) == 0);
    CHECK(ref_cache_bytes(c) == 0);
    CHECK(ref_cache_fetch(c, p, small, 7, &kt) == 0);

    /* torch programs are kept alike (their inputs include the weights) */
    free(p->lang);
    p->lang = strdup("torch");
    CHECK(trial(c, p, "small", 7, &k) == 0 && k == REF_CACHE_KEPT);
    CHECK(ref_cache_fetch(c, p, small, 7, &kt) == 1);
    CHECK(memcmp(kt.outputs[1], a.data[1], 400) == 0);

    /* the cap: 3 kB holds one trial of "small" (1600 bytes), not two,
     * nor one of "large" (16000) */
    ref_cache_free(c);
    c = ref_cache_new(&e);
    ref_cache_set_cap(c, 3000);
    CHECK(trial(c, p, "large", 1, &k) == 0 && k == REF_CACHE_TOO_LARGE);
    CHECK(trial(c, p, "large", 1, &k) == 0);
    CHECK(trial(c, p, "small", 1, &k) == 0 && k == REF_CACHE_KEPT);
    CHECK(trial(c, p, "small", 2, &k) == 0 && k == REF_CACHE_FULL);
    CHECK(trial(c, p, "small", 1, &k) == 1);
    CHECK(trial(c, p, "small", 2, &k) == 0);
    CHECK(ref_cache_bytes(c) == 1600 && ref_cache_bytes(c) <= ref_cache_cap(c));
    ref_cache_free(c);

    /* the cap from the machine: a quarter of its memory within [1, 32] GiB;
     * from the environment: exactly that many MiB (0 keeps nothing) */
    c = ref_cache_new(&e);
    CHECK(ref_cache_cap(c) >= REF_CACHE_MIN_BYTES && ref_cache_cap(c) <= REF_CACHE_MAX_BYTES);
    ref_cache_free(c);
    setenv(REF_CACHE_ENV, "3", 1);
    c = ref_cache_new(&e);
    CHECK(c && ref_cache_cap(c) == 3LL << 20);
    ref_cache_free(c);
    setenv(REF_CACHE_ENV, "0", 1);
    c = ref_cache_new(&e);
    CHECK(c && ref_cache_cap(c) == 0);
    CHECK(trial(c, p, "edge", 1, &k) == 0 && k == REF_CACHE_TOO_LARGE);
    CHECK(trial(c, p, "edge", 1, &k) == 0);
    ref_cache_free(c);
    setenv(REF_CACHE_ENV, "4G", 1);
    c = ref_cache_new(&e);
    CHECK(c == NULL && strstr(e.msg, REF_CACHE_ENV) && strstr(e.msg, "4G"));
    ref_cache_free(c);
    unsetenv(REF_CACHE_ENV);

    cref_buffers_release(&a);
    problem_free(q);
    problem_free(p);
    free(other);
    return 0;
}

TEST(cref_buffers_alloc_maps_without_drawing)
{
    Error e;
    Problem *p = NULL;
    CHECK_MSG(problem_parse(META, "meta.json", &p, &e) == 0, "%s", e.msg);
    if (!p)
        return 0;
    const ProblemConfig *small = problem_find_config(p, "small");
    RefBuffers a, b;
    CHECK(cref_buffers_alloc(&a, p, small, &e) == 0);
    CHECK(cref_buffers_init(&b, p, small, 7, &e) == 0);
    static const float zero[100];
    for (int i = 0; i < 3; i++)
        CHECK(a.count[i] == b.count[i] && memcmp(a.data[i], zero, sizeof zero) == 0);
    CHECK(memcmp(a.values, b.values, 8 * (size_t)p->n_args) == 0);
    cref_buffers_release(&a);
    cref_buffers_release(&b);
    problem_free(p);
    return 0;
}
