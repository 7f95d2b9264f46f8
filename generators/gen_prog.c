/* gen_prog.c — see gen_prog.h. */
#include "gen_prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const CONFIG_NAMES[4] = {"small", "edge", "edge-prime", "large"};

/* Splits s at `sep` into at most max fields (copies into buf). */
static int split(char *buf, size_t cap, const char *s, char sep, char **out, int max)
{
    snprintf(buf, cap, "%s", s);
    int n = 0;
    if (!*buf)
        return 0;
    for (char *q = buf; n < max;) {
        out[n++] = q;
        char *e = strchr(q, sep);
        if (!e)
            break;
        *e = '\0';
        q = e + 1;
    }
    return n;
}

/* Gives p the Prog's pair: kernel.cu, scratch buffers, launches, knobs. */
static void emit_pair(GenProgram *p, const Prog *pr)
{
    char buf[1024], fbuf[256], *items[24], *f[3];
    gen_cuda(p, "%s", pr->cuda);
    int n = split(buf, sizeof buf, pr->scratch ? pr->scratch : "", ';', items, 24);
    for (int i = 0; i < n; i++)
        if (split(fbuf, sizeof fbuf, items[i], ':', f, 3) == 3)
            gen_scratch(p, f[0], f[1], f[2]);
    for (int k = 0; k < PROG_MAX_LAUNCHES && pr->launches[k].kernel; k++) {
        const ProgLaunch *l = &pr->launches[k];
        gen_launch(p, l->kernel, l->grid, l->block, l->smem, l->args);
    }
    n = split(buf, sizeof buf, pr->knobs ? pr->knobs : "", ';', items, 24);
    for (int i = 0; i < n; i++) {
        char *eq = strchr(items[i], '=');
        if (eq) {
            *eq = '\0';
            gen_knob(p, items[i], eq + 1);
        }
    }
}

static int emit_prog(GenCtx *g, const Prog *pr)
{
    char buf[1024], fbuf[256], *items[24], *f[5];
    GenProgram *p = gen_begin(g, pr->variant, pr->entry);
    gen_describe(p, "%s", pr->desc);
    int n = split(buf, sizeof buf, pr->args, ';', items, 24);
    for (int i = 0; i < n; i++) {
        if (items[i][0] == '@') { /* a scalar, declared in pr->scalars */
            char sbuf[256], *sc[24], *sf[3];
            int ns = split(sbuf, sizeof sbuf, pr->scalars, ';', sc, 24);
            for (int j = 0; j < ns; j++)
                if (split(fbuf, sizeof fbuf, sc[j], ':', sf, 3) == 3 && strcmp(sf[0], items[i] + 1) == 0)
                    gen_scalar(p, sf[0], sf[1], strtod(sf[2], NULL));
            continue;
        }
        int k = split(fbuf, sizeof fbuf, items[i], ':', f, 4);
        gen_arg(p, f[0], f[1], f[2], k > 3 ? f[3] : NULL);
    }
    n = split(buf, sizeof buf, pr->fills, ';', items, 24);
    for (int i = 0; i < n; i++) {
        char *eq = strchr(items[i], '=');
        *eq = '\0';
        int k = split(fbuf, sizeof fbuf, eq + 1, ':', f, 3);
        if (strcmp(f[0], "sorted") == 0)
            gen_fill_sorted(p, items[i]);
        else if (strcmp(f[0], "partition") == 0 && k == 2)
            gen_fill_partition(p, items[i], f[1]);
        else if (strcmp(f[0], "int") == 0 && k == 3)
            gen_fill_int(p, items[i], f[1], f[2]);
        else if (k == 3)
            gen_fill_uniform(p, items[i], strtod(f[1], NULL), strtod(f[2], NULL));
    }
    for (int c = 0; c < 4; c++) {
        n = split(buf, sizeof buf, pr->configs[c], '|', items, 24);
        gen_config(p, CONFIG_NAMES[c], n ? items[0] : "");
        for (int i = 1; i < n; i++) { /* more edge configs, "name:assignments" */
            char *colon = strchr(items[i], ':');
            if (colon)
                *colon = '\0';
            gen_config(p, items[i], colon ? colon + 1 : "");
        }
    }
    if (pr->atol >= 0)
        gen_tolerance(p, pr->atol, pr->rtol);
    gen_cost(p, pr->flops, pr->bytes);
    gen_source(p, "%s", pr->src);
    if (pr->cuda)
        emit_pair(p, pr);
    return gen_end(p);
}

int prog_emit_all(GenCtx *g, const Prog *progs, int n)
{
    for (int i = 0; i < n; i++)
        if (emit_prog(g, &progs[i]) != 0)
            return -1;
    return 0;
}
