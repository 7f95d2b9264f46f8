#include "kb_describe.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

static int copy_tensors(const TorchTensor *src, int n, int strip_w, KbTensor **out, Error *e)
{
    *out = xcalloc((size_t)n + 1, sizeof **out);
    for (int i = 0; i < n; i++) {
        const TorchTensor *t = &src[i];
        KbTensor *k = &(*out)[i];
        if (t->is_value)
            return ERR(e, "get_inputs()[%d] is a number (%g), not a tensor: CudaPerf programs take tensors only",
                       i, t->value);
        if (t->ndim > KB_MAX_DIMS)
            return ERR(e, "'%s' has %d dimensions (at most %d)", t->name ? t->name : "?", t->ndim, KB_MAX_DIMS);
        const char *nm = t->name ? t->name : "";
        if (strip_w && strncmp(nm, "w.", 2) == 0)
            nm += 2;
        k->name = xstrdup(nm);
        k->dtype = t->dtype;
        k->ndim = t->ndim;
        for (int d = 0; d < t->ndim; d++)
            k->dims[d] = t->shape[d];
    }
    return 0;
}

static int describe_torch(void *ctx, const char *path, const char *source, const KbConstants *values,
                          KbDescription *out, Error *e)
{
    TorchRunner *r = ctx;
    TorchDescription td;
    int fault = 0, rc = 0;
    memset(&td, 0, sizeof td);
    TorchProgram prog = {path, source, "Model", (const char *const *)values->names, values->values, values->n};
    if (torch_ref_describe(r, &prog, 0, &td, &fault, e) != 0) {
        /* the runner's message names the file; the import line does too */
        size_t pl = strlen(path);
        if (strncmp(e->msg, path, pl) == 0 && e->msg[pl] == ':' && e->msg[pl + 1] == ' ')
            memmove(e->msg, e->msg + pl + 2, strlen(e->msg + pl + 2) + 1);
        return fault ? -1 : -2;
    }
    out->n_inputs = td.n_inputs;
    out->n_outputs = td.n_outputs;
    out->n_weights = td.n_state;
    if (copy_tensors(td.inputs, td.n_inputs, 0, &out->inputs, e) != 0 ||
        copy_tensors(td.outputs, td.n_outputs, 0, &out->outputs, e) != 0 ||
        copy_tensors(td.state, td.n_state, 1, &out->weights, e) != 0)
        rc = -1;
    torch_description_release(&td);
    return rc;
}

KbDescriber kb_describer_torch(TorchRunner *r)
{
    KbDescriber d = {describe_torch, r};
    return d;
}
