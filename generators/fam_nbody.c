/* nbody — all-pairs gravitational (and Coulomb) interactions by direct
 * summation with Plummer softening: accelerations, forces with an explicit
 * self exclusion, potentials, accelerations with potentials, one
 * kick-drift leapfrog step, several steps in place, Coulomb forces between
 * signed charges, accelerations with jerks (Hermite schemes), targets
 * against a separate set of sources, and a smoothly cut-off interaction.
 * Layouts: 3D structure-of-arrays, 3D array-of-structures (x, y, z, m),
 * 2D structure-of-arrays and 2D array-of-structures (x, y, m); f32 and f64.
 * G is a scalar that configs scale with 1/n so accelerations stay O(1). */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

typedef struct Layout {
    const char *tag;
    int dim;   /* 2 or 3 */
    int aos;   /* positions and mass interleaved in `pos` (stride dim + 1) */
    int f64;
} Layout;

static const Layout LAYOUTS[] = {
    {"3d-soa-f32", 3, 0, 0}, {"3d-soa-f64", 3, 0, 1}, {"3d-aos-f32", 3, 1, 0},
    {"3d-aos-f64", 3, 1, 1}, {"2d-soa-f32", 2, 0, 0}, {"2d-aos-f64", 2, 1, 1},
};

enum { ACC, FORCE, POT, ACC_POT, LEAPFROG, LEAPFROG_K, COULOMB, JERK, TARGETS, CUTOFF, N_OPS };
static const char *const OP_TAGS[] = {"acc",       "force",     "potential", "acc-pot", "leapfrog",
                                      "leapfrog-steps", "coulomb", "acc-jerk", "targets", "cutoff"};
static const char *const C[] = {"x", "y", "z"};

typedef struct Ctx {
    const Layout *L;
    const char *T, *F;  /* element type, float suffix */
    StrBuf *s;
} Ctx;

/* Component c of particle `idx` in array set `base` ("" for positions,
 * "v" for velocities); the mass when c == dim. */
static void comp(char *buf, const Ctx *x, const char *base, const char *idx, int c)
{
    const Layout *L = x->L;
    if (L->aos) {
        int stride = *base ? L->dim : L->dim + 1;
        const char *arr = *base ? "vel" : "pos";
        if (c == 0)
            snprintf(buf, 64, "%s[%d * %s]", arr, stride, idx);
        else
            snprintf(buf, 64, "%s[%d * %s + %d]", arr, stride, idx, c);
    } else if (c == L->dim) {
        snprintf(buf, 64, "m[%s]", idx);
    } else {
        snprintf(buf, 64, "%s%s[%s]", base, C[c], idx);
    }
}

/* "const T *x, const T *y, const T *z, const T *m" or "const T *pos". */
static void in_params(StrBuf *sig, const Ctx *x, int with_mass, const char *prefix)
{
    if (x->L->aos) {
        sb_printf(sig, "const %s *pos", x->T);
        return;
    }
    for (int c = 0; c < x->L->dim; c++)
        sb_printf(sig, "%sconst %s *%s%s", c ? ", " : "", x->T, prefix, C[c]);
    if (with_mass)
        sb_printf(sig, ", const %s *m", x->T);
}

/* Output vector arrays: "T *ax, T *ay, T *az" or "T *acc". */
static void out_params(StrBuf *sig, const Ctx *x, const char *name, const char *soa_prefix)
{
    if (x->L->aos) {
        sb_printf(sig, ", %s *%s", x->T, name);
        return;
    }
    for (int c = 0; c < x->L->dim; c++)
        sb_printf(sig, ", %s *%s%s", x->T, soa_prefix, C[c]);
}

static void declare_in(GenProgram *p, const Ctx *x, const char *dt, const char *n, const char *prefix, int mass)
{
    char shape[32];
    if (x->L->aos) {
        snprintf(shape, sizeof shape, "%s,%d", n, x->L->dim + 1);
        gen_arg(p, "pos", dt, "in", shape);
        gen_fill_uniform(p, "pos", -1.0, 1.0);
        return;
    }
    for (int c = 0; c < x->L->dim; c++) {
        char name[16];
        snprintf(name, sizeof name, "%s%s", prefix, C[c]);
        gen_arg(p, name, dt, "in", n);
    }
    if (mass) {
        gen_arg(p, "m", dt, "in", n);
        gen_fill_uniform(p, "m", 0.5, 1.5);
    }
}

static void declare_out(GenProgram *p, const Ctx *x, const char *dt, const char *n, const char *name,
                        const char *soa_prefix, const char *role)
{
    char shape[32];
    if (x->L->aos) {
        snprintf(shape, sizeof shape, "%s,%d", n, x->L->dim);
        gen_arg(p, name, dt, role, shape);
        return;
    }
    for (int c = 0; c < x->L->dim; c++) {
        char nm[16];
        snprintf(nm, sizeof nm, "%s%s", soa_prefix, C[c]);
        gen_arg(p, nm, dt, role, n);
    }
}

/* Stores component c of a per-particle vector output. */
static void store(const Ctx *x, const char *name, const char *soa_prefix, int c, const char *idx, const char *val)
{
    if (x->L->aos) {
        if (c == 0)
            sb_printf(x->s, "%s[%d * %s] = %s;\n", name, x->L->dim, idx, val);
        else
            sb_printf(x->s, "%s[%d * %s + %d] = %s;\n", name, x->L->dim, idx, c, val);
    } else {
        sb_printf(x->s, "%s%s[%s] = %s;\n", soa_prefix, C[c], idx, val);
    }
}

static void indent(const Ctx *x, int depth)
{
    for (int k = 0; k < depth; k++)
        sb_append(x->s, "    ");
}

/* "T xi = ..., yi = ..., zi = ...;" for particle i. */
static void load_i(const Ctx *x, int depth)
{
    char b[64];
    indent(x, depth);
    sb_printf(x->s, "%s ", x->T);
    for (int c = 0; c < x->L->dim; c++) {
        comp(b, x, "", "i", c);
        sb_printf(x->s, "%s%si = %s", c ? ", " : "", C[c], b);
    }
    sb_append(x->s, ";\n");
}

/* "T dx = x[j] - xi, ...;" and "T r2 = dx * dx + ... + eps2;" */
static void diff_j(const Ctx *x, int depth, const char *j, int with_eps)
{
    char b[64];
    indent(x, depth);
    sb_printf(x->s, "%s ", x->T);
    for (int c = 0; c < x->L->dim; c++) {
        comp(b, x, "", j, c);
        sb_printf(x->s, "%sd%s = %s - %si", c ? ", " : "", C[c], b, C[c]);
    }
    sb_append(x->s, ";\n");
    indent(x, depth);
    sb_printf(x->s, "%s r2 = ", x->T);
    for (int c = 0; c < x->L->dim; c++)
        sb_printf(x->s, "%sd%s * d%s", c ? " + " : "", C[c], C[c]);
    sb_append(x->s, with_eps ? " + eps2;\n" : ";\n");
}

static void zero_acc(const Ctx *x, int depth, const char *prefix)
{
    indent(x, depth);
    sb_printf(x->s, "%s ", x->T);
    for (int c = 0; c < x->L->dim; c++)
        sb_printf(x->s, "%s%s%s = 0", c ? ", " : "", prefix, C[c]);
    sb_append(x->s, ";\n");
}

static void add_acc(const Ctx *x, int depth, const char *prefix, const char *w)
{
    for (int c = 0; c < x->L->dim; c++) {
        indent(x, depth);
        sb_printf(x->s, "%s%s += %s * d%s;\n", prefix, C[c], w, C[c]);
    }
}

/* The inner loop over j accumulating s{x,y,z} += m_j d / r^3 (softened). */
static void accel_loop(const Ctx *x, int depth, int skip_self)
{
    char b[64];
    zero_acc(x, depth, "s");
    indent(x, depth);
    sb_append(x->s, "for (int j = 0; j < n; j++) {\n");
    if (skip_self) {
        indent(x, depth + 1);
        sb_append(x->s, "if (j == i)\n");
        indent(x, depth + 2);
        sb_append(x->s, "continue;\n");
    }
    diff_j(x, depth + 1, "j", 1);
    indent(x, depth + 1);
    sb_printf(x->s, "%s inv = 1 / sqrt%s(r2);\n", x->T, x->F);
    comp(b, x, "", "j", x->L->dim);
    indent(x, depth + 1);
    sb_printf(x->s, "%s w = %s * inv * inv * inv;\n", x->T, b);
    add_acc(x, depth + 1, "s", "w");
    indent(x, depth);
    sb_append(x->s, "}\n");
}

static void configs(GenProgram *p, int op)
{
    if (op == TARGETS) {
        gen_config(p, "small", "nt=700,ns=300,G=0.003");
        gen_config(p, "edge", "nt=1,ns=1,G=1");
        gen_config(p, "edge-prime", "nt=37,ns=61,G=0.016");
        gen_config(p, "large", "nt=262144,ns=16384,G=0.00006");
    } else if (op == LEAPFROG_K) {
        gen_config(p, "small", "n=512,steps=3,G=0.002");
        gen_config(p, "edge", "n=1,steps=1,G=1");
        gen_config(p, "edge-prime", "n=61,steps=2,G=0.016");
        gen_config(p, "large", "n=32768,steps=2,G=0.00003");
    } else {
        const char *g = op == COULOMB ? "k" : "G";
        char b[64];
        snprintf(b, sizeof b, "n=512,%s=0.002", g);
        gen_config(p, "small", b);
        snprintf(b, sizeof b, "n=1,%s=1", g);
        gen_config(p, "edge", b);
        snprintf(b, sizeof b, "n=61,%s=0.016", g);
        gen_config(p, "edge-prime", b);
        snprintf(b, sizeof b, "n=65536,%s=0.000015", g);
        gen_config(p, "large", b);
    }
}

/* ---- the pair ----
 *
 * The kernels are the generated C bodies, run by one thread per particle
 * (target): the particle loop's header becomes the thread's index, the
 * constants before it (eps2, rc2) stay, and every thread sums over all j
 * as the C loop does (the warp reads each x[j] together: a broadcast).
 * The in-place multi-step leapfrog unrolls NBODY_LAUNCHES steps of two
 * launches each (accelerations into a scratch array, then kick and drift;
 * a launch past `steps` returns at once); any further steps run in one
 * block with barriers between the phases. */

/* The largest `steps` of the leapfrog-steps configs. */
#define NBODY_LAUNCHES 3

/* Appends text with every line's first `cut` spaces removed, or `cut`
 * spaces added when cut < 0. */
static void put_shifted(StrBuf *k, const char *text, size_t len, int cut)
{
    const char *q = text, *end = text + len;
    while (q < end) {
        const char *nl = memchr(q, '\n', (size_t)(end - q));
        const char *stop = nl ? nl + 1 : end;
        if (cut < 0 && q + 1 < stop)
            sb_printf(k, "%*s", -cut, "");
        for (int c = 0; c < cut && q < stop && *q == ' '; c++)
            q++;
        sb_append_n(k, q, (size_t)(stop - q));
        q = stop;
    }
}

/* `extern "C" __global__ void name(params)` with the C parameter list's
 * pointers restrict-qualified when `restrict_ptrs`, wrapped, and "{\n". */
static void put_head(StrBuf *k, const char *name, const char *params, size_t len, int restrict_ptrs)
{
    StrBuf line = STRBUF_INIT;
    sb_printf(&line, "extern \"C\" __global__ void %s(", name);
    for (size_t c = 0; c < len; c++) {
        char ch = params[c];
        if (ch == '\n') { /* a wrapped C signature: rejoin */
            sb_putc(&line, ' ');
            continue;
        }
        if (ch == ' ' && (c == 0 || params[c - 1] == ' ' || params[c - 1] == '\n'))
            continue;
        if (restrict_ptrs && ch == ' ' && c + 1 < len && params[c + 1] == '*') {
            sb_append(&line, " *__restrict__ ");
            c++;
            continue;
        }
        sb_putc(&line, ch);
    }
    sb_append(&line, ")");
    tmpl_put_wrapped(k, line.data);
    sb_append(k, "\n{\n");
    sb_release(&line);
}

/* The names of a C parameter list, comma-separated, into out. */
static void param_names(StrBuf *out, const char *params, size_t len)
{
    const char *q = params, *end = params + len;
    while (q < end) {
        const char *comma = memchr(q, ',', (size_t)(end - q));
        const char *stop = comma ? comma : end, *nm = stop;
        while (nm > q && (nm[-1] == '_' || (nm[-1] >= 'a' && nm[-1] <= 'z') || (nm[-1] >= 'A' && nm[-1] <= 'Z') ||
                          (nm[-1] >= '0' && nm[-1] <= '9')))
            nm--;
        if (out->len)
            sb_putc(out, ',');
        sb_append_n(out, nm, (size_t)(stop - nm));
        q = comma ? comma + 1 : end;
    }
}

/* In the C text `src`, the function `name`: its parameter list
 * [*params, *params + *plen) and its body between the braces. */
static void find_function(const char *src, const char *name, const char **params, size_t *plen, const char **body,
                          size_t *blen)
{
    char head[64];
    snprintf(head, sizeof head, "void %s(", name);
    const char *f = strstr(src, head);
    *params = f + strlen(head);
    const char *close = strstr(*params, ")\n{\n");
    *plen = (size_t)(close - *params);
    *body = close + 4;
    const char *end = strstr(*body, "\n}\n");
    *blen = (size_t)(end + 1 - *body);
}

/* Appends a C loop body as a kernel body: the lines before the particle
 * loop `loop` ("    for (int i = 0; i < n; i++) {\n"), the thread's index
 * var < bound (and `gate`, an extra early-return condition, if any), then
 * the loop's statements one level out. */
static void put_thread_body(StrBuf *k, const char *body, size_t blen, const char *loop, const char *var,
                            const char *bound, const char *gate)
{
    const char *l = strstr(body, loop);
    const char *inner = l + strlen(loop), *tail = body + blen - strlen("    }\n");
    sb_append_n(k, body, (size_t)(l - body));
    sb_printf(k, "    const int %s = blockIdx.x * blockDim.x + threadIdx.x;\n", var);
    sb_printf(k, "    if (%s%s%s >= %s)\n        return;\n", gate ? gate : "", gate ? " || " : "", var, bound);
    put_shifted(k, inner, (size_t)(tail - inner), 4);
}

static void emit_cuda(GenProgram *p, int op, const Layout *L, const char *entry, const char *src)
{
    StrBuf *k = gen_cuda_src(p);
    const char *params, *body;
    size_t plen, blen;
    StrBuf names = STRBUF_INIT;
    /* The program's comment (after the includes) opens kernel.cu too. */
    const char *doc = strstr(src, "/* "), *doc_end = strstr(doc, " */\n");
    if (op != LEAPFROG_K) {
        find_function(src, entry, &params, &plen, &body, &blen);
        param_names(&names, params, plen);
        sb_append_n(k, doc, (size_t)(doc_end - doc));
        sb_printf(k, "\n * One thread per %s, summing over all %s. */\n", op == TARGETS ? "target" : "particle",
                  op == TARGETS ? "sources" : "particles j");
        put_head(k, entry, params, plen, 1);
        if (op == TARGETS)
            put_thread_body(k, body, blen, "    for (int t = 0; t < nt; t++) {\n", "t", "nt", NULL);
        else
            put_thread_body(k, body, blen, "    for (int i = 0; i < n; i++) {\n", "i", "n", NULL);
        sb_append(k, "}\n");
        gen_launch(p, entry, op == TARGETS ? "(nt+255)/256" : "(n+255)/256", "256", NULL, names.data);
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "one-particle-per-thread, all pairs");
        sb_release(&names);
        return;
    }

    /* leapfrog-steps: the accelerations helper and the step's update loop. */
    const char *hp, *hb, *mp, *mb;
    size_t hplen, hblen, mplen, mblen;
    find_function(src, "accelerations", &hp, &hplen, &hb, &hblen);
    find_function(src, entry, &mp, &mplen, &mb, &mblen);
    const char *upd = strstr(mb, "        for (int i = 0; i < n; i++) {\n");
    upd = strchr(upd, '\n') + 1;
    const char *upd_end = strstr(upd, "        }\n    }\n");
    const char *ty = L->f64 ? "double" : "float";
    char sc[16];
    snprintf(sc, sizeof sc, "n*%d", L->dim);
    gen_scratch(p, "acc", L->f64 ? "f64" : "f32", sc);

    sb_append_n(k, doc, (size_t)(doc_end - doc));
    sb_printf(k, "\n * Steps 0..%d: one launch of each kernel below per step (one thread per\n"
                 " * particle; a launch past `steps` returns at once); leapfrog_tail runs any\n"
                 " * further steps in one block. */\n\n",
              NBODY_LAUNCHES - 1);
    /* accelerations(..., acc, G, eps, n, t, steps) */
    sb_append(k, "/* acc = the softened accelerations at the current positions, for step t. */\n");
    StrBuf ps = STRBUF_INIT;
    sb_append_n(&ps, hp, hplen);
    sb_append(&ps, ", int t, int steps");
    put_head(k, "accelerations", ps.data, ps.len, 1);
    put_thread_body(k, hb, hblen, "    for (int i = 0; i < n; i++) {\n", "i", "n", "t >= steps");
    sb_append(k, "}\n\n");
    /* kick_drift(<program params>, acc, t) */
    sb_append(k, "/* Step t's kick v += dt a and drift r += dt v. */\n");
    sb_release(&ps);
    sb_append_n(&ps, mp, mplen);
    sb_printf(&ps, ", const %s *acc, int t", ty);
    put_head(k, "kick_drift", ps.data, ps.len, 1);
    sb_append(k, "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (t >= steps || i >= n)\n        return;\n");
    put_shifted(k, upd, (size_t)(upd_end - upd), 8);
    sb_append(k, "}\n\n");
    /* leapfrog_tail(<program params>, acc, first) */
    sb_append(k, "/* Steps first..steps-1 in one block: all accelerations, a barrier, then\n"
                 " * the kick and drift, a barrier. */\n");
    sb_release(&ps);
    sb_append_n(&ps, mp, mplen);
    sb_printf(&ps, ", %s *acc, int first", ty);
    put_head(k, "leapfrog_tail", ps.data, ps.len, 0);
    const char *hl = strstr(hb, "    for (int i = 0; i < n; i++) {\n");
    const char *hin = hl + strlen("    for (int i = 0; i < n; i++) {\n"), *htail = hb + hblen - strlen("    }\n");
    sb_append_n(k, hb, (size_t)(hl - hb));
    sb_append(k, "    for (int step = first; step < steps; step++) {\n"
                 "        for (int i = threadIdx.x; i < n; i += blockDim.x) {\n");
    put_shifted(k, hin, (size_t)(htail - hin), -4);
    sb_append(k, "        }\n        __syncthreads();\n"
                 "        for (int i = threadIdx.x; i < n; i += blockDim.x) {\n");
    put_shifted(k, upd, (size_t)(upd_end - upd), 0);
    sb_append(k, "        }\n        __syncthreads();\n    }\n}\n");
    sb_release(&ps);

    StrBuf hn = STRBUF_INIT;
    param_names(&hn, hp, hplen);
    param_names(&names, mp, mplen);
    char args[256];
    for (int t = 0; t < NBODY_LAUNCHES; t++) {
        snprintf(args, sizeof args, "%s,%d,steps", hn.data, t);
        gen_launch(p, "accelerations", "(n+255)/256", "256", NULL, args);
        snprintf(args, sizeof args, "%s,acc,%d", names.data, t);
        gen_launch(p, "kick_drift", "(n+255)/256", "256", NULL, args);
    }
    snprintf(args, sizeof args, "%s,acc,%d", names.data, NBODY_LAUNCHES);
    gen_launch(p, "leapfrog_tail", "1", "1024", NULL, args);
    sb_release(&hn);
    sb_release(&names);
    char unrolled[16];
    snprintf(unrolled, sizeof unrolled, "%d", NBODY_LAUNCHES);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-particle-per-thread, all pairs; two launches per step (accelerations, kick-drift), "
                           "further steps in one block");
    gen_knob(p, "unrolled_steps", unrolled);
}

static int emit(GenCtx *g, int op, const Layout *L)
{
    const char *dt = L->f64 ? "f64" : "f32";
    Ctx cx = {L, L->f64 ? "double" : "float", L->f64 ? "" : "f", NULL};
    const Ctx *x = &cx;
    char variant[64];
    snprintf(variant, sizeof variant, "%s-%s", OP_TAGS[op], L->tag);
    static const char *const entries[] = {"accelerations", "forces", "potentials", "accelerations",
                                          "leapfrog_step", "leapfrog", "coulomb_forces", "acc_jerk",
                                          "field_at_targets", "accelerations"};
    GenProgram *p = gen_begin(g, variant, entries[op]);
    StrBuf *s = gen_src(p);
    cx.s = s;
    const int D = L->dim, sz = L->f64 ? 8 : 4;
    const char *n = op == TARGETS ? "ns" : "n";
    gen_describe(p, "all-pairs n-body: %s, %dD %s, %s", OP_TAGS[op], D, L->aos ? "AoS" : "SoA", dt);

    /* ---- arguments (in C parameter order) and the signature ---- */
    StrBuf sig = STRBUF_INIT;
    if (op == TARGETS) {
        for (int c = 0; c < D; c++) {
            char nm[8];
            snprintf(nm, sizeof nm, "t%s", C[c]);
            gen_arg(p, nm, dt, "in", "nt");
            sb_printf(&sig, "%sconst %s *t%s", c ? ", " : "", x->T, C[c]);
        }
        sb_append(&sig, ", ");
    }
    if (op == COULOMB) {
        declare_in(p, x, dt, n, "", 0);
        in_params(&sig, x, 0, "");
        gen_arg(p, "q", dt, "in", n);
        sb_printf(&sig, ", const %s *q", x->T);
        if (L->aos)
            gen_fill_uniform(p, "pos", -1.0, 1.0);
    } else if (op == LEAPFROG_K) {
        /* positions and velocities are updated in place; masses are read */
        if (L->aos) {
            char shape[16];
            snprintf(shape, sizeof shape, "n,%d", D + 1);
            gen_arg(p, "pos", dt, "inout", shape);
            snprintf(shape, sizeof shape, "n,%d", D);
            gen_arg(p, "vel", dt, "inout", shape);
            gen_fill_uniform(p, "pos", -1.0, 1.0);
            sb_printf(&sig, "%s *pos, %s *vel", x->T, x->T);
        } else {
            for (int c = 0; c < D; c++) {
                gen_arg(p, C[c], dt, "inout", "n");
                sb_printf(&sig, "%s%s *%s", c ? ", " : "", x->T, C[c]);
            }
            for (int c = 0; c < D; c++) {
                char nm[8];
                snprintf(nm, sizeof nm, "v%s", C[c]);
                gen_arg(p, nm, dt, "inout", "n");
                sb_printf(&sig, ", %s *v%s", x->T, C[c]);
            }
            gen_arg(p, "m", dt, "in", "n");
            gen_fill_uniform(p, "m", 0.5, 1.5);
            sb_printf(&sig, ", const %s *m", x->T);
        }
    } else {
        declare_in(p, x, dt, n, "", 1);
        in_params(&sig, x, 1, "");
    }
    if (op == LEAPFROG || op == JERK) {
        if (L->aos) {
            char shape[16];
            snprintf(shape, sizeof shape, "n,%d", D);
            gen_arg(p, "vel", dt, "in", shape);
            sb_printf(&sig, ", const %s *vel", x->T);
        } else {
            for (int c = 0; c < D; c++) {
                char nm[8];
                snprintf(nm, sizeof nm, "v%s", C[c]);
                gen_arg(p, nm, dt, "in", "n");
                sb_printf(&sig, ", const %s *v%s", x->T, C[c]);
            }
        }
    }
    /* outputs */
    const char *tn = op == TARGETS ? "nt" : "n";
    if (op == ACC || op == ACC_POT || op == JERK || op == TARGETS || op == CUTOFF) {
        declare_out(p, x, dt, tn, "acc", "a", "out");
        out_params(&sig, x, "acc", "a");
    }
    if (op == FORCE || op == COULOMB) {
        declare_out(p, x, dt, "n", "force", "f", "out");
        out_params(&sig, x, "force", "f");
    }
    if (op == POT || op == ACC_POT) {
        gen_arg(p, "phi", dt, "out", "n");
        sb_printf(&sig, ", %s *phi", x->T);
    }
    if (op == JERK) {
        declare_out(p, x, dt, "n", "jerk", "j", "out");
        out_params(&sig, x, "jerk", "j");
    }
    if (op == LEAPFROG) {
        declare_out(p, x, dt, "n", "pos_out", "new_", "out");
        out_params(&sig, x, "pos_out", "new_");
        declare_out(p, x, dt, "n", "vel_out", "new_v", "out");
        out_params(&sig, x, "vel_out", "new_v");
    }
    /* scalars and params */
    if (op == COULOMB) {
        gen_scalar(p, "k", dt, 0.002);
        sb_printf(&sig, ", %s k", x->T);
    } else {
        gen_scalar(p, "G", dt, 0.002);
        sb_printf(&sig, ", %s G", x->T);
    }
    gen_scalar(p, "eps", dt, 0.05);
    sb_printf(&sig, ", %s eps", x->T);
    if (op == LEAPFROG || op == LEAPFROG_K) {
        gen_scalar(p, "dt", dt, 0.001);
        sb_printf(&sig, ", %s dt", x->T);
    }
    if (op == CUTOFF) {
        gen_scalar(p, "rc", dt, 0.5);
        sb_printf(&sig, ", %s rc", x->T);
    }
    if (op == TARGETS) {
        gen_arg(p, "nt", "i32", "param", NULL);
        gen_arg(p, "ns", "i32", "param", NULL);
        sb_append(&sig, ", int nt, int ns");
    } else {
        gen_arg(p, "n", "i32", "param", NULL);
        sb_append(&sig, ", int n");
    }
    if (op == LEAPFROG_K) {
        gen_arg(p, "steps", "i32", "param", NULL);
        sb_append(&sig, ", int steps");
    }
    configs(p, op);

    /* ---- cost and tolerance ---- */
    char flops[64], bytes[128];
    int per_pair = (D == 3 ? 20 : 16) + (op == JERK ? 20 : 0) + (op == ACC_POT || op == POT ? 4 : 0);
    if (op == TARGETS)
        snprintf(flops, sizeof flops, "%d*nt*ns", per_pair);
    else if (op == LEAPFROG_K)
        snprintf(flops, sizeof flops, "%d*n*n*steps", per_pair);
    else
        snprintf(flops, sizeof flops, "%d*n*n", per_pair);
    int nin = D + 1 + ((op == LEAPFROG || op == JERK) ? D : 0) + (op == COULOMB ? 0 : 0);
    int nout = (op == POT ? 1 : D) + (op == ACC_POT ? 1 : 0) + ((op == JERK || op == LEAPFROG) ? D : 0);
    if (op == TARGETS)
        snprintf(bytes, sizeof bytes, "%d*ns+%d*nt", (D + 1) * sz, 2 * D * sz);
    else if (op == LEAPFROG_K)
        snprintf(bytes, sizeof bytes, "%d*n", (4 * D + 1) * sz);
    else
        snprintf(bytes, sizeof bytes, "%d*n", (nin + nout) * sz);
    gen_cost(p, flops, bytes);
    if (!L->f64)
        gen_tolerance(p, 1e-4, 1e-3);
    else
        gen_tolerance(p, 1e-9, 1e-7);

    /* ---- source ---- */
    static const char *const docs[] = {
        "Gravitational accelerations by direct summation over all pairs, with\n"
        " * Plummer softening eps: a_i = G sum_j m_j (r_j - r_i) / (|r_j - r_i|^2 + eps^2)^(3/2).\n"
        " * The j = i term vanishes.",
        "Gravitational forces F_i = G m_i sum_{j != i} m_j (r_j - r_i) / (|r_j - r_i|^2 + eps^2)^(3/2),\n"
        " * all pairs, self interaction skipped explicitly.",
        "Softened gravitational potential at each particle:\n"
        " * phi_i = -G sum_{j != i} m_j / sqrt(|r_j - r_i|^2 + eps^2).",
        "Softened gravitational accelerations and potentials in one pass over all\n"
        " * pairs: a_i = G sum_j m_j d_ij / (d_ij^2 + eps^2)^(3/2), phi_i = -G sum_{j != i} m_j / sqrt(d_ij^2 + eps^2).",
        "One kick-drift leapfrog step of a self-gravitating system: the softened\n"
        " * acceleration a(r) kicks the velocities, v' = v + dt a(r), and the new\n"
        " * velocities drift the positions, r' = r + dt v'.",
        "`steps` kick-drift leapfrog steps of a self-gravitating system, in place:\n"
        " * each step computes all softened accelerations from the current\n"
        " * positions, then v += dt a and r += dt v.",
        "Coulomb forces between signed charges by direct summation, softened:\n"
        " * F_i = k q_i sum_j q_j (r_i - r_j) / (|r_i - r_j|^2 + eps^2)^(3/2) (like charges repel).",
        "Softened accelerations and their time derivatives (jerks), as a Hermite\n"
        " * integrator needs them: with d = r_j - r_i, u = v_j - v_i, s = |d|^2 + eps^2,\n"
        " * a_i = G sum m_j d / s^(3/2) and j_i = G sum m_j (u / s^(3/2) - 3 (d.u) d / s^(5/2)).",
        "Gravitational field at nt target points from ns source particles (no\n"
        " * target is a source): a_t = G sum_s m_s (r_s - r_t) / (|r_s - r_t|^2 + eps^2)^(3/2).",
        "Short-range softened gravity with a smooth cutoff: pairs closer than rc\n"
        " * contribute G m_j d / (d^2 + eps^2)^(3/2) * (1 - d^2 / rc^2)^2, farther pairs\n"
        " * nothing, so forces go to zero continuously at the cutoff.",
    };
    if (op == LEAPFROG_K)
        sb_append(s, "#include <stdlib.h>\n");
    sb_printf(s, "#include <math.h>\n\n/* %s\n * Layout: %s%s. */\n", docs[op],
              L->aos ? (D == 3 ? "array of structures, pos[i] = (x, y, z, m)" : "array of structures, pos[i] = (x, y, m)")
                     : "structure of arrays",
              L->aos && (op == LEAPFROG || op == LEAPFROG_K || op == JERK) ? ", vel[i] = velocity" : "");
    if (op == LEAPFROG_K) {
        /* helper computing all accelerations into acc[n * D] */
        sb_printf(s, "static void accelerations(");
        if (L->aos)
            sb_printf(s, "const %s *pos", x->T);
        else
            for (int c = 0; c < D; c++)
                sb_printf(s, "const %s *%s, ", x->T, C[c]);
        if (!L->aos)
            sb_printf(s, "const %s *m", x->T);
        sb_printf(s, ", %s *acc, %s G, %s eps, int n)\n{\n", x->T, x->T, x->T);
        sb_printf(s, "    %s eps2 = eps * eps;\n    for (int i = 0; i < n; i++) {\n", x->T);
        load_i(x, 2);
        accel_loop(x, 2, 0);
        for (int c = 0; c < D; c++) {
            indent(x, 2);
            if (c == 0)
                sb_printf(s, "acc[%d * i] = G * s%s;\n", D, C[c]);
            else
                sb_printf(s, "acc[%d * i + %d] = G * s%s;\n", D, c, C[c]);
        }
        sb_append(s, "    }\n}\n\n");
    }
    sb_printf(s, "void %s(", entries[op]);
    /* wrap the signature at commas near 96 columns */
    {
        int ind = 6 + (int)strlen(entries[op]), col = ind;
        const char *q = sig.data;
        for (int first = 1; *q; first = 0) {
            while (*q == ' ')
                q++;
            const char *end = strchr(q, ',');
            int len = end ? (int)(end - q) : (int)strlen(q);
            if (!first) {
                if (col + 2 + len > 96) {
                    sb_printf(s, ",\n%*s", ind, "");
                    col = ind;
                } else {
                    sb_append(s, ", ");
                    col += 2;
                }
            }
            sb_append_n(s, q, (size_t)len);
            col += len;
            q = end ? end + 1 : q + len;
        }
    }
    sb_append(s, ")\n{\n");
    char b[64], v[96];
    if (op == LEAPFROG_K) {
        sb_printf(s, "    %s *acc = malloc((size_t)n * %d * sizeof *acc);\n    if (!acc)\n        return;\n", x->T, D);
        sb_append(s, "    for (int step = 0; step < steps; step++) {\n");
        if (L->aos)
            sb_append(s, "        accelerations(pos, acc, G, eps, n);\n");
        else
            sb_printf(s, "        accelerations(%s, m, acc, G, eps, n);\n", D == 3 ? "x, y, z" : "x, y");
        sb_append(s, "        for (int i = 0; i < n; i++) {\n");
        for (int c = 0; c < D; c++) {
            char pv[64], pp[64], av[32];
            comp(pv, x, "v", "i", c);
            comp(pp, x, "", "i", c);
            if (!L->aos) {
                snprintf(pv, sizeof pv, "v%s[i]", C[c]);
                snprintf(pp, sizeof pp, "%s[i]", C[c]);
            }
            if (c == 0)
                snprintf(av, sizeof av, "acc[%d * i]", D);
            else
                snprintf(av, sizeof av, "acc[%d * i + %d]", D, c);
            sb_printf(s, "            %s += dt * %s;\n            %s += dt * %s;\n", pv, av, pp, pv);
        }
        sb_append(s, "        }\n    }\n    free(acc);\n}\n");
        goto done;
    }
    if (op == TARGETS) {
        sb_printf(s, "    %s eps2 = eps * eps;\n    for (int t = 0; t < nt; t++) {\n", x->T);
        indent(x, 2);
        sb_printf(s, "%s ", x->T);
        for (int c = 0; c < D; c++)
            sb_printf(s, "%s%si = t%s[t]", c ? ", " : "", C[c], C[c]);
        sb_append(s, ";\n");
        zero_acc(x, 2, "s");
        sb_append(s, "        for (int j = 0; j < ns; j++) {\n");
        diff_j(x, 3, "j", 1);
        sb_printf(s, "            %s inv = 1 / sqrt%s(r2);\n", x->T, x->F);
        comp(b, x, "", "j", D);
        sb_printf(s, "            %s w = %s * inv * inv * inv;\n", x->T, b);
        add_acc(x, 3, "s", "w");
        sb_append(s, "        }\n");
        for (int c = 0; c < D; c++) {
            snprintf(v, sizeof v, "G * s%s", C[c]);
            indent(x, 2);
            store(x, "acc", "a", c, "t", v);
        }
        sb_append(s, "    }\n}\n");
        goto done;
    }
    sb_printf(s, "    %s eps2 = eps * eps;\n", x->T);
    if (op == CUTOFF)
        sb_printf(s, "    %s rc2 = rc * rc;\n", x->T);
    sb_append(s, "    for (int i = 0; i < n; i++) {\n");
    load_i(x, 2);
    if (op == ACC || op == FORCE || op == LEAPFROG) {
        accel_loop(x, 2, op == FORCE);
        if (op == FORCE) {
            comp(b, x, "", "i", D);
            sb_printf(s, "        %s gm = G * %s;\n", x->T, b);
        }
        for (int c = 0; c < D; c++) {
            indent(x, 2);
            if (op == ACC) {
                snprintf(v, sizeof v, "G * s%s", C[c]);
                store(x, "acc", "a", c, "i", v);
            } else if (op == FORCE) {
                snprintf(v, sizeof v, "gm * s%s", C[c]);
                store(x, "force", "f", c, "i", v);
            } else {
                char pv[64];
                if (L->aos)
                    comp(pv, x, "v", "i", c);
                else
                    snprintf(pv, sizeof pv, "v%s[i]", C[c]);
                sb_printf(s, "%s v%s1 = %s + dt * G * s%s;\n", x->T, C[c], pv, C[c]);
            }
        }
        if (op == LEAPFROG) {
            for (int c = 0; c < D; c++) {
                indent(x, 2);
                snprintf(v, sizeof v, "v%s1", C[c]);
                store(x, "vel_out", "new_v", c, "i", v);
            }
            for (int c = 0; c < D; c++) {
                indent(x, 2);
                snprintf(v, sizeof v, "%si + dt * v%s1", C[c], C[c]);
                store(x, "pos_out", "new_", c, "i", v);
            }
        }
    } else if (op == POT || op == ACC_POT) {
        if (op == ACC_POT)
            zero_acc(x, 2, "s");
        sb_printf(s, "        %s phi_i = 0;\n", x->T);
        sb_append(s, "        for (int j = 0; j < n; j++) {\n            if (j == i)\n                continue;\n");
        diff_j(x, 3, "j", 1);
        sb_printf(s, "            %s inv = 1 / sqrt%s(r2);\n", x->T, x->F);
        comp(b, x, "", "j", D);
        if (op == POT) {
            sb_printf(s, "            phi_i -= %s * inv;\n", b);
        } else {
            sb_printf(s, "            %s mr = %s * inv;\n            phi_i -= mr;\n", x->T, b);
            sb_printf(s, "            %s w = mr * inv * inv;\n", x->T);
            add_acc(x, 3, "s", "w");
        }
        sb_append(s, "        }\n");
        if (op == ACC_POT)
            for (int c = 0; c < D; c++) {
                indent(x, 2);
                snprintf(v, sizeof v, "G * s%s", C[c]);
                store(x, "acc", "a", c, "i", v);
            }
        sb_append(s, "        phi[i] = G * phi_i;\n");
    } else if (op == COULOMB) {
        zero_acc(x, 2, "s");
        sb_append(s, "        for (int j = 0; j < n; j++) {\n");
        diff_j(x, 3, "j", 1);
        sb_printf(s, "            %s inv = 1 / sqrt%s(r2);\n", x->T, x->F);
        sb_printf(s, "            %s w = q[j] * inv * inv * inv;\n", x->T);
        add_acc(x, 3, "s", "w");
        sb_append(s, "        }\n");
        for (int c = 0; c < D; c++) {
            indent(x, 2);
            snprintf(v, sizeof v, "-k * q[i] * s%s", C[c]);
            store(x, "force", "f", c, "i", v);
        }
    } else if (op == JERK) {
        char pv[64];
        indent(x, 2);
        sb_printf(s, "%s ", x->T);
        for (int c = 0; c < D; c++) {
            if (L->aos)
                comp(pv, x, "v", "i", c);
            else
                snprintf(pv, sizeof pv, "v%s[i]", C[c]);
            sb_printf(s, "%sv%si = %s", c ? ", " : "", C[c], pv);
        }
        sb_append(s, ";\n");
        zero_acc(x, 2, "s");
        zero_acc(x, 2, "js");
        sb_append(s, "        for (int j = 0; j < n; j++) {\n");
        diff_j(x, 3, "j", 1);
        indent(x, 3);
        sb_printf(s, "%s ", x->T);
        for (int c = 0; c < D; c++) {
            if (L->aos)
                comp(pv, x, "v", "j", c);
            else
                snprintf(pv, sizeof pv, "v%s[j]", C[c]);
            sb_printf(s, "%su%s = %s - v%si", c ? ", " : "", C[c], pv, C[c]);
        }
        sb_append(s, ";\n");
        sb_printf(s, "            %s inv = 1 / sqrt%s(r2);\n", x->T, x->F);
        comp(b, x, "", "j", D);
        sb_printf(s, "            %s w = %s * inv * inv * inv;\n", x->T, b);
        sb_printf(s, "            %s du = (", x->T);
        for (int c = 0; c < D; c++)
            sb_printf(s, "%sd%s * u%s", c ? " + " : "", C[c], C[c]);
        sb_append(s, ") * inv * inv;\n");
        add_acc(x, 3, "s", "w");
        for (int c = 0; c < D; c++)
            sb_printf(s, "            js%s += w * (u%s - 3 * du * d%s);\n", C[c], C[c], C[c]);
        sb_append(s, "        }\n");
        for (int c = 0; c < D; c++) {
            indent(x, 2);
            snprintf(v, sizeof v, "G * s%s", C[c]);
            store(x, "acc", "a", c, "i", v);
        }
        for (int c = 0; c < D; c++) {
            indent(x, 2);
            snprintf(v, sizeof v, "G * js%s", C[c]);
            store(x, "jerk", "j", c, "i", v);
        }
    } else { /* CUTOFF */
        zero_acc(x, 2, "s");
        sb_append(s, "        for (int j = 0; j < n; j++) {\n");
        diff_j(x, 3, "j", 0);
        sb_append(s, "            if (r2 >= rc2)\n                continue;\n");
        sb_printf(s, "            %s inv = 1 / sqrt%s(r2 + eps2);\n", x->T, x->F);
        sb_printf(s, "            %s taper = 1 - r2 / rc2;\n", x->T);
        comp(b, x, "", "j", D);
        sb_printf(s, "            %s w = %s * inv * inv * inv * taper * taper;\n", x->T, b);
        add_acc(x, 3, "s", "w");
        sb_append(s, "        }\n");
        for (int c = 0; c < D; c++) {
            indent(x, 2);
            snprintf(v, sizeof v, "G * s%s", C[c]);
            store(x, "acc", "a", c, "i", v);
        }
    }
    sb_append(s, "    }\n}\n");
done:
    emit_cuda(p, op, L, entries[op], s->data);
    sb_release(&sig);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    for (int op = 0; op < N_OPS; op++)
        for (size_t l = 0; l < sizeof LAYOUTS / sizeof *LAYOUTS; l++) {
            /* Hermite jerks, separate targets and the cutoff are 3D only. */
            if ((op == JERK || op == TARGETS || op == CUTOFF) && LAYOUTS[l].dim == 2)
                continue;
            if (emit(g, op, &LAYOUTS[l]) != 0)
                return -1;
        }
    return 0;
}

const Family family_nbody = {"nbody", "particles", 54, generate};
