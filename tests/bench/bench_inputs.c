/* bench_inputs.c — input generation for the large configs (make bench).
 *
 *   bench-inputs [N]
 *
 * Times inputs_fill on N elements (default 32M) for the fills that
 * dominated a large config's evaluation before 2026-12-07 (a partition of
 * CSR offsets, a sorted f32 and a sorted i64 fill), and beside each, in
 * the same run, its peer: the same draws sorted by glibc qsort, which is
 * what inputs_fill did then.  Prints one markdown table row per fill. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/strbuf.h"
#include "harness/inputs.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static DType g_type;
static int cmp_elem(const void *a, const void *b)
{
    double x = inputs_get(g_type, a, 0), y = inputs_get(g_type, b, 0);
    return (x > y) - (x < y);
}

static Problem *parse(const char *dtype, const char *fill, const char *label)
{
    char *meta = xasprintf(
        "{\"name\": \"c/bench/%s\", \"lang\": \"c\", \"family\": \"bench\", \"entry\": \"f\", \"params\": [\"n\"],"
        " \"args\": [{\"name\": \"x\", \"dtype\": \"%s\", \"shape\": [\"n\"], \"role\": \"in\", \"fill\": %s},"
        "            {\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"out\"},"
        "            {\"name\": \"n\", \"dtype\": \"i64\", \"role\": \"param\"}],"
        " \"configs\": [{\"name\": \"small\", \"n\": 3}, {\"name\": \"edge\", \"n\": 1}, {\"name\": \"large\", \"n\": 5}],"
        " \"tolerance\": {\"atol\": 0, \"rtol\": 0}, \"cost\": {\"flops\": \"n\", \"bytes\": \"n\"},"
        " \"provenance\": {\"license\": \"CC-BY-4.0\"}}",
        label, dtype, fill);
    Problem *p = NULL;
    Error e;
    if (problem_parse(meta, label, &p, &e) != 0) {
        fprintf(stderr, "bench-inputs: %s: %s\n", label, e.msg);
        exit(1);
    }
    free(meta);
    return p;
}

/* Fills `sorted_fill` (the fill as the catalog has it) and times it; the
 * peer fills `plain_fill` (the same draws unsorted, or for a partition the
 * unsorted cuts) and qsorts them. */
static void row(const char *what, const char *dtype, const char *sorted_fill, const char *plain_fill, int64_t n)
{
    Problem *s = parse(dtype, sorted_fill, "sorted"), *u = parse(dtype, plain_fill, "plain");
    const ProblemConfig *c = problem_find_config(s, "large");
    size_t size = dtype_size(s->args[0].dtype);
    void *a = xmalloc(size * (size_t)n), *b = xmalloc(size * (size_t)n);
    memset(a, 0, size * (size_t)n);
    memset(b, 0, size * (size_t)n);
    Error e;
    double t0 = now_s();
    inputs_fill(s, c, &s->args[0], 1, a, n, &e);
    double t1 = now_s();
    inputs_fill(u, problem_find_config(u, "large"), &u->args[0], 1, b, n, &e);
    g_type = u->args[0].dtype;
    qsort(b, (size_t)n, size, cmp_elem);
    double t2 = now_s();
    printf("| %s, %lld elements | %.2f s | %.2f s | %.1fx |\n", what, (long long)n, t1 - t0, t2 - t1,
           (t2 - t1) / (t1 - t0));
    free(a);
    free(b);
    problem_free(s);
    problem_free(u);
}

int main(int argc, char **argv)
{
    int64_t n = argc > 1 ? atoll(argv[1]) : 32 << 20;
    printf("| fill | inputs_fill | peer: the same draws, glibc qsort | ratio |\n| --- | --- | --- | --- |\n");
    row("partition of 4n (CSR offsets), i32", "i32", "{\"dist\": \"partition\", \"total\": \"4*n\"}",
        "{\"dist\": \"int\", \"lo\": 0, \"hi\": \"4*n+1\"}", n);
    row("sorted uniform f32", "f32", "{\"dist\": \"uniform\", \"lo\": -1, \"hi\": 1, \"sorted\": true}",
        "{\"dist\": \"uniform\", \"lo\": -1, \"hi\": 1}", n);
    row("sorted int i64", "i64", "{\"dist\": \"int\", \"lo\": 0, \"hi\": \"2*n\", \"sorted\": true}",
        "{\"dist\": \"int\", \"lo\": 0, \"hi\": \"2*n\"}", n);
    return 0;
}
