/* cross_entropy — classification losses over an n x c matrix of scores:
 * cross-entropy from logits with integer targets (plain, label-smoothed,
 * class-weighted, with an ignored target value, with a z-loss term, focal),
 * NLL from log-probabilities, soft-target cross-entropy, KL divergence,
 * binary cross-entropy from logits (with and without pos_weight) and from
 * probabilities, a multi-class hinge loss, a masked per-token loss over a
 * (batch, time, vocab) tensor and the logits gradient of cross-entropy.
 * Reductions vary (per sample / per element, mean, sum, weighted mean);
 * f32 programs take i32 targets, f64 programs i64 targets.  Losses
 * accumulate in double. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

enum { R_NONE, R_MEAN, R_SUM, R_WMEAN, R_IGNMEAN, R_BATCHMEAN };
static const char *const RTAG[] = {"none", "mean", "sum", "wmean", "mean", "batchmean"};

/* What one op reads: int targets, a class-weight vector, a second n x c
 * input (targets or probabilities). */
typedef struct Loss {
    const char *tag, *entry, *title, *math;
    int red;
    int targets;      /* 1: int targets (n) */
    const char *in2;  /* a second n x c input, or NULL */
    const char *vec;  /* a length-c input (weight, pos_weight), or NULL */
    const char *scalar;
    double scalar_value;
    int elementwise;  /* per-element output (n x c) */
    int lse;          /* needs the logsumexp helper */
    const char *body; /* computes `l` for sample i (row, t in scope) */
    int flops;        /* per element */
} Loss;

#define CE_BODY "        @T l = logsumexp(row, c) - row[t];\n"

static const Loss LOSSES[] = {
    {"ce", "cross_entropy", "Cross-entropy from logits", "loss_i = logsumexp(x_i) - x_i[t_i]", R_NONE, 1, NULL,
     NULL, NULL, 0, 0, 1, CE_BODY, 4},
    {"ce", "cross_entropy", "Cross-entropy from logits", "loss = mean_i (logsumexp(x_i) - x_i[t_i])", R_MEAN, 1,
     NULL, NULL, NULL, 0, 0, 1, CE_BODY, 4},
    {"ce", "cross_entropy", "Cross-entropy from logits", "loss = sum_i (logsumexp(x_i) - x_i[t_i])", R_SUM, 1, NULL,
     NULL, NULL, 0, 0, 1, CE_BODY, 4},
    {"ce-smooth", "cross_entropy_smoothed", "Label-smoothed cross-entropy",
     "loss_i = logsumexp(x_i) - (1 - smoothing) x_i[t_i] - smoothing * mean_j x_i[j]", R_NONE, 1, NULL, NULL,
     "smoothing", 0.1, 0, 1,
     "        double row_sum = 0;\n"
     "        for (int j = 0; j < c; j++)\n"
     "            row_sum += row[j];\n"
     "        @T l = logsumexp(row, c) - (1 - smoothing) * row[t] - smoothing * @ROWMEAN;\n",
     5},
    {"ce-smooth", "cross_entropy_smoothed", "Label-smoothed cross-entropy",
     "loss = mean_i (logsumexp(x_i) - (1 - smoothing) x_i[t_i] - smoothing * mean_j x_i[j])", R_MEAN, 1, NULL,
     NULL, "smoothing", 0.1, 0, 1,
     "        double row_sum = 0;\n"
     "        for (int j = 0; j < c; j++)\n"
     "            row_sum += row[j];\n"
     "        @T l = logsumexp(row, c) - (1 - smoothing) * row[t] - smoothing * @ROWMEAN;\n",
     5},
    {"ce-weighted", "weighted_cross_entropy", "Class-weighted cross-entropy",
     "loss_i = weight[t_i] * (logsumexp(x_i) - x_i[t_i])", R_NONE, 1, NULL, "weight", NULL, 0, 0, 1,
     "        @T l = weight[t] * (logsumexp(row, c) - row[t]);\n", 4},
    {"ce-weighted", "weighted_cross_entropy", "Class-weighted cross-entropy",
     "loss = sum_i weight[t_i] (logsumexp(x_i) - x_i[t_i]) / sum_i weight[t_i]", R_WMEAN, 1, NULL, "weight", NULL,
     0, 0, 1, "        @T l = weight[t] * (logsumexp(row, c) - row[t]);\n", 4},
    {"ce-ignore", "cross_entropy_ignore", "Cross-entropy with an ignored target value",
     "loss_i = logsumexp(x_i) - x_i[t_i], or 0 where t_i == -1 (ignored)", R_NONE, 1, NULL, NULL, NULL, 0, 0, 1,
     "        @T l = t == -1 ? 0 : logsumexp(row, c) - row[t];\n", 4},
    {"ce-ignore", "cross_entropy_ignore", "Cross-entropy with an ignored target value",
     "loss = mean over the samples with t_i != -1 of logsumexp(x_i) - x_i[t_i]\n"
     " * (0 when every sample is ignored)",
     R_IGNMEAN, 1, NULL, NULL, NULL, 0, 0, 1, CE_BODY, 4},
    {"nll", "nll_loss", "Negative log-likelihood from log-probabilities", "loss_i = -logp_i[t_i]", R_NONE, 1, NULL,
     NULL, NULL, 0, 0, 0, "        @T l = -row[t];\n", 0},
    {"nll", "nll_loss", "Negative log-likelihood from log-probabilities", "loss = mean_i -logp_i[t_i]", R_MEAN, 1,
     NULL, NULL, NULL, 0, 0, 0, "        @T l = -row[t];\n", 0},
    {"nll-weighted", "weighted_nll_loss", "Class-weighted negative log-likelihood",
     "loss = sum_i -weight[t_i] logp_i[t_i] / sum_i weight[t_i]", R_WMEAN, 1, NULL, "weight", NULL, 0, 0, 0,
     "        @T l = -weight[t] * row[t];\n", 0},
    {"bce-logits", "bce_with_logits", "Binary cross-entropy from logits",
     "loss_ij = max(x, 0) - x y + log(1 + exp(-|x|))  (stable form of\n"
     " * -y log(sigmoid(x)) - (1 - y) log(1 - sigmoid(x)))",
     R_NONE, 0, "y", NULL, NULL, 0, 1, 0, NULL, 6},
    {"bce-logits", "bce_with_logits", "Binary cross-entropy from logits",
     "loss = mean_ij (max(x, 0) - x y + log(1 + exp(-|x|)))", R_MEAN, 0, "y", NULL, NULL, 0, 1, 0, NULL, 6},
    {"bce-logits-posweight", "bce_with_logits_pos_weight", "Binary cross-entropy from logits with pos_weight",
     "loss = mean_ij -(pos_weight[j] y log(sigmoid(x)) + (1 - y) log(1 - sigmoid(x)))", R_MEAN, 0, "y",
     "pos_weight", NULL, 0, 1, 0, NULL, 9},
    {"bce", "binary_cross_entropy", "Binary cross-entropy from probabilities",
     "loss_ij = -(y log(p) + (1 - y) log(1 - p)), each log clamped at -100", R_NONE, 0, "y", NULL, NULL, 0, 1, 0,
     NULL, 6},
    {"bce", "binary_cross_entropy", "Binary cross-entropy from probabilities",
     "loss = mean_ij -(y log(p) + (1 - y) log(1 - p)), each log clamped at -100", R_MEAN, 0, "y", NULL, NULL, 0, 1,
     0, NULL, 6},
    {"kl", "kl_div", "KL divergence", "loss_i = sum_j p_ij (log p_ij - logq_ij)  (0 where p_ij == 0)", R_NONE, 0, "p",
     NULL, NULL, 0, 0, 0, NULL, 4},
    {"kl", "kl_div", "KL divergence", "loss = sum_ij p_ij (log p_ij - logq_ij) / n  ('batchmean')", R_BATCHMEAN, 0,
     "p", NULL, NULL, 0, 0, 0, NULL, 4},
    {"soft-ce", "soft_target_cross_entropy", "Cross-entropy against soft targets",
     "loss_i = sum_j p_ij (logsumexp(x_i) - x_ij)", R_NONE, 0, "p", NULL, NULL, 0, 0, 1, NULL, 6},
    {"soft-ce", "soft_target_cross_entropy", "Cross-entropy against soft targets",
     "loss = mean_i sum_j p_ij (logsumexp(x_i) - x_ij)", R_MEAN, 0, "p", NULL, NULL, 0, 0, 1, NULL, 6},
    {"focal", "focal_loss", "Focal loss", "loss_i = -(1 - pt)^gamma log(pt),  log(pt) = x_i[t_i] - logsumexp(x_i)",
     R_NONE, 1, NULL, NULL, "gamma", 2.0, 0, 1,
     "        @T logpt = row[t] - logsumexp(row, c);\n"
     "        @T l = -@pow(1 - @exp(logpt), gamma) * logpt;\n",
     5},
    {"focal", "focal_loss", "Focal loss",
     "loss = mean_i -(1 - pt)^gamma log(pt),  log(pt) = x_i[t_i] - logsumexp(x_i)", R_MEAN, 1, NULL, NULL, "gamma",
     2.0, 0, 1,
     "        @T logpt = row[t] - logsumexp(row, c);\n"
     "        @T l = -@pow(1 - @exp(logpt), gamma) * logpt;\n",
     5},
    {"ce-grad", "cross_entropy_grad", "Gradient of summed cross-entropy",
     "dlogits_ij = softmax(x_i)_j - (j == t_i)", R_NONE, 1, NULL, NULL, NULL, 0, 1, 1, NULL, 5},
    {"ce-zloss", "cross_entropy_zloss", "Cross-entropy with a z-loss term",
     "loss = mean_i (lse_i - x_i[t_i] + z * lse_i^2),  lse_i = logsumexp(x_i)", R_MEAN, 1, NULL, NULL, "z", 1e-4,
     0, 1,
     "        @T lse = logsumexp(row, c);\n"
     "        @T l = lse - row[t] + z * lse * lse;\n",
     5},
    {"seq-ce-masked", "masked_token_cross_entropy", "Masked per-token cross-entropy",
     "loss = sum over tokens with mask != 0 of (logsumexp(x) - x[target]) / count of\n"
     " * such tokens (0 when none), logits b x t x v", R_IGNMEAN, 1, NULL, NULL, NULL, 0, 0, 1, NULL, 4},
    {"hinge", "multi_margin_loss", "Multi-class hinge loss",
     "loss_i = sum_{j != t_i} max(0, margin - x_i[t_i] + x_i[j]) / c", R_NONE, 1, NULL, NULL, "margin", 1.0, 0, 0,
     "        double sum = 0;\n"
     "        for (int j = 0; j < c; j++) {\n"
     "            @T d = margin - row[t] + row[j];\n"
     "            if (j != t && d > 0)\n"
     "                sum += d;\n"
     "        }\n"
     "        @T l = @cast(sum / c);\n",
     4},
};

static const char *LSE_HELPER =
    "static @T logsumexp(const @T *row, int c)\n"
    "{\n"
    "    @T mx = row[0];\n"
    "    for (int j = 1; j < c; j++)\n"
    "        if (row[j] > mx)\n"
    "            mx = row[j];\n"
    "    @T sum = 0;\n"
    "    for (int j = 0; j < c; j++)\n"
    "        sum += @exp(row[j] - mx);\n"
    "    return mx + @log(sum);\n"
    "}\n\n";

static void program(GenProgram *p, const Loss *L, int f64)
{
    const char *dt = f64 ? "f64" : "f32";
    const char *tt = f64 ? "i64" : "i32";
    const char *tc = f64 ? "int64_t" : "int32_t";
    int es = f64 ? 8 : 4, ts = f64 ? 8 : 4;
    int seq = strcmp(L->tag, "seq-ce-masked") == 0;
    int scalar_out = L->red != R_NONE;
    TmplSubs sub;
    tmpl_init(&sub, f64);
    tmpl_set(&sub, "I", tc);
    tmpl_set(&sub, "ROWMEAN", f64 ? "row_sum / c" : "(float)(row_sum / c)");
    tmpl_set(&sub, "cast", f64 ? "" : "(float)");
    tmpl_set(&sub, "castv", f64 ? "" : "(float)");
    int is_logp = strcmp(L->tag, "nll") == 0 || strcmp(L->tag, "nll-weighted") == 0;
    int is_kl = strcmp(L->tag, "kl") == 0;
    int is_bce = strcmp(L->tag, "bce") == 0;
    const char *xname = is_logp ? "logp" : is_kl ? "logq" : is_bce ? "prob" : "logits";

    /* Signature: the meta args. */
    gen_arg(p, xname, dt, "in", seq ? "b,t,v" : "n,c");
    if (is_logp || is_kl)
        gen_fill_uniform(p, xname, -9, -0.01);
    else if (is_bce)
        gen_fill_uniform(p, xname, 0.001, 0.999);
    else
        gen_fill_uniform(p, xname, -6, 6);
    if (L->targets) {
        gen_arg(p, "target", tt, "in", seq ? "b,t" : "n");
        if (seq)
            gen_fill_int(p, "target", "0", "v");
        else if (strcmp(L->tag, "ce-ignore") == 0)
            gen_fill_int(p, "target", "-1", "c");
        else
            gen_fill_int(p, "target", "0", "c");
    }
    if (seq) {
        gen_arg(p, "mask", "u8", "in", "b,t");
        gen_fill_int(p, "mask", "0", "2");
    }
    if (L->in2) {
        gen_arg(p, L->in2, dt, "in", "n,c");
        gen_fill_uniform(p, L->in2, 0, 1);
    }
    if (L->vec) {
        gen_arg(p, L->vec, dt, "in", "c");
        gen_fill_uniform(p, L->vec, 0.2, 2.0);
    }
    const char *oname = strcmp(L->tag, "ce-grad") == 0 ? "dlogits" : "loss";
    gen_arg(p, oname, dt, "out", scalar_out ? "1" : L->elementwise ? "n,c" : "n");
    if (seq) {
        gen_arg(p, "b", "i32", "param", NULL);
        gen_arg(p, "t", "i32", "param", NULL);
        gen_arg(p, "v", "i32", "param", NULL);
    } else {
        gen_arg(p, "n", "i32", "param", NULL);
        gen_arg(p, "c", "i32", "param", NULL);
    }
    if (L->scalar)
        gen_scalar(p, L->scalar, dt, L->scalar_value);
    if (seq) {
        gen_config(p, "small", "b=4,t=32,v=100");
        gen_config(p, "edge", "b=1,t=1,v=1");
        gen_config(p, "edge-prime", "b=3,t=7,v=31");
        gen_config(p, "large", f64 ? "b=8,t=512,v=16384" : "b=8,t=1024,v=16384");
    } else {
        gen_config(p, "small", "n=256,c=100");
        gen_config(p, "edge", "n=1,c=1");
        gen_config(p, "edge-prime", "n=13,c=37");
        gen_config(p, "large", f64 ? "n=8192,c=8192" : "n=16384,c=8192");
    }
    /* Cost. */
    char flops[48], bytes[128];
    const char *nc = seq ? "b*t*v" : "n*c";
    const char *nn = seq ? "b*t" : "n";
    snprintf(flops, sizeof flops, "%d*%s", L->flops ? L->flops : 1, L->flops ? nc : nn);
    int per_nc = es * (1 + (L->in2 ? 1 : 0) + (L->elementwise && !scalar_out ? 1 : 0));
    int per_n = (L->targets ? ts : 0) + (seq ? 1 : 0) + (!scalar_out && !L->elementwise ? es : 0);
    if (L->flops == 0)  /* NLL reads one log-probability per sample */
        snprintf(bytes, sizeof bytes, "%d*%s%s", es + per_n, nn, L->vec ? (f64 ? "+8*c" : "+4*c") : "");
    else
        snprintf(bytes, sizeof bytes, "%d*%s+%d*%s%s%s", per_nc, nc, per_n, nn,
                 L->vec ? (f64 ? "+8*c" : "+4*c") : "", scalar_out ? (f64 ? "+8" : "+4") : "");
    if (per_n == 0 && L->flops)
        snprintf(bytes, sizeof bytes, "%d*%s%s%s", per_nc, nc, L->vec ? (f64 ? "+8*c" : "+4*c") : "",
                 scalar_out ? (f64 ? "+8" : "+4") : "");
    gen_cost(p, flops, bytes);
    if (f64)
        gen_tolerance(p, 1e-9, 1e-8);
    else if (strcmp(L->tag, "ce-grad") == 0)
        gen_tolerance(p, 1e-6, 1e-3);
    else
        gen_tolerance(p, 1e-4, scalar_out ? 1e-3 : 1e-4);

    StrBuf *s = gen_src(p);
    sb_printf(s, "/* %s%s%s:\n * %s.\n", L->title,
              L->red == R_NONE ? (L->elementwise ? ", per element" : ", per sample") : ", reduced to one value",
              "", L->math);
    if (seq)
        sb_append(s, " * Rows are the b*t token positions, each with v vocabulary logits. */\n");
    else
        sb_printf(s, " * %s is n x c row-major%s. */\n", xname,
                  L->targets ? (f64 ? "; targets are int64 class indices" : "; targets are class indices") : "");
    sb_append(s, "#include <math.h>\n#include <stddef.h>\n");
    if (L->targets || seq)
        sb_append(s, "#include <stdint.h>\n");
    sb_append(s, "\n");
    if (L->lse)
        tmpl_expand(s, &sub, LSE_HELPER);

    /* Signature. */
    {
        StrBuf sig = STRBUF_INIT;
        sb_printf(&sig, "void %s(const %s *%s", L->entry, f64 ? "double" : "float", xname);
        if (L->targets)
            sb_printf(&sig, ", const %s *target", tc);
        if (seq)
            sb_append(&sig, ", const uint8_t *mask");
        if (L->in2)
            tmpl_expand(&sig, &sub, ", const @T *"), sb_append(&sig, L->in2);
        if (L->vec)
            tmpl_expand(&sig, &sub, ", const @T *"), sb_append(&sig, L->vec);
        tmpl_expand(&sig, &sub, ", @T *");
        sb_append(&sig, oname);
        sb_append(&sig, seq ? ", int b, int t, int v" : ", int n, int c");
        if (L->scalar)
            tmpl_expand(&sig, &sub, ", @T "), sb_append(&sig, L->scalar);
        sb_append(&sig, ")");
        tmpl_put_wrapped(s, sig.data);
        sb_release(&sig);
        sb_append(s, "\n{\n");
    }

    /* Element-wise and row-sum losses over two n x c inputs. */
    if (L->elementwise && L->in2) {
        const char *x = xname;
        if (scalar_out)
            sb_append(s, "    double total = 0;\n");
        sb_append(s, "    for (size_t k = 0; k < (size_t)n * c; k++) {\n");
        if (strcmp(L->tag, "bce") == 0) {
            tmpl_expand(s, &sub,
                 "        @T log_p = @fmax(@log(prob[k]), -100);\n"
                 "        @T log_q = @fmax(@log(1 - prob[k]), -100);\n"
                 "        @T l = -(y[k] * log_p + (1 - y[k]) * log_q);\n");
        } else if (L->vec) {
            tmpl_expand(s, &sub,
                 "        int j = (int)(k % (size_t)c);\n"
                 "        @T x = logits[k];\n"
                 "        /* -log(sigmoid(x)) = log(1 + exp(-|x|)) + max(-x, 0). */\n"
                 "        @T neg_log_sig = @log1p(@exp(-@fabs(x))) + @fmax(-x, 0);\n"
                 "        @T l = (1 - y[k]) * x + (1 + (pos_weight[j] - 1) * y[k]) * neg_log_sig;\n");
        } else {
            tmpl_expand(s, &sub,
                 "        @T x = logits[k];\n"
                 "        @T l = @fmax(x, 0) - x * y[k] + @log1p(@exp(-@fabs(x)));\n");
        }
        (void)x;
        if (scalar_out)
            tmpl_expand(s, &sub, "        total += l;\n    }\n    loss[0] = @cast(total / ((double)n * c));\n}\n");
        else
            sb_append(s, "        loss[k] = l;\n    }\n}\n");
        return;
    }
    if (is_kl || (L->in2 && !L->targets)) {
        if (scalar_out)
            sb_append(s, "    double total = 0;\n");
        sb_printf(s, "    for (int i = 0; i < n; i++) {\n"
                     "        const %s *row = %s + (size_t)i * c;\n"
                     "        const %s *pi = p + (size_t)i * c;\n",
                  f64 ? "double" : "float", xname, f64 ? "double" : "float");
        if (is_kl)
            tmpl_expand(s, &sub,
                 "        double sum = 0;\n"
                 "        for (int j = 0; j < c; j++)\n"
                 "            if (pi[j] > 0)\n"
                 "                sum += pi[j] * (@log(pi[j]) - row[j]);\n");
        else
            tmpl_expand(s, &sub,
                 "        @T lse = logsumexp(row, c);\n"
                 "        double sum = 0;\n"
                 "        for (int j = 0; j < c; j++)\n"
                 "            sum += pi[j] * (lse - row[j]);\n");
        if (scalar_out)
            tmpl_expand(s, &sub, "        total += sum;\n    }\n    loss[0] = @cast(total / n);\n}\n");
        else
            tmpl_expand(s, &sub, "        loss[i] = @{castv}sum;\n    }\n}\n");
        return;
    }
    if (strcmp(L->tag, "ce-grad") == 0) {
        tmpl_expand(s, &sub,
             "    for (int i = 0; i < n; i++) {\n"
             "        const @T *row = logits + (size_t)i * c;\n"
             "        @T *grad = dlogits + (size_t)i * c;\n"
             "        @T lse = logsumexp(row, c);\n"
             "        for (int j = 0; j < c; j++)\n"
             "            grad[j] = @exp(row[j] - lse);\n"
             "        grad[target[i]] -= 1;\n"
             "    }\n}\n");
        return;
    }
    if (seq) {
        tmpl_expand(s, &sub,
             "    double total = 0;\n"
             "    long count = 0;\n"
             "    for (size_t r = 0; r < (size_t)b * t; r++) {\n"
             "        if (!mask[r])\n"
             "            continue;\n"
             "        const @T *row = logits + r * v;\n"
             "        total += logsumexp(row, v) - row[target[r]];\n"
             "        count++;\n"
             "    }\n"
             "    loss[0] = count ? @cast(total / count) : 0;\n}\n");
        return;
    }

    /* Per-sample losses with integer targets. */
    if (L->red == R_WMEAN)
        sb_append(s, "    double total = 0, weight_sum = 0;\n");
    else if (L->red == R_IGNMEAN)
        sb_append(s, "    double total = 0;\n    int count = 0;\n");
    else if (scalar_out)
        sb_append(s, "    double total = 0;\n");
    sb_printf(s, "    for (int i = 0; i < n; i++) {\n        const %s *row = %s + (size_t)i * c;\n",
              f64 ? "double" : "float", xname);
    if (L->targets)
        sb_printf(s, "        %s t = target[i];\n", f64 ? "int64_t" : "int");
    if (L->red == R_IGNMEAN)
        sb_append(s, "        if (t == -1)\n            continue;\n");
    tmpl_expand(s, &sub, L->body);
    switch (L->red) {
    case R_NONE:
        sb_append(s, "        loss[i] = l;\n    }\n}\n");
        break;
    case R_MEAN:
        tmpl_expand(s, &sub, "        total += l;\n    }\n    loss[0] = @cast(total / n);\n}\n");
        break;
    case R_SUM:
        tmpl_expand(s, &sub, "        total += l;\n    }\n    loss[0] = @{castv}total;\n}\n");
        break;
    case R_WMEAN:
        tmpl_expand(s, &sub, "        total += l;\n        weight_sum += weight[t];\n    }\n"
                      "    loss[0] = @cast(total / weight_sum);\n}\n");
        break;
    case R_IGNMEAN:
        tmpl_expand(s, &sub, "        total += l;\n        count++;\n    }\n"
                      "    loss[0] = count ? @cast(total / count) : 0;\n}\n");
        break;
    }
}

/* ---- the pair ----
 * Row losses: one block per sample row; the row's logsumexp (its maximum,
 * then the sum of exponentials) and its other sums are per-thread passes
 * over strided slices followed by a shared-memory tree in double, and
 * thread 0 finishes the sample's loss.  NLL reads one element per sample:
 * one thread per sample.  Element-wise losses: one thread per element.
 * Reduced losses take a second launch: the per-sample losses go to a scratch
 * buffer that one block sums (element-wise means: per-block partial sums of
 * grid-stride slices, then one block sums those). */

static const char *const CUDA_BLOCK =
    "/* The sum of v over the block, returned to every thread; sh holds\n"
    " * blockDim.x values (a power of two). */\n"
    "__device__ double block_sum(double v, double *sh)\n{\n"
    "    sh[threadIdx.x] = v;\n"
    "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
    "        __syncthreads();\n"
    "        if (threadIdx.x < s)\n"
    "            sh[threadIdx.x] += sh[threadIdx.x + s];\n"
    "    }\n"
    "    __syncthreads();\n"
    "    v = sh[0];\n"
    "    __syncthreads(); /* sh is free for the next reduction */\n"
    "    return v;\n}\n\n";

static const char *const CUDA_BLOCK_LSE =
    "/* The maximum of v over the block, returned to every thread. */\n"
    "__device__ double block_max(double v, double *sh)\n{\n"
    "    sh[threadIdx.x] = v;\n"
    "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
    "        __syncthreads();\n"
    "        if (threadIdx.x < s && sh[threadIdx.x + s] > sh[threadIdx.x])\n"
    "            sh[threadIdx.x] = sh[threadIdx.x + s];\n"
    "    }\n"
    "    __syncthreads();\n"
    "    v = sh[0];\n"
    "    __syncthreads();\n"
    "    return v;\n}\n\n"
    "/* logsumexp of row[0 .. c), returned to every thread of the block. */\n"
    "__device__ @T block_lse(const @T *row, int c, double *sh)\n{\n"
    "    @T mx = row[0];\n"
    "    for (int j = threadIdx.x; j < c; j += blockDim.x)\n"
    "        if (row[j] > mx)\n"
    "            mx = row[j];\n"
    "    mx = (@T)block_max(mx, sh);\n"
    "    double sum = 0;\n"
    "    for (int j = threadIdx.x; j < c; j += blockDim.x)\n"
    "        sum += @exp(row[j] - mx);\n"
    "    sum = block_sum(sum, sh);\n"
    "    return mx + @log((@T)sum);\n}\n\n";

/* The loss of sample i, computed by thread 0 once lse (and the block's sums)
 * are known: defines l. */
static const char *row_loss_body(const Loss *L)
{
    const char *tag = L->tag;
    if (!strcmp(tag, "ce-smooth"))
        return "        const @T l = lse - (1 - smoothing) * row[t] - smoothing * @ROWMEAN;\n";
    if (!strcmp(tag, "ce-weighted"))
        return "        const @T l = weight[t] * (lse - row[t]);\n";
    if (!strcmp(tag, "ce-ignore") && L->red == R_NONE)
        return "        const @T l = t == -1 ? 0 : lse - row[t];\n";
    if (!strcmp(tag, "focal"))
        return "        const @T logpt = row[t] - lse;\n"
               "        const @T l = -@pow(1 - @exp(logpt), gamma) * logpt;\n";
    if (!strcmp(tag, "ce-zloss"))
        return "        const @T l = lse - row[t] + z * lse * lse;\n";
    if (!strcmp(tag, "hinge"))
        return "        const @T l = @cast(sum / c);\n";
    return "        const @T l = lse - row[t];\n";
}

static void cuda_program(GenProgram *p, const Loss *L, int f64)
{
    StrBuf *k = gen_cuda_src(p);
    TmplSubs sub;
    tmpl_init(&sub, f64);
    tmpl_set(&sub, "I", f64 ? "long long" : "int");
    tmpl_set(&sub, "ROWMEAN", f64 ? "row_sum / c" : "(float)(row_sum / c)");
    tmpl_set(&sub, "cast", f64 ? "" : "(float)");
    tmpl_set(&sub, "castv", f64 ? "" : "(float)");
    int seq = strcmp(L->tag, "seq-ce-masked") == 0;
    int reduced = L->red != R_NONE;
    int is_logp = strcmp(L->tag, "nll") == 0 || strcmp(L->tag, "nll-weighted") == 0;
    int is_kl = strcmp(L->tag, "kl") == 0, is_bce = strcmp(L->tag, "bce") == 0;
    int grad = strcmp(L->tag, "ce-grad") == 0, hinge = strcmp(L->tag, "hinge") == 0;
    int smooth = strcmp(L->tag, "ce-smooth") == 0;
    const char *xname = is_logp ? "logp" : is_kl ? "logq" : is_bce ? "prob" : "logits";
    const char *oname = grad ? "dlogits" : "loss";
    tmpl_set(&sub, "x", xname);
    tmpl_set(&sub, "vec", L->vec ? L->vec : "");
    tmpl_set(&sub, "sc", L->scalar ? L->scalar : "");

    sb_printf(k, "/* %s%s:\n * %s.\n", L->title,
              L->red == R_NONE ? (L->elementwise ? ", per element" : ", per sample") : ", reduced to one value",
              L->math);
    if (seq)
        sb_append(k, " * Rows are the b*t token positions, each with v vocabulary logits.\n");
    if (L->elementwise && L->in2)
        sb_append(k, reduced ? " * Per-block partial sums of grid-stride slices, then one block sums them. */\n"
                             : " * One thread per element. */\n");
    else if (is_logp)
        sb_append(k, reduced ? " * One thread per sample, then one block sums the losses. */\n"
                             : " * One thread per sample. */\n");
    else
        sb_append(k, reduced ? " * One block per sample row, then one block sums the losses. */\n"
                             : " * One block per sample row. */\n");
    /* block_sum only where a block sums: an element-wise loss kept per
     * element has one thread per element and no use for it (bce-none-f32
     * carried it unused) */
    if (reduced || (!is_logp && !(L->elementwise && L->in2)))
        tmpl_expand(k, &sub, CUDA_BLOCK);
    if (L->lse)
        tmpl_expand(k, &sub, CUDA_BLOCK_LSE);

    StrBuf sig = STRBUF_INIT, args = STRBUF_INIT;
    char kname[96];
    snprintf(kname, sizeof kname, !reduced ? "%s" : L->elementwise && L->in2 ? "%s_partial" : "%s_rows", L->entry);
    /* The scratch each sample's (or block's) result goes to when reduced. */
    const char *part = L->elementwise && L->in2 ? "partial" : "row_loss";
    const char *part_t = (L->elementwise && L->in2) || is_kl || L->in2 ? "double" : f64 ? "double" : "float";

    /* ---- launch 1 ---- */
    if (L->elementwise && L->in2) {
        tmpl_expand(&sig, &sub, "extern \"C\" __global__ void ");
        sb_printf(&sig, "%s(const %s *__restrict__ %s, ", kname, f64 ? "double" : "float", xname);
        tmpl_expand(&sig, &sub, "const @T *__restrict__ y, ");
        sb_printf(&args, "%s,y,", xname);
        if (L->vec) {
            tmpl_expand(&sig, &sub, "const @T *__restrict__ @vec, ");
            sb_printf(&args, "%s,", L->vec);
        }
        if (reduced)
            sb_printf(&sig, "double *__restrict__ partial, int n, int c)"), sb_append(&args, "partial,n,c");
        else
            tmpl_expand(&sig, &sub, "@T *__restrict__ loss, int n, int c)"), sb_append(&args, "loss,n,c");
        tmpl_put_wrapped(k, sb_str(&sig));
        sb_append(k, "\n{\n");
        if (reduced)
            sb_append(k, "    extern __shared__ double sh[];\n    double total = 0;\n"
                         "    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < (long long)n * c;\n"
                         "         q += (long long)gridDim.x * blockDim.x) {\n");
        else
            sb_append(k, "    const long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (q < (long long)n * c) {\n");
        if (is_bce)
            tmpl_expand(k, &sub,
                        "        const @T log_p = @fmax(@log(prob[q]), -100);\n"
                        "        const @T log_q = @fmax(@log(1 - prob[q]), -100);\n"
                        "        const @T l = -(y[q] * log_p + (1 - y[q]) * log_q);\n");
        else if (L->vec)
            tmpl_expand(k, &sub,
                        "        const int j = (int)(q % c);\n"
                        "        const @T x = logits[q];\n"
                        "        /* -log(sigmoid(x)) = log(1 + exp(-|x|)) + max(-x, 0). */\n"
                        "        const @T neg_log_sig = @log1p(@exp(-@fabs(x))) + @fmax(-x, 0);\n"
                        "        const @T l = (1 - y[q]) * x + (1 + (pos_weight[j] - 1) * y[q]) * neg_log_sig;\n");
        else
            tmpl_expand(k, &sub,
                        "        const @T x = logits[q];\n"
                        "        const @T l = @fmax(x, 0) - x * y[q] + @log1p(@exp(-@fabs(x)));\n");
        if (reduced) {
            sb_append(k, "        total += l;\n    }\n    total = block_sum(total, sh);\n"
                         "    if (threadIdx.x == 0)\n        partial[blockIdx.x] = total;\n}\n\n");
            gen_scratch(p, "partial", "f64", "1024");
            gen_launch(p, kname, "min((n*c+255)/256,1024)", "256", "256*8", sb_str(&args));
        } else {
            sb_append(k, "        loss[q] = l;\n    }\n}\n");
            gen_launch(p, kname, "(n*c+255)/256", "256", NULL, sb_str(&args));
        }
    } else if (is_logp) {
        tmpl_expand(&sig, &sub, "extern \"C\" __global__ void ");
        sb_printf(&sig, "%s(", kname);
        tmpl_expand(&sig, &sub, "const @T *__restrict__ logp, const @I *__restrict__ target, ");
        sb_append(&args, "logp,target,");
        if (L->vec) {
            tmpl_expand(&sig, &sub, "const @T *__restrict__ weight, ");
            sb_append(&args, "weight,");
        }
        tmpl_expand(&sig, &sub, reduced ? "@T *__restrict__ row_loss, int n, int c)" : "@T *__restrict__ loss, int n, int c)");
        sb_append(&args, reduced ? "row_loss,n,c" : "loss,n,c");
        tmpl_put_wrapped(k, sb_str(&sig));
        tmpl_expand(k, &sub,
                    "\n{\n"
                    "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "    if (i >= n)\n        return;\n"
                    "    const @I t = target[i];\n");
        sb_printf(k, "    %s[i] = %s;\n}\n\n", reduced ? "row_loss" : "loss",
                  L->vec ? "-weight[t] * logp[(long long)i * c + t]" : "-logp[(long long)i * c + t]");
        gen_launch(p, kname, "(n+255)/256", "256", NULL, sb_str(&args));
    } else {
        /* one block per sample row */
        const char *rowsn = seq ? "b*t" : "n";
        tmpl_expand(&sig, &sub, "extern \"C\" __global__ void ");
        sb_printf(&sig, "%s(const %s *__restrict__ %s", kname, f64 ? "double" : "float", xname);
        sb_printf(&args, "%s", xname);
        if (L->targets) {
            tmpl_expand(&sig, &sub, ", const @I *__restrict__ target");
            sb_append(&args, ",target");
        }
        if (seq) {
            sb_append(&sig, ", const unsigned char *__restrict__ mask");
            sb_append(&args, ",mask");
        }
        if (L->in2) {
            tmpl_expand(&sig, &sub, ", const @T *__restrict__ p");
            sb_append(&args, ",p");
        }
        if (L->vec) {
            tmpl_expand(&sig, &sub, ", const @T *__restrict__ @vec");
            sb_printf(&args, ",%s", L->vec);
        }
        if (reduced) {
            sb_printf(&sig, ", %s *__restrict__ row_loss", part_t);
            sb_append(&args, ",row_loss");
        } else {
            tmpl_expand(&sig, &sub, ", @T *__restrict__ ");
            sb_printf(&sig, "%s", oname);
            sb_printf(&args, ",%s", oname);
        }
        sb_append(&sig, seq ? ", int b, int t, int v" : ", int n, int c");
        sb_append(&args, seq ? ",b,t,v" : ",n,c");
        if (L->scalar) {
            tmpl_expand(&sig, &sub, ", @T @sc");
            sb_printf(&args, ",%s", L->scalar);
        }
        sb_append(&sig, ")");
        tmpl_put_wrapped(k, sb_str(&sig));
        sb_append(k, "\n{\n    extern __shared__ double sh[];\n");
        if (seq)
            tmpl_expand(k, &sub, "    const int r = blockIdx.x; /* the token */\n"
                                 "    if (!mask[r])\n        return;\n"
                                 "    const @T *row = logits + (long long)r * v;\n"
                                 "    const @T lse = block_lse(row, v, sh);\n"
                                 "    if (threadIdx.x == 0)\n"
                                 "        row_loss[r] = lse - row[target[r]];\n}\n\n");
        else {
            tmpl_expand(k, &sub, "    const int i = blockIdx.x;\n"
                                 "    const @T *row = @x + (long long)i * c;\n");
            if (L->targets)
                tmpl_expand(k, &sub, "    const @I t = target[i];\n");
            if (L->red == R_IGNMEAN)
                sb_append(k, "    if (t == -1) /* ignored: the same for the whole block */\n        return;\n");
            if (L->lse)
                tmpl_expand(k, &sub, "    const @T lse = block_lse(row, c, sh);\n");
            if (grad) {
                tmpl_expand(k, &sub, "    @T *grad = dlogits + (long long)i * c;\n"
                                     "    for (int j = threadIdx.x; j < c; j += blockDim.x) {\n"
                                     "        @T g = @exp(row[j] - lse);\n"
                                     "        if (j == t)\n            g -= 1;\n"
                                     "        grad[j] = g;\n    }\n}\n\n");
            } else if (L->in2) { /* kl, soft-ce: a row sum */
                tmpl_expand(k, &sub, "    const @T *pi = p + (long long)i * c;\n    double sum = 0;\n"
                                     "    for (int j = threadIdx.x; j < c; j += blockDim.x)\n");
                tmpl_expand(k, &sub, is_kl ? "        if (pi[j] > 0)\n"
                                             "            sum += pi[j] * (@log(pi[j]) - row[j]);\n"
                                           : "        sum += pi[j] * (lse - row[j]);\n");
                sb_append(k, "    sum = block_sum(sum, sh);\n    if (threadIdx.x == 0)\n");
                if (reduced)
                    sb_append(k, "        row_loss[i] = sum;\n}\n\n");
                else
                    tmpl_expand(k, &sub, "        loss[i] = @{castv}sum;\n}\n\n");
            } else {
                if (smooth)
                    sb_append(k, "    double row_sum = 0;\n"
                                 "    for (int j = threadIdx.x; j < c; j += blockDim.x)\n"
                                 "        row_sum += row[j];\n"
                                 "    row_sum = block_sum(row_sum, sh);\n");
                if (hinge)
                    tmpl_expand(k, &sub, "    double sum = 0;\n"
                                         "    for (int j = threadIdx.x; j < c; j += blockDim.x) {\n"
                                         "        const @T d = margin - row[t] + row[j];\n"
                                         "        if (j != t && d > 0)\n            sum += d;\n    }\n"
                                         "    sum = block_sum(sum, sh);\n");
                sb_append(k, "    if (threadIdx.x == 0) {\n");
                tmpl_expand(k, &sub, row_loss_body(L));
                sb_printf(k, "        %s[i] = l;\n    }\n}\n\n", reduced ? "row_loss" : "loss");
            }
        }
        gen_launch(p, kname, rowsn, "256", "256*8", sb_str(&args));
    }

    /* ---- launch 2: the reduction ---- */
    if (reduced) {
        int wmean = L->red == R_WMEAN, ign = L->red == R_IGNMEAN;
        const char *N = L->elementwise && L->in2 ? "nparts" : "n";
        sb_release(&sig);
        sb_release(&args);
        tmpl_expand(&sig, &sub, "extern \"C\" __global__ void ");
        sb_printf(&sig, "%s_reduce(const %s *__restrict__ %s", L->entry,
                  L->elementwise && L->in2 ? "double" : part_t, part);
        sb_printf(&args, "%s", part);
        if (wmean || (ign && !seq)) {
            tmpl_expand(&sig, &sub, ", const @I *__restrict__ target");
            sb_append(&args, ",target");
        }
        if (ign && seq) {
            sb_append(&sig, ", const unsigned char *__restrict__ mask");
            sb_append(&args, ",mask");
        }
        if (wmean) {
            tmpl_expand(&sig, &sub, ", const @T *__restrict__ weight");
            sb_append(&args, ",weight");
        }
        tmpl_expand(&sig, &sub, ", @T *__restrict__ loss");
        sb_append(&args, ",loss");
        if (L->elementwise && L->in2) {
            sb_append(&sig, ", int nparts, int n, int c)");
            sb_append(&args, ",min((n*c+255)/256,1024),n,c");
        } else {
            sb_append(&sig, ", int n)");
            sb_append(&args, seq ? ",b*t" : ",n");
        }
        tmpl_put_wrapped(k, sb_str(&sig));
        /* one accumulator a line: the low-precision defect finds each */
        sb_append(k, "\n{\n    extern __shared__ double sh[];\n    double total = 0;\n");
        sb_append(k, wmean ? "    double weight_sum = 0;\n" : ign ? "    double count = 0;\n" : "");
        sb_printf(k, "    for (int i = threadIdx.x; i < %s; i += blockDim.x) {\n", N);
        if (ign)
            sb_append(k, seq ? "        if (!mask[i])\n            continue;\n"
                             : "        if (target[i] == -1)\n            continue;\n");
        sb_printf(k, "        total += %s[i];\n", part);
        if (wmean)
            sb_append(k, "        weight_sum += weight[target[i]];\n");
        if (ign)
            sb_append(k, "        count += 1;\n");
        sb_append(k, "    }\n    total = block_sum(total, sh);\n");
        if (wmean)
            sb_append(k, "    weight_sum = block_sum(weight_sum, sh);\n");
        if (ign)
            sb_append(k, "    count = block_sum(count, sh);\n");
        sb_append(k, "    if (threadIdx.x == 0)\n");
        if (wmean)
            tmpl_expand(k, &sub, "        loss[0] = @cast(total / weight_sum);\n}\n");
        else if (ign)
            tmpl_expand(k, &sub, "        loss[0] = count ? @cast(total / count) : 0;\n}\n");
        else if (L->elementwise && L->in2)
            tmpl_expand(k, &sub, "        loss[0] = @cast(total / ((double)n * c));\n}\n");
        else if (L->red == R_SUM)
            tmpl_expand(k, &sub, "        loss[0] = @{castv}total;\n}\n");
        else
            tmpl_expand(k, &sub, "        loss[0] = @cast(total / n);\n}\n");
        if (!(L->elementwise && L->in2))
            gen_scratch(p, "row_loss", strcmp(part_t, "double") == 0 ? "f64" : "f32", seq ? "b*t" : "n");
        char rname[96];
        snprintf(rname, sizeof rname, "%s_reduce", L->entry);
        gen_launch(p, rname, "1", "256", "256*8", sb_str(&args));
        gen_knob(p, "launches", "2");
    }
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", L->elementwise && L->in2 ? (reduced ? "grid-stride-block-reduction-shared" : "one-element-per-thread")
                           : is_logp ? "one-sample-per-thread" : "one-row-per-block-reduction-shared");
    sb_release(&sig);
    sb_release(&args);
}

static int generate(GenCtx *g)
{
    int n = (int)(sizeof LOSSES / sizeof LOSSES[0]);
    for (int i = 0; i < n; i++)
        for (int f64 = 0; f64 < 2; f64++) {
            const Loss *L = &LOSSES[i];
            char variant[80];
            snprintf(variant, sizeof variant, "%s-%s-%s", L->tag, RTAG[L->red], f64 ? "f64" : "f32");
            GenProgram *p = gen_begin(g, variant, L->entry);
            gen_describe(p, "%s, reduction %s (%s)", L->title, RTAG[L->red], f64 ? "f64" : "f32");
            program(p, L, f64);
            cuda_program(p, L, f64);
            if (gen_end(p) != 0)
                return -1;
        }
    return 0;
}

const Family family_cross_entropy = {"cross_entropy", "ml", 54, generate};
