/* attention — scaled dot-product attention over f32 and f64: raw scores
 * Q K^T / sqrt(d) (optionally with an ALiBi bias), softmax probabilities
 * (optionally causal), and full attention softmax(Q K^T / sqrt(d)) V in
 * single-head, cross-attention (different lengths and widths) and
 * transposed-K forms and in multi-head layouts (B,H,S,D), (B,S,H,D) and a
 * packed (B,S,3,H,D) QKV buffer, with grouped-query and multi-query K/V
 * heads, causal masks, ALiBi biases, key-padding masks, an additive bias
 * input, a causal sliding window, tanh soft-capping, a log-sum-exp output,
 * and single-token decoding against a K/V cache. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

enum { OUT_SCORES, OUT_PROBS, OUT_FULL, OUT_DECODE };
enum { L_SINGLE, L_BHSD, L_BSHD, L_QKV };
enum { B_NONE, B_ALIBI, B_KEYPAD, B_ADD, B_WINDOW, B_SOFTCAP };
enum { KV_MHA, KV_GQA, KV_MQA };

typedef struct Att {
    const char *tag, *entry, *title;
    int out, layout, causal, bias, kv;
    int cross;  /* single head, separate sq/sk and dk/dv */
    int kt;     /* K given transposed, d x s */
    int lse;    /* also write the row log-sum-exp */
} Att;

static const Att ATTS[] = {
    {"scores", "attention_scores", "Attention scores for one head", OUT_SCORES, L_SINGLE, 0, B_NONE, 0, 0, 0, 0},
    {"scores-bhsd", "attention_scores", "Multi-head attention scores S = Q K^T / sqrt(d)", OUT_SCORES, L_BHSD, 0, B_NONE, 0, 0, 0, 0},
    {"scores-alibi-bhsd", "alibi_scores", "Multi-head attention scores with an ALiBi bias", OUT_SCORES, L_BHSD, 0, B_ALIBI, 0, 0, 0, 0},
    {"probs", "attention_probs", "Attention probabilities for one head", OUT_PROBS, L_SINGLE, 0, B_NONE, 0, 0, 0, 0},
    {"probs-causal", "causal_attention_probs", "Causal attention probabilities for one head", OUT_PROBS, L_SINGLE, 1, B_NONE, 0, 0, 0, 0},
    {"probs-causal-bhsd", "causal_attention_probs", "Multi-head causal attention probabilities", OUT_PROBS, L_BHSD, 1, B_NONE, 0, 0, 0, 0},
    {"attn", "attention", "Single-head attention", OUT_FULL, L_SINGLE, 0, B_NONE, 0, 0, 0, 0},
    {"attn-causal", "causal_attention", "Single-head causal attention", OUT_FULL, L_SINGLE, 1, B_NONE, 0, 0, 0, 0},
    {"attn-cross", "cross_attention", "Single-head cross-attention", OUT_FULL, L_SINGLE, 0, B_NONE, 0, 1, 0, 0},
    {"attn-kt", "attention_kt", "Single-head attention with K stored transposed", OUT_FULL, L_SINGLE, 0, B_NONE, 0, 0, 1, 0},
    {"attn-bhsd", "mha", "Multi-head attention", OUT_FULL, L_BHSD, 0, B_NONE, 0, 0, 0, 0},
    {"attn-causal-bhsd", "causal_mha", "Multi-head causal attention", OUT_FULL, L_BHSD, 1, B_NONE, 0, 0, 0, 0},
    {"attn-bshd", "mha_bshd", "Multi-head attention, sequence-major layout", OUT_FULL, L_BSHD, 0, B_NONE, 0, 0, 0, 0},
    {"attn-causal-bshd", "causal_mha_bshd", "Multi-head causal attention, sequence-major layout", OUT_FULL, L_BSHD, 1, B_NONE, 0, 0, 0, 0},
    {"attn-causal-qkv", "causal_mha_packed", "Multi-head causal attention from a packed QKV buffer", OUT_FULL, L_QKV, 1, B_NONE, 0, 0, 0, 0},
    {"attn-gqa", "gqa", "Grouped-query attention", OUT_FULL, L_BHSD, 0, B_NONE, KV_GQA, 0, 0, 0},
    {"attn-causal-gqa", "causal_gqa", "Causal grouped-query attention", OUT_FULL, L_BHSD, 1, B_NONE, KV_GQA, 0, 0, 0},
    {"attn-causal-mqa", "causal_mqa", "Causal multi-query attention (one K/V head)", OUT_FULL, L_BHSD, 1, B_NONE, KV_MQA, 0, 0, 0},
    {"attn-causal-alibi", "alibi_attention", "Causal multi-head attention with ALiBi", OUT_FULL, L_BHSD, 1, B_ALIBI, 0, 0, 0, 0},
    {"attn-alibi", "alibi_attention", "Bidirectional multi-head attention with ALiBi", OUT_FULL, L_BHSD, 0, B_ALIBI, 0, 0, 0, 0},
    {"attn-keypad", "masked_mha", "Multi-head attention with a key-padding mask", OUT_FULL, L_BHSD, 0, B_KEYPAD, 0, 0, 0, 0},
    {"attn-bias", "biased_mha", "Multi-head attention with an additive bias", OUT_FULL, L_BHSD, 0, B_ADD, 0, 0, 0, 0},
    {"attn-window", "sliding_window_attention", "Causal sliding-window multi-head attention", OUT_FULL, L_BHSD, 1, B_WINDOW, 0, 0, 0, 0},
    {"attn-causal-softcap", "softcap_attention", "Causal multi-head attention with tanh soft-capping", OUT_FULL, L_BHSD, 1, B_SOFTCAP, 0, 0, 0, 0},
    {"attn-causal-lse", "causal_mha_lse", "Multi-head causal attention returning the log-sum-exp", OUT_FULL, L_BHSD, 1, B_NONE, 0, 0, 0, 1},
    {"decode", "decode_attention", "One decoding step of multi-head attention against a K/V cache", OUT_DECODE, L_BHSD, 0, B_NONE, 0, 0, 0, 0},
    {"decode-gqa", "decode_gqa", "One decoding step of grouped-query attention against a K/V cache", OUT_DECODE, L_BHSD, 0, B_NONE, KV_GQA, 0, 0, 0},
};

/* The score of (i, j) from `dot`, as C. */
static void score_expr(char *buf, size_t len, const Att *a, int f64)
{
    if (a->bias == B_ALIBI)
        snprintf(buf, len, "dot * scale - slope * %s", a->causal ? "(i - j)" : "abs(i - j)");
    else if (a->bias == B_ADD)
        snprintf(buf, len, "dot * scale + bias[i * s + j]");
    else if (a->bias == B_SOFTCAP)
        snprintf(buf, len, "softcap * %s(dot * scale / softcap)", f64 ? "tanh" : "tanhf");
    else
        snprintf(buf, len, "dot * scale");
}

/* The softmax-weighted sum over j of one query row: scores into p[j0..je),
 * then out = sum p v / sum p.  Uses @QI @KJ @VJ @OI @J0 @JCOND @SCORE @DK @DV. */
static const char *const ROW_TMPL_HEAD =
    "        @T mx = -INFINITY;\n"
    "        for (int j = @J0; @JCOND; j++) {\n";
static const char *const ROW_TMPL_DOT =
    "            @T dot = 0;\n"
    "            for (int c = 0; c < @DK; c++)\n"
    "                dot += @QI * @KJ;\n"
    "            p[j] = @SCORE;\n"
    "            if (p[j] > mx)\n"
    "                mx = p[j];\n"
    "        }\n";
static const char *const ROW_TMPL_SUM =
    "        @T sum = 0;\n"
    "        for (int j = @J0; @JCOND; j++) {\n"
    "            p[j] = @exp(p[j] - mx);\n"
    "            sum += p[j];\n"
    "        }\n"
    "        for (int c = 0; c < @DV; c++) {\n"
    "            @T acc = 0;\n"
    "            for (int j = @J0; @JCOND; j++)\n"
    "                acc += p[j] * @VJ;\n"
    "            @OI = acc / sum;\n"
    "        }\n";

static void emit_row(StrBuf *s, const TmplSubs *sub, const Att *a)
{
    tmpl_expand(s, sub, ROW_TMPL_HEAD);
    if (a->bias == B_KEYPAD)
        tmpl_expand(s, sub,
             "            if (!keep[j]) {\n"
             "                p[j] = -INFINITY;\n"
             "                continue;\n"
             "            }\n");
    tmpl_expand(s, sub, ROW_TMPL_DOT);
    if (a->bias == B_KEYPAD)
        tmpl_expand(s, sub,
             "        if (mx == -INFINITY) {\n"
             "            /* Every key is padding: the output row is zero. */\n"
             "            for (int c = 0; c < @DV; c++)\n"
             "                @OI = 0;\n"
             "            continue;\n"
             "        }\n");
    tmpl_expand(s, sub, ROW_TMPL_SUM);
    if (a->lse)
        tmpl_expand(s, sub, "        lse[i] = mx + @log(sum);\n");
}

static void put_sig(StrBuf *s, const TmplSubs *sub, const char *tmpl)
{
    StrBuf t = STRBUF_INIT;
    tmpl_expand(&t, sub, tmpl);
    tmpl_put_wrapped(s, t.data);
    sb_release(&t);
}

static void single_head(GenProgram *p, const Att *a, int f64)
{
    const char *dt = f64 ? "f64" : "f32";
    int es = f64 ? 8 : 4;
    TmplSubs sub;
    tmpl_init(&sub, f64);
    char score[128];
    score_expr(score, sizeof score, a, f64);
    tmpl_set(&sub, "SCORE", score);
    if (a->cross) {
        gen_arg(p, "q", dt, "in", "sq,dk");
        gen_arg(p, "k", dt, "in", "sk,dk");
        gen_arg(p, "v", dt, "in", "sk,dv");
        gen_arg(p, "out", dt, "out", "sq,dv");
        gen_arg(p, "sq", "i32", "param", NULL);
        gen_arg(p, "sk", "i32", "param", NULL);
        gen_arg(p, "dk", "i32", "param", NULL);
        gen_arg(p, "dv", "i32", "param", NULL);
        gen_config(p, "small", "sq=100,sk=150,dk=64,dv=48");
        gen_config(p, "edge", "sq=1,sk=1,dk=1,dv=1");
        gen_config(p, "edge-prime", "sq=17,sk=29,dk=7,dv=5");
        gen_config(p, "large", "sq=2048,sk=8192,dk=128,dv=128");
        gen_cost(p, "2*sq*sk*dk+2*sq*sk*dv+3*sq*sk",
                 f64 ? "8*sq*dk+8*sk*dk+8*sk*dv+8*sq*dv" : "4*sq*dk+4*sk*dk+4*sk*dv+4*sq*dv");
        tmpl_set(&sub, "QI", "q[i * dk + c]");
        tmpl_set(&sub, "KJ", "k[j * dk + c]");
        tmpl_set(&sub, "VJ", "v[j * dv + c]");
        tmpl_set(&sub, "OI", "out[i * dv + c]");
        tmpl_set(&sub, "DK", "dk");
        tmpl_set(&sub, "DV", "dv");
        tmpl_set(&sub, "NQ", "sq");
        tmpl_set(&sub, "NK", "sk");
    } else {
        gen_arg(p, "q", dt, "in", "s,d");
        gen_arg(p, a->kt ? "kt" : "k", dt, "in", a->kt ? "d,s" : "s,d");
        if (a->out == OUT_FULL)
            gen_arg(p, "v", dt, "in", "s,d");
        gen_arg(p, a->out == OUT_FULL ? "out" : a->out == OUT_PROBS ? "probs" : "scores", dt, "out",
                a->out == OUT_FULL ? "s,d" : "s,s");
        gen_arg(p, "s", "i32", "param", NULL);
        gen_arg(p, "d", "i32", "param", NULL);
        gen_config(p, "small", "s=128,d=64");
        gen_config(p, "edge", "s=1,d=1");
        gen_config(p, "edge-prime", "s=37,d=13");
        if (a->out == OUT_FULL) {
            gen_config(p, "large", "s=4096,d=128");
            gen_cost(p, a->causal ? "2*s*s*d+2*s*s" : "4*s*s*d+3*s*s", f64 ? "32*s*d" : "16*s*d");
        } else {
            gen_config(p, "large", "s=8192,d=64");
            gen_cost(p, a->out == OUT_PROBS ? "2*s*s*d+4*s*s" : "2*s*s*d+s*s",
                     f64 ? "16*s*d+8*s*s" : "8*s*d+4*s*s");
        }
        tmpl_set(&sub, "QI", "q[i * d + c]");
        tmpl_set(&sub, "KJ", a->kt ? "kt[c * s + j]" : "k[j * d + c]");
        tmpl_set(&sub, "VJ", "v[j * d + c]");
        tmpl_set(&sub, "OI", "out[i * d + c]");
        tmpl_set(&sub, "DK", "d");
        tmpl_set(&sub, "DV", "d");
        tmpl_set(&sub, "NQ", "s");
        tmpl_set(&sub, "NK", "s");
    }
    (void)es;
    tmpl_set(&sub, "J0", "0");
    tmpl_set(&sub, "JCOND", a->causal ? "j <= i" : a->cross ? "j < sk" : "j < s");
    StrBuf *s = gen_src(p);
    if (a->out == OUT_FULL) {
        if (a->cross)
            sb_append(s, "/* Single-head cross-attention: sq queries of width dk attend to sk keys\n"
                         " * (width dk) with values of width dv:\n"
                         " *   out = softmax(q k^T / sqrt(dk)) v,  q: sq x dk, k: sk x dk, v: sk x dv. */\n");
        else
            sb_printf(s, "/* %s: out = softmax(q k^T / sqrt(d)%s) v,\n"
                         " * q, %s and out %s, row-major%s. */\n",
                      a->title, a->causal ? " + causal mask" : "", a->kt ? "v" : "k, v",
                      "s x d", a->kt ? "; kt = k^T is d x s" : "");
    } else if (a->out == OUT_PROBS) {
        sb_printf(s, "/* %s: probs = softmax(q k^T / sqrt(d)) row by row,\n"
                     " * q and k s x d row-major, probs s x s%s. */\n",
                  a->title, a->causal ? "; key j > query i is masked out (probability 0)" : "");
    } else {
        sb_printf(s, "/* %s: scores[i][j] = dot(q[i], k[j]) / sqrt(d),\n"
                     " * q and k s x d row-major, scores s x s. */\n", a->title);
    }
    sb_append(s, "#include <math.h>\n");
    if (a->out == OUT_FULL)
        sb_append(s, "#include <stdlib.h>\n");
    sb_append(s, "\n");

    if (a->out != OUT_FULL) {
        const char *o = a->out == OUT_PROBS ? "probs" : "scores";
        char sig[200];
        snprintf(sig, sizeof sig, "void %s(const @T *q, const @T *k, @T *%s, int s, int d)\n{\n", a->entry, o);
        tmpl_expand(s, &sub, sig);
        tmpl_set(&sub, "O", o);
        tmpl_expand(s, &sub,
             "    @T scale = 1 / @sqrt((@T)d);\n"
             "    for (int i = 0; i < s; i++) {\n"
             "        @T *row = @O + i * s;\n");
        if (a->out == OUT_PROBS)
            tmpl_expand(s, &sub, "        @T mx = -INFINITY;\n");
        tmpl_expand(s, &sub,
             "        for (int j = 0; @JCOND; j++) {\n"
             "            @T dot = 0;\n"
             "            for (int c = 0; c < d; c++)\n"
             "                dot += q[i * d + c] * k[j * d + c];\n");
        if (a->out == OUT_PROBS)
            tmpl_expand(s, &sub,
                 "            row[j] = dot * scale;\n"
                 "            if (row[j] > mx)\n"
                 "                mx = row[j];\n"
                 "        }\n"
                 "        @T sum = 0;\n"
                 "        for (int j = 0; @JCOND; j++) {\n"
                 "            row[j] = @exp(row[j] - mx);\n"
                 "            sum += row[j];\n"
                 "        }\n"
                 "        for (int j = 0; @JCOND; j++)\n"
                 "            row[j] /= sum;\n");
        else
            tmpl_expand(s, &sub, "            row[j] = dot * scale;\n        }\n");
        if (a->causal)
            tmpl_expand(s, &sub, "        for (int j = i + 1; j < s; j++)\n            row[j] = 0;\n");
        sb_append(s, "    }\n}\n");
        return;
    }
    char sig[200];
    if (a->cross)
        snprintf(sig, sizeof sig, "void %s(const @T *q, const @T *k, const @T *v, @T *out, int sq, int sk, int dk, int dv)\n{\n", a->entry);
    else
        snprintf(sig, sizeof sig, "void %s(const @T *q, const @T *%s, const @T *v, @T *out, int s, int d)\n{\n",
                 a->entry, a->kt ? "kt" : "k");
    put_sig(s, &sub, sig);
    tmpl_expand(s, &sub,
         "    @T scale = 1 / @sqrt((@T)@DK);\n"
         "    /* p holds one row of scores, then of unnormalised probabilities. */\n"
         "    @T *p = malloc((size_t)@NK * sizeof *p);\n"
         "    if (!p)\n"
         "        return;\n"
         "    for (int i = 0; i < @NQ; i++) {\n");
    emit_row(s, &sub, a);
    sb_append(s, "    }\n    free(p);\n}\n");
}

static void multi_head(GenProgram *p, const Att *a, int f64)
{
    const char *dt = f64 ? "f64" : "f32";
    int es = f64 ? 8 : 4;
    int decode = a->out == OUT_DECODE;
    int scores = a->out == OUT_SCORES || a->out == OUT_PROBS;
    TmplSubs sub;
    tmpl_init(&sub, f64);
    char score[128];
    score_expr(score, sizeof score, a, f64);
    tmpl_set(&sub, "SCORE", score);
    const char *len = decode ? "t" : "s";
    const char *kvh = a->kv == KV_GQA ? "hkv" : "h";
    char qshape[32], kvshape[32], oshape[32];
    if (decode) {
        snprintf(qshape, sizeof qshape, "b,h,d");
        snprintf(kvshape, sizeof kvshape, "b,%s,t,d", kvh);
        snprintf(oshape, sizeof oshape, "b,h,d");
    } else if (a->layout == L_BSHD) {
        snprintf(qshape, sizeof qshape, "b,s,h,d");
        snprintf(kvshape, sizeof kvshape, "b,s,h,d");
        snprintf(oshape, sizeof oshape, "b,s,h,d");
    } else if (a->layout == L_QKV) {
        snprintf(qshape, sizeof qshape, "b,s,3,h,d");
        snprintf(oshape, sizeof oshape, "b,s,h,d");
    } else {
        snprintf(qshape, sizeof qshape, "b,h,s,d");
        snprintf(kvshape, sizeof kvshape, a->kv == KV_MQA ? "b,s,d" : "b,%s,s,d", kvh);
        snprintf(oshape, sizeof oshape, scores ? "b,h,s,s" : "b,h,s,d");
    }
    if (a->layout == L_QKV) {
        gen_arg(p, "qkv", dt, "in", qshape);
    } else {
        gen_arg(p, "q", dt, "in", qshape);
        gen_arg(p, "k", dt, "in", kvshape);
        if (!scores)
            gen_arg(p, "v", dt, "in", kvshape);
    }
    if (a->bias == B_KEYPAD) {
        gen_arg(p, "key_mask", "u8", "in", "b,s");
        /* Mostly kept keys, some padding. */
        gen_fill_int(p, "key_mask", "0", "4");
    }
    if (a->bias == B_ADD)
        gen_arg(p, "attn_bias", dt, "in", "h,s,s");
    const char *oname = a->out == OUT_SCORES ? "scores" : a->out == OUT_PROBS ? "probs" : "out";
    gen_arg(p, oname, dt, "out", oshape);
    if (a->lse)
        gen_arg(p, "lse", dt, "out", "b,h,s");
    gen_arg(p, "b", "i32", "param", NULL);
    gen_arg(p, "h", "i32", "param", NULL);
    if (a->kv == KV_GQA)
        gen_arg(p, "hkv", "i32", "param", NULL);
    gen_arg(p, len, "i32", "param", NULL);
    gen_arg(p, "d", "i32", "param", NULL);
    if (a->bias == B_WINDOW)
        gen_arg(p, "w", "i32", "param", NULL);
    if (a->bias == B_SOFTCAP)
        gen_scalar(p, "softcap", dt, 8.0);
    /* Configs: b, h, hkv, length, d, window. */
    static const int DEC[4][6] = {{2, 8, 2, 256, 64, 0}, {1, 1, 1, 1, 1, 0}, {3, 6, 2, 131, 17, 0}, {16, 32, 8, 4096, 128, 0}};
    static const int SEQ[4][6] = {{2, 4, 2, 64, 32, 16}, {1, 1, 1, 1, 1, 1}, {1, 6, 3, 37, 13, 5}, {2, 16, 4, 2048, 64, 256}};
    char cfg[4][96];
    for (int c = 0; c < 4; c++) {
        const int *v = decode ? DEC[c] : SEQ[c];
        int nb = v[0];
        if (decode && c == 3 && f64)
            nb = 8;
        int o = snprintf(cfg[c], 96, "b=%d,h=%d", nb, v[1]);
        if (a->kv == KV_GQA)
            o += snprintf(cfg[c] + o, (size_t)(96 - o), ",hkv=%d", v[2]);
        o += snprintf(cfg[c] + o, (size_t)(96 - o), ",%s=%d,d=%d", len, v[3], v[4]);
        if (a->bias == B_WINDOW)
            snprintf(cfg[c] + o, (size_t)(96 - o), ",w=%d", v[5]);
    }
    gen_config(p, "small", cfg[0]);
    gen_config(p, "edge", cfg[1]);
    gen_config(p, "edge-prime", cfg[2]);
    gen_config(p, "large", cfg[3]);
    /* Cost. */
    char flops[96], bytes[128];
    const char *kvheads = a->kv == KV_GQA ? "hkv" : a->kv == KV_MQA ? "1" : "h";
    if (decode) {
        snprintf(flops, sizeof flops, "4*b*h*t*d+3*b*h*t");
        snprintf(bytes, sizeof bytes, "%d*b*h*d+%d*b*%s*t*d", 2 * es, 2 * es, kvheads);
    } else if (scores) {
        snprintf(flops, sizeof flops, "2*b*h*s*s*d+%d*b*h*s*s", a->out == OUT_PROBS ? 4 : 2);
        snprintf(bytes, sizeof bytes, "%d*b*h*s*d+%d*b*h*s*s", 2 * es, es);
    } else {
        snprintf(flops, sizeof flops, a->causal ? "2*b*h*s*s*d+2*b*h*s*s" : "4*b*h*s*s*d+3*b*h*s*s");
        if (a->kv == KV_MHA && a->bias != B_ADD)
            snprintf(bytes, sizeof bytes, "%d*b*h*s*d%s", 4 * es, a->lse ? (f64 ? "+8*b*h*s" : "+4*b*h*s") : "");
        else if (a->bias == B_ADD)
            snprintf(bytes, sizeof bytes, "%d*b*h*s*d+%d*h*s*s", 4 * es, es);
        else
            snprintf(bytes, sizeof bytes, "%d*b*h*s*d+%d*b*%s*s*d", 2 * es, 2 * es, kvheads);
        if (a->bias == B_KEYPAD)
            strcat(bytes, "+b*s");
    }
    gen_cost(p, flops, bytes);

    /* Head offsets and row strides for the layout. */
    const char *ld = a->layout == L_QKV ? "ld" : a->layout == L_BSHD ? "ld" : "d";
    char qi[48], kj[48], vj[48], oi[48];
    if (decode) {
        snprintf(qi, sizeof qi, "qh[c]");
        snprintf(oi, sizeof oi, "oh[c]");
    } else {
        snprintf(qi, sizeof qi, "qh[i * %s + c]", ld);
        snprintf(oi, sizeof oi, "oh[i * %s + c]", a->layout == L_QKV ? "ldo" : ld);
    }
    snprintf(kj, sizeof kj, "kh[j * %s + c]", ld);
    snprintf(vj, sizeof vj, "vh[j * %s + c]", ld);
    tmpl_set(&sub, "QI", qi);
    tmpl_set(&sub, "KJ", kj);
    tmpl_set(&sub, "VJ", vj);
    tmpl_set(&sub, "OI", oi);
    tmpl_set(&sub, "DK", "d");
    tmpl_set(&sub, "DV", "d");
    tmpl_set(&sub, "J0", a->bias == B_WINDOW ? "j0" : "0");
    tmpl_set(&sub, "JCOND", a->causal ? "j <= i" : decode ? "j < t" : "j < s");

    StrBuf *s = gen_src(p);
    /* The program comment. */
    sb_printf(s, "/* %s", a->title);
    if (decode) {
        sb_printf(s, ":\n * out[b][h] = softmax(q[b][h] k[b][%s]^T / sqrt(d)) v[b][%s] over the t cached\n"
                     " * positions; q and out are b x h x d, k and v b x %s x t x d",
                  a->kv == KV_GQA ? "g" : "h", a->kv == KV_GQA ? "g" : "h", kvh);
        if (a->kv == KV_GQA)
            sb_append(s, ",\n * query head h reading K/V head g = h / (h / hkv)");
        sb_append(s, ". */\n");
    } else if (scores) {
        if (a->out == OUT_SCORES)
            sb_printf(s, ":\n * scores[b][h][i][j] = dot(q[b][h][i], k[b][h][j]) / sqrt(d)%s;\n"
                         " * q and k are b x h x s x d, scores b x h x s x s",
                      a->bias == B_ALIBI ? " - slope_h * |i - j|,\n * slope_h = 2^(-8 (h + 1) / H)" : "");
        else
            sb_append(s, ":\n * probs[b][h][i] = softmax over j <= i of dot(q[b][h][i], k[b][h][j]) / sqrt(d),\n"
                         " * 0 for j > i; q and k are b x h x s x d, probs b x h x s x s");
        sb_append(s, ". */\n");
    } else {
        sb_printf(s, ":\n * out = softmax(q k^T / sqrt(d)");
        if (a->bias == B_ALIBI)
            sb_printf(s, " - slope_h * %s", a->causal ? "(i - j)" : "|i - j|");
        if (a->bias == B_ADD)
            sb_append(s, " + attn_bias[h]");
        if (a->bias == B_SOFTCAP)
            sb_append(s, "\n *               with scores soft-capped as softcap * tanh(score / softcap)");
        sb_append(s, ") v per (batch, head)");
        if (a->causal && a->bias != B_WINDOW)
            sb_append(s, ",\n * key j > query i masked");
        if (a->bias == B_WINDOW)
            sb_append(s, ",\n * query i seeing only keys i - w < j <= i");
        if (a->bias == B_KEYPAD)
            sb_append(s, ",\n * keys with key_mask[b][j] == 0 masked (a row with no key left is 0)");
        if (a->bias == B_ALIBI)
            sb_append(s, ";\n * ALiBi slope_h = 2^(-8 (h + 1) / H)");
        if (a->lse)
            sb_append(s, ";\n * lse[b][h][i] = log(sum_j exp(score_ij)) is written too");
        if (a->layout == L_BHSD) {
            if (a->kv == KV_GQA)
                sb_append(s, ".\n * q and out are b x h x s x d, k and v b x hkv x s x d; query head h\n"
                             " * uses K/V head h / (h / hkv)");
            else if (a->kv == KV_MQA)
                sb_append(s, ".\n * q and out are b x h x s x d; every head shares k and v, b x s x d");
            else
                sb_append(s, ".\n * q, k, v and out are b x h x s x d");
        } else if (a->layout == L_BSHD) {
            sb_append(s, ".\n * q, k, v and out are b x s x h x d (sequence-major)");
        } else {
            sb_append(s, ".\n * qkv is b x s x 3 x h x d (q, k, v interleaved per position); out is\n"
                         " * b x s x h x d");
        }
        sb_append(s, ". */\n");
    }
    sb_append(s, "#include <math.h>\n#include <stddef.h>\n");
    if (a->bias == B_KEYPAD)
        sb_append(s, "#include <stdint.h>\n");
    if (!scores)
        sb_append(s, "#include <stdlib.h>\n");
    else if (a->bias == B_ALIBI)
        sb_append(s, "#include <stdlib.h>\n");
    sb_append(s, "\n");

    if (scores) {
        /* One head's score (or probability) matrix. */
        tmpl_expand(s, &sub, "static void head_scores(const @T *qh, const @T *kh, @T *out, int s, int d");
        if (a->bias == B_ALIBI)
            tmpl_expand(s, &sub, ", @T slope");
        tmpl_expand(s, &sub, ")\n{\n"
                      "    @T scale = 1 / @sqrt((@T)d);\n"
                      "    for (int i = 0; i < s; i++) {\n"
                      "        @T *row = out + i * s;\n");
        if (a->out == OUT_PROBS)
            tmpl_expand(s, &sub, "        @T mx = -INFINITY;\n");
        tmpl_expand(s, &sub,
             "        for (int j = 0; @JCOND; j++) {\n"
             "            @T dot = 0;\n"
             "            for (int c = 0; c < d; c++)\n"
             "                dot += qh[i * d + c] * kh[j * d + c];\n"
             "            row[j] = @SCORE;\n");
        if (a->out == OUT_PROBS)
            tmpl_expand(s, &sub,
                 "            if (row[j] > mx)\n"
                 "                mx = row[j];\n"
                 "        }\n"
                 "        @T sum = 0;\n"
                 "        for (int j = 0; j <= i; j++) {\n"
                 "            row[j] = @exp(row[j] - mx);\n"
                 "            sum += row[j];\n"
                 "        }\n"
                 "        for (int j = 0; j <= i; j++)\n"
                 "            row[j] /= sum;\n"
                 "        for (int j = i + 1; j < s; j++)\n"
                 "            row[j] = 0;\n");
        else
            sb_append(s, "        }\n");
        sb_append(s, "    }\n}\n\n");
        char sig[200];
        snprintf(sig, sizeof sig, "void %s(const @T *q, const @T *k, @T *%s, int b, int h, int s, int d)", a->entry,
                 oname);
        put_sig(s, &sub, sig);
        sb_append(s, "\n{\n    for (int bi = 0; bi < b; bi++) {\n        for (int hi = 0; hi < h; hi++) {\n");
        if (a->bias == B_ALIBI)
            tmpl_expand(s, &sub, "            @T slope = @pow(2.0@f, -8.0@f * (hi + 1) / h);\n");
        sb_printf(s, "            size_t head = (size_t)bi * h + hi;\n"
                     "            head_scores(q + head * s * d, k + head * s * d, %s + head * s * s, s, d%s);\n"
                     "        }\n    }\n}\n",
                  oname, a->bias == B_ALIBI ? ", slope" : "");
        return;
    }

    /* The per-head helper. */
    {
        StrBuf sig = STRBUF_INIT;
        tmpl_expand(&sig, &sub, decode ? "static void attend_head(const @T *qh, const @T *kh, const @T *vh, @T *oh"
                                : "static void attend_head(const @T *qh, const @T *kh, const @T *vh, @T *oh");
        if (a->bias == B_KEYPAD)
            sb_append(&sig, ", const uint8_t *keep");
        if (a->bias == B_ADD)
            tmpl_expand(&sig, &sub, ", const @T *bias");
        if (a->lse)
            tmpl_expand(&sig, &sub, ", @T *lse");
        sb_printf(&sig, ", int %s, int d", len);
        if (a->layout == L_BSHD)
            sb_append(&sig, ", int ld");
        if (a->layout == L_QKV)
            sb_append(&sig, ", int ld, int ldo");
        if (a->bias == B_ALIBI)
            tmpl_expand(&sig, &sub, ", @T slope");
        if (a->bias == B_WINDOW)
            sb_append(&sig, ", int w");
        if (a->bias == B_SOFTCAP)
            tmpl_expand(&sig, &sub, ", @T softcap");
        tmpl_expand(&sig, &sub, ", @T *p)");
        tmpl_put_wrapped(s, sig.data);
        sb_release(&sig);
    }
    tmpl_expand(s, &sub, "\n{\n    @T scale = 1 / @sqrt((@T)d);\n");
    if (decode) {
        /* A single query: the row template without the i loop. */
        tmpl_expand(s, &sub,
             "    @T mx = -INFINITY;\n"
             "    for (int j = 0; j < t; j++) {\n"
             "        @T dot = 0;\n"
             "        for (int c = 0; c < d; c++)\n"
             "            dot += qh[c] * kh[j * d + c];\n"
             "        p[j] = dot * scale;\n"
             "        if (p[j] > mx)\n"
             "            mx = p[j];\n"
             "    }\n"
             "    @T sum = 0;\n"
             "    for (int j = 0; j < t; j++) {\n"
             "        p[j] = @exp(p[j] - mx);\n"
             "        sum += p[j];\n"
             "    }\n"
             "    for (int c = 0; c < d; c++) {\n"
             "        @T acc = 0;\n"
             "        for (int j = 0; j < t; j++)\n"
             "            acc += p[j] * vh[j * d + c];\n"
             "        oh[c] = acc / sum;\n"
             "    }\n}\n\n");
    } else {
        sb_append(s, "    for (int i = 0; i < s; i++) {\n");
        if (a->bias == B_WINDOW)
            sb_append(s, "        int j0 = i - w + 1 > 0 ? i - w + 1 : 0;\n");
        emit_row(s, &sub, a);
        sb_append(s, "    }\n}\n\n");
    }

    /* The entry. */
    {
        StrBuf sig = STRBUF_INIT;
        sb_printf(&sig, "void %s(", a->entry);
        if (a->layout == L_QKV)
            tmpl_expand(&sig, &sub, "const @T *qkv");
        else
            tmpl_expand(&sig, &sub, "const @T *q, const @T *k, const @T *v");
        if (a->bias == B_KEYPAD)
            sb_append(&sig, ", const uint8_t *key_mask");
        if (a->bias == B_ADD)
            tmpl_expand(&sig, &sub, ", const @T *attn_bias");
        tmpl_expand(&sig, &sub, ", @T *out");
        if (a->lse)
            tmpl_expand(&sig, &sub, ", @T *lse");
        sb_printf(&sig, ", int b, int h%s, int %s, int d%s", a->kv == KV_GQA ? ", int hkv" : "", len,
                  a->bias == B_WINDOW ? ", int w" : "");
        if (a->bias == B_SOFTCAP)
            tmpl_expand(&sig, &sub, ", @T softcap");
        sb_append(&sig, ")");
        tmpl_put_wrapped(s, sig.data);
        sb_release(&sig);
    }
    sb_printf(s, "\n{\n");
    tmpl_set(&sub, "len", len);
    tmpl_expand(s, &sub, "    @T *p = malloc((size_t)@len * sizeof *p);\n    if (!p)\n        return;\n");
    if (a->kv == KV_GQA)
        sb_append(s, "    int group = h / hkv;\n");
    if (a->layout == L_BSHD)
        sb_append(s, "    int ld = h * d;\n");
    if (a->layout == L_QKV)
        sb_append(s, "    int ld = 3 * h * d;\n    int ldo = h * d;\n");
    sb_append(s, "    for (int bi = 0; bi < b; bi++) {\n        for (int hi = 0; hi < h; hi++) {\n");
    if (a->bias == B_ALIBI)
        tmpl_expand(s, &sub, "            @T slope = @pow(2.0@f, -8.0@f * (hi + 1) / h);\n");
    const char *ind = "            ";
    if (decode) {
        sb_printf(s, "%ssize_t head = (size_t)bi * h + hi;\n", ind);
        sb_printf(s, "%ssize_t kv_head = (size_t)bi * %s + %s;\n", ind, kvh, a->kv == KV_GQA ? "hi / group" : "hi");
        StrBuf call = STRBUF_INIT;
        sb_printf(&call, "%sattend_head(q + head * d, k + kv_head * t * d, v + kv_head * t * d, out + head * d, t, d, p);\n",
                  ind);
        tmpl_put_wrapped(s, call.data);
        sb_release(&call);
    } else if (a->layout == L_BHSD) {
        sb_printf(s, "%ssize_t head = (size_t)bi * h + hi;\n", ind);
        if (a->kv == KV_GQA)
            sb_printf(s, "%ssize_t kv_head = (size_t)bi * hkv + hi / group;\n", ind);
        else if (a->kv == KV_MQA)
            sb_printf(s, "%ssize_t kv_head = bi;\n", ind);
        const char *kvo = a->kv == KV_MHA ? "head" : "kv_head";
        StrBuf call = STRBUF_INIT;
        sb_printf(&call, "%sattend_head(q + head * s * d, k + %s * s * d, v + %s * s * d, out + head * s * d", ind,
                  kvo, kvo);
        if (a->bias == B_KEYPAD)
            sb_append(&call, ", key_mask + (size_t)bi * s");
        if (a->bias == B_ADD)
            sb_append(&call, ", attn_bias + (size_t)hi * s * s");
        if (a->lse)
            sb_append(&call, ", lse + head * s");
        sb_append(&call, ", s, d");
        if (a->bias == B_ALIBI)
            sb_append(&call, ", slope");
        if (a->bias == B_WINDOW)
            sb_append(&call, ", w");
        if (a->bias == B_SOFTCAP)
            sb_append(&call, ", softcap");
        sb_append(&call, ", p);\n");
        /* Wrap a long call after a comma, aligned under the first argument. */
        tmpl_put_wrapped(s, call.data);
        sb_release(&call);
    } else if (a->layout == L_BSHD) {
        sb_printf(s, "%ssize_t off = (size_t)bi * s * ld + (size_t)hi * d;\n", ind);
        sb_printf(s, "%sattend_head(q + off, k + off, v + off, out + off, s, d, ld, p);\n", ind);
    } else {
        sb_printf(s, "%sconst %s *qh = qkv + (size_t)bi * s * ld + (size_t)hi * d;\n", ind, f64 ? "double" : "float");
        sb_printf(s, "%sattend_head(qh, qh + ldo, qh + 2 * ldo, out + (size_t)bi * s * ldo + (size_t)hi * d,\n"
                     "%s            s, d, ld, ldo, p);\n", ind, ind);
    }
    sb_append(s, "        }\n    }\n    free(p);\n}\n");
}

/* ---- the pair ----
 *
 * Unfused attention in up to three launches, as a first GPU version
 * computes it: (1) the scores, one thread per (query row, key), into the
 * output (scores, probs) or a scratch matrix S of rows x keys; (2) the
 * row softmax, one warp per query row with shuffle max and sum: probs are
 * normalised in place, full attention keeps exp(score - max) in S and the
 * row's sum in scratch (and writes the log-sum-exp); (3) out = P V / sum,
 * one thread per output element.  A query row r is (batch, head, query i)
 * in the layout's order; "locate" code finds its rows of q, k, v, out. */

static const char ATT_WARP[] =
    "#define NEG_INF @ninf /* -infinity: NVRTC has no INFINITY */\n\n"
    "/* The max over the 32 lanes of a warp (butterfly shuffles: every lane gets it). */\n"
    "__device__ __forceinline__ @T warp_max(@T v)\n{\n"
    "    for (int o = 16; o > 0; o >>= 1) {\n"
    "        const @T u = __shfl_xor_sync(0xffffffffu, v, o);\n"
    "        v = u > v ? u : v;\n    }\n"
    "    return v;\n}\n\n"
    "/* The sum over the 32 lanes of a warp (butterfly shuffles: every lane gets it). */\n"
    "__device__ __forceinline__ @T warp_sum(@T v)\n{\n"
    "    for (int o = 16; o > 0; o >>= 1)\n        v += __shfl_xor_sync(0xffffffffu, v, o);\n"
    "    return v;\n}\n\n";

/* Appends `extern "C" __global__ void name(params)` (wrapped) and "{\n". */
static void att_head(StrBuf *k, const TmplSubs *sub, const char *name, const char *params)
{
    StrBuf line = STRBUF_INIT;
    sb_printf(&line, "extern \"C\" __global__ void %s(", name);
    tmpl_expand(&line, sub, params);
    sb_append(&line, ")");
    tmpl_put_wrapped(k, line.data);
    sb_append(k, "\n{\n");
    sb_release(&line);
}

/* The locate code of query row r: i (the query), and with `ptrs` the row
 * pointers qh, oh and head bases kh, vh (those the kernel has: q, v, out
 * flags), slope, bias, keep, and the key range [j0, jend). */
static void att_locate(StrBuf *k, const TmplSubs *sub, const Att *a, int q, int v, int o)
{
    int decode = a->out == OUT_DECODE;
    if (a->layout == L_SINGLE) {
        tmpl_expand(k, sub, "    const int i = (int)r;\n");
        if (q)
            tmpl_expand(k, sub, "    const @T *qh = q + (long long)i * @DK;\n");
        if (v)
            tmpl_expand(k, sub, "    const @T *vh = v;\n");
        if (o)
            tmpl_expand(k, sub, "    @T *oh = out + (long long)i * @DV;\n");
    } else if (decode) {
        tmpl_expand(k, sub, "    const int bi = (int)(r / h), hi = (int)(r % h);\n");
        tmpl_expand(k, sub, a->kv == KV_GQA ? "    const long long kvh = (long long)bi * hkv + hi / (h / hkv);\n"
                                            : "    const long long kvh = r;\n");
        if (q)
            tmpl_expand(k, sub, "    const @T *qh = q + r * d;\n    const @T *kh = k + kvh * t * d;\n");
        if (v)
            tmpl_expand(k, sub, "    const @T *vh = v + kvh * t * d;\n");
        if (o)
            tmpl_expand(k, sub, "    @T *oh = out + r * d;\n");
    } else {
        tmpl_expand(k, sub, "    const long long head = r / s; /* batch * h + head */\n"
                            "    const int i = (int)(r % s), bi = (int)(head / h), hi = (int)(head % h);\n");
        if (a->layout == L_BHSD) {
            const char *kvh = a->kv == KV_GQA ? "(long long)bi * hkv + hi / (h / hkv)" : a->kv == KV_MQA ? "bi" : "head";
            if (q || v)
                sb_printf(k, "    const long long kvh = %s;\n", kvh);
            if (q)
                tmpl_expand(k, sub, "    const @T *qh = q + r * d;\n    const @T *kh = k + kvh * s * d;\n");
            if (v)
                tmpl_expand(k, sub, "    const @T *vh = v + kvh * s * d;\n");
            if (o)
                tmpl_expand(k, sub, "    @T *oh = out + r * d;\n");
        } else if (a->layout == L_BSHD) {
            tmpl_expand(k, sub, "    const int ld = h * d;\n"
                                "    const long long off = (long long)bi * s * ld + (long long)hi * d;\n");
            if (q)
                tmpl_expand(k, sub, "    const @T *qh = q + off + (long long)i * ld;\n    const @T *kh = k + off;\n");
            if (v)
                tmpl_expand(k, sub, "    const @T *vh = v + off;\n");
            if (o)
                tmpl_expand(k, sub, "    @T *oh = out + off + (long long)i * ld;\n");
        } else {
            tmpl_expand(k, sub, "    const int ld = 3 * h * d, ldo = h * d;\n"
                                "    const @T *base = qkv + (long long)bi * s * ld + (long long)hi * d;\n");
            if (q)
                tmpl_expand(k, sub, "    const @T *qh = base + (long long)i * ld;\n    const @T *kh = base + ldo;\n");
            if (v)
                tmpl_expand(k, sub, "    const @T *vh = base + 2 * ldo;\n");
            if (o)
                tmpl_expand(k, sub, "    @T *oh = out + (long long)bi * s * ldo + (long long)hi * d + (long long)i * ldo;\n");
        }
        if (q && a->bias == B_ALIBI)
            tmpl_expand(k, sub, "    const @T slope = @pow(2.0@f, -8.0@f * (hi + 1) / h);\n");
        if (q && a->bias == B_ADD)
            tmpl_expand(k, sub, "    const @T *bias = attn_bias + (long long)hi * s * s;\n");
        if (q && a->bias == B_KEYPAD)
            tmpl_expand(k, sub, "    const unsigned char *keep = key_mask + (long long)bi * s;\n");
    }
    if (a->bias == B_WINDOW)
        tmpl_expand(k, sub, "    const int j0 = i - w + 1 > 0 ? i - w + 1 : 0, jend = i + 1;\n");
    else if (a->causal)
        tmpl_expand(k, sub, "    const int j0 = 0, jend = i + 1;\n");
    else
        tmpl_expand(k, sub, "    const int j0 = 0, jend = @NK;\n");
}

static void emit_cuda(GenProgram *p, const Att *a, int f64)
{
    int decode = a->out == OUT_DECODE, full = a->out == OUT_FULL || decode;
    TmplSubs sub;
    tmpl_init(&sub, f64);
    char score[128];
    score_expr(score, sizeof score, a, f64);
    tmpl_set(&sub, "SCORE", score);
    tmpl_set(&sub, "ninf", f64 ? "__longlong_as_double(0xfff0000000000000ULL)" : "__int_as_float(0xff800000)");
    const char *rows, *nk, *dk, *dv, *params, *args;
    if (a->layout == L_SINGLE && a->cross) {
        rows = "sq", nk = "sk", dk = "dk", dv = "dv";
        params = "int sq, int sk, int dk, int dv", args = "sq,sk,dk,dv";
    } else if (a->layout == L_SINGLE) {
        rows = "s", nk = "s", dk = "d", dv = "d";
        params = "int s, int d", args = "s,d";
    } else if (decode) {
        rows = "b*h", nk = "t", dk = "d", dv = "d";
        params = a->kv == KV_GQA ? "int b, int h, int hkv, int t, int d" : "int b, int h, int t, int d";
        args = a->kv == KV_GQA ? "b,h,hkv,t,d" : "b,h,t,d";
    } else {
        rows = "b*h*s", nk = "s", dk = "d", dv = "d";
        params = a->kv == KV_GQA ? "int b, int h, int hkv, int s, int d"
                 : a->bias == B_WINDOW ? "int b, int h, int s, int d, int w" : "int b, int h, int s, int d";
        args = a->kv == KV_GQA ? "b,h,hkv,s,d" : a->bias == B_WINDOW ? "b,h,s,d,w" : "b,h,s,d";
    }
    char rows_c[32];
    snprintf(rows_c, sizeof rows_c, "%s", !strcmp(rows, "b*h*s") ? "(long long)b * h * s"
                                          : !strcmp(rows, "b*h") ? "(long long)b * h"
                                          : !strcmp(rows, "sq")  ? "(long long)sq" : "(long long)s");
    tmpl_set(&sub, "ROWS", rows_c);
    tmpl_set(&sub, "NK", nk);
    tmpl_set(&sub, "DK", dk);
    tmpl_set(&sub, "DV", dv);
    tmpl_set(&sub, "P", params);
    /* Row-relative operand expressions. */
    int packed = a->layout == L_BSHD || a->layout == L_QKV;
    tmpl_set(&sub, "QI", "qh[c]");
    tmpl_set(&sub, "KJ", a->kt ? "kt[(long long)c * s + j]" : a->layout == L_SINGLE ? (a->cross ? "k[(long long)j * dk + c]" : "k[(long long)j * d + c]")
                         : packed ? "kh[(long long)j * ld + c]" : "kh[(long long)j * d + c]");
    tmpl_set(&sub, "VJ", a->layout == L_SINGLE ? (a->cross ? "vh[(long long)j * dv + c]" : "vh[(long long)j * d + c]")
                         : packed ? "vh[(long long)j * ld + c]" : "vh[(long long)j * d + c]");
    const char *sname = full ? "S" : a->out == OUT_PROBS ? "probs" : "scores";
    tmpl_set(&sub, "S", sname);
    StrBuf *k = gen_cuda_src(p);
    if (a->out != OUT_SCORES)
        tmpl_expand(k, &sub, ATT_WARP);

    /* (1) scores */
    StrBuf ps = STRBUF_INIT;
    if (a->layout == L_QKV)
        sb_append(&ps, "const @T *__restrict__ qkv");
    else
        sb_append(&ps, a->kt ? "const @T *__restrict__ q, const @T *__restrict__ kt"
                             : "const @T *__restrict__ q, const @T *__restrict__ k");
    if (a->bias == B_KEYPAD)
        sb_append(&ps, ", const unsigned char *__restrict__ key_mask");
    if (a->bias == B_ADD)
        sb_append(&ps, ", const @T *__restrict__ attn_bias");
    sb_printf(&ps, ", @T *__restrict__ %s, %s", sname, params);
    if (a->bias == B_SOFTCAP)
        sb_append(&ps, ", @T softcap");
    tmpl_expand(k, &sub, full ? "/* S[r][j] = the score of query row r against key j: one thread per (r, j);\n"
                                " * masked keys get -infinity, keys outside the row's range nothing. */\n"
                              : "/* The score of query row r against key j: one thread per (r, j). */\n");
    att_head(k, &sub, "scores", ps.data);
    tmpl_expand(k, &sub, "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (e >= @ROWS * @NK)\n        return;\n"
                         "    const long long r = e / @NK;\n"
                         "    const int j = (int)(e % @NK);\n");
    att_locate(k, &sub, a, 1, 0, 0);
    if (a->causal || a->bias == B_WINDOW)
        tmpl_expand(k, &sub, "    if (j < j0 || j >= jend)\n        return;\n");
    if (a->bias == B_KEYPAD)
        tmpl_expand(k, &sub, "    if (!keep[j]) {\n        @S[e] = NEG_INF;\n        return;\n    }\n");
    tmpl_expand(k, &sub, "    const @T scale = 1 / @sqrt((@T)@DK);\n"
                         "    @T dot = 0;\n"
                         "    for (int c = 0; c < @DK; c++)\n"
                         "        dot += @QI * @KJ;\n"
                         "    @S[e] = @SCORE;\n}\n");
    char grid[64], a1[256];
    snprintf(grid, sizeof grid, "(%s*%s+255)/256", rows, nk);
    snprintf(a1, sizeof a1, "%s%s%s,%s,%s%s", a->layout == L_QKV ? "qkv" : a->kt ? "q,kt" : "q,k",
             a->bias == B_KEYPAD ? ",key_mask" : "", a->bias == B_ADD ? ",attn_bias" : "", sname, args,
             a->bias == B_SOFTCAP ? ",softcap" : "");
    if (full) {
        char cnt[32];
        snprintf(cnt, sizeof cnt, "%s*%s", rows, nk);
        gen_scratch(p, "S", f64 ? "f64" : "f32", cnt);
        gen_scratch(p, "rowsum", f64 ? "f64" : "f32", rows);
    }
    gen_launch(p, "scores", grid, "256", NULL, a1);
    if (a->out == OUT_SCORES) {
        sb_release(&ps);
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "one-score-per-thread");
        return;
    }

    /* (2) row softmax */
    sb_release(&ps);
    sb_printf(&ps, "@T *__restrict__ %s%s%s, %s", sname, full ? ", @T *__restrict__ rowsum" : "",
              a->lse ? ", @T *__restrict__ lse" : "", params);
    tmpl_expand(k, &sub, full ? "\n/* S[r][j] = exp(S[r][j] - max_j), rowsum[r] = its sum: one warp per query row. */\n"
                              : "\n/* probs[r] = softmax of the row's scores, in place: one warp per query row. */\n");
    att_head(k, &sub, "softmax_rows", ps.data);
    tmpl_expand(k, &sub, "    const long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;\n"
                         "    const int lane = threadIdx.x % 32;\n"
                         "    if (r >= @ROWS)\n        return; /* the whole warp: rows are warp-uniform */\n");
    if (decode)
        tmpl_expand(k, &sub, "    const int j0 = 0, jend = @NK;\n");
    else if (a->layout == L_SINGLE)
        att_locate(k, &sub, a, 0, 0, 0);
    else {
        tmpl_expand(k, &sub, "    const int i = (int)(r % s);\n");
        if (a->bias == B_WINDOW)
            tmpl_expand(k, &sub, "    const int j0 = i - w + 1 > 0 ? i - w + 1 : 0, jend = i + 1;\n");
        else if (a->causal)
            tmpl_expand(k, &sub, "    const int j0 = 0, jend = i + 1;\n");
        else
            tmpl_expand(k, &sub, "    const int j0 = 0, jend = @NK;\n");
    }
    tmpl_expand(k, &sub, "    @T *row = @S + r * @NK;\n"
                         "    @T mx = NEG_INF;\n"
                         "    for (int j = j0 + lane; j < jend; j += 32)\n"
                         "        mx = row[j] > mx ? row[j] : mx;\n"
                         "    mx = warp_max(mx);\n");
    if (a->bias == B_KEYPAD)
        tmpl_expand(k, &sub, "    if (mx == NEG_INF) { /* every key is padding: the output row is zero */\n"
                             "        if (lane == 0)\n            rowsum[r] = 0;\n"
                             "        return;\n    }\n");
    tmpl_expand(k, &sub, "    @T sum = 0;\n"
                         "    for (int j = j0 + lane; j < jend; j += 32) {\n"
                         "        row[j] = @exp(row[j] - mx);\n"
                         "        sum += row[j];\n    }\n"
                         "    sum = warp_sum(sum);\n");
    if (full) {
        tmpl_expand(k, &sub, a->lse ? "    if (lane == 0) {\n        rowsum[r] = sum;\n        lse[r] = mx + @log(sum);\n    }\n}\n"
                                    : "    if (lane == 0)\n        rowsum[r] = sum;\n}\n");
    } else {
        tmpl_expand(k, &sub, "    for (int j = j0 + lane; j < jend; j += 32)\n        row[j] /= sum;\n");
        if (a->causal)
            tmpl_expand(k, &sub, "    for (int j = jend + lane; j < @NK; j += 32)\n        row[j] = 0;\n");
        sb_append(k, "}\n");
    }
    char a2[128];
    snprintf(grid, sizeof grid, "(%s+7)/8", rows);
    snprintf(a2, sizeof a2, "%s%s%s,%s", sname, full ? ",rowsum" : "", a->lse ? ",lse" : "", args);
    gen_launch(p, "softmax_rows", grid, "256", NULL, a2);
    if (!full) {
        sb_release(&ps);
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "one-score-per-thread, then warp-per-row softmax (two launches)");
        return;
    }

    /* (3) out = P V / sum */
    sb_release(&ps);
    sb_printf(&ps, "%s, const @T *__restrict__ S, const @T *__restrict__ rowsum, @T *__restrict__ out, %s",
              a->layout == L_QKV ? "const @T *__restrict__ qkv" : "const @T *__restrict__ v", params);
    tmpl_expand(k, &sub, "\n/* out[r][c] = sum_j S[r][j] v[j][c] / rowsum[r]: one thread per output element. */\n");
    att_head(k, &sub, "weighted_sum", ps.data);
    tmpl_expand(k, &sub, "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (e >= @ROWS * @DV)\n        return;\n"
                         "    const long long r = e / @DV;\n"
                         "    const int c = (int)(e % @DV);\n");
    att_locate(k, &sub, a, 0, 1, 1);
    tmpl_expand(k, &sub, "    const @T *pr = S + r * @NK;\n"
                         "    @T acc = 0;\n"
                         "    for (int j = j0; j < jend; j++)\n"
                         "        acc += pr[j] * @VJ;\n");
    if (a->bias == B_KEYPAD)
        tmpl_expand(k, &sub, "    const @T sum = rowsum[r];\n    oh[c] = sum > 0 ? acc / sum : 0;\n}\n");
    else
        tmpl_expand(k, &sub, "    oh[c] = acc / rowsum[r];\n}\n");
    char a3[128];
    snprintf(grid, sizeof grid, "(%s*%s+255)/256", rows, dv);
    snprintf(a3, sizeof a3, "%s,S,rowsum,out,%s", a->layout == L_QKV ? "qkv" : "v", args);
    gen_launch(p, "weighted_sum", grid, "256", NULL, a3);
    sb_release(&ps);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-score-per-thread, warp-per-row softmax, one-output-per-thread P V (three launches)");
}

static int generate(GenCtx *g)
{
    int n = (int)(sizeof ATTS / sizeof ATTS[0]);
    for (int i = 0; i < n; i++)
        for (int f64 = 0; f64 < 2; f64++) {
            const Att *a = &ATTS[i];
            char variant[64];
            snprintf(variant, sizeof variant, "%s-%s", a->tag, f64 ? "f64" : "f32");
            GenProgram *p = gen_begin(g, variant, a->entry);
            gen_describe(p, "%s (%s)", a->title, f64 ? "f64" : "f32");
            if (a->layout == L_SINGLE)
                single_head(p, a, f64);
            else
                multi_head(p, a, f64);
            if (!f64)
                gen_tolerance(p, a->out == OUT_PROBS ? 1e-6 : 1e-4, 1e-3);
            else
                gen_tolerance(p, a->out == OUT_PROBS ? 1e-12 : 1e-9, 1e-7);
            emit_cuda(p, a, f64);
            if (gen_end(p) != 0)
                return -1;
        }
    return 0;
}

const Family family_attention = {"attention", "ml", 54, generate};
