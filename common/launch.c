#include "launch.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "strbuf.h"

static int check_keys(const cJSON *obj, const char *file, const char *field, const char *const *allowed, Error *e)
{
    for (const cJSON *it = obj->child; it; it = it->next) {
        int ok = 0;
        for (const char *const *k = allowed; *k; k++)
            ok |= strcmp(*k, it->string) == 0;
        if (!ok)
            return ERR(e, "%s: %s%s%s: unknown field", file, field, *field ? "." : "", it->string);
    }
    return 0;
}

/* A string expression or an integer, checked against the params. */
static int get_expr(const cJSON *v, const char *file, const char *field, const Problem *p, char **out, Error *e)
{
    if (cJSON_IsString(v)) {
        *out = xstrdup(v->valuestring);
    } else if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) && fabs(v->valuedouble) < 9e15) {
        *out = xasprintf("%lld", (long long)v->valuedouble);
    } else {
        return ERR(e, "%s: %s: %s", file, field, v ? "must be an integer or an expression string" : "missing");
    }
    if (problem_eval(p, NULL, *out, NULL, e) != 0)
        return error_prefix(e, "%s: %s", file, field);
    return 0;
}

static int parse_dims(const cJSON *arr, const char *file, const char *field, const Problem *p, char *dims[3],
                      Error *e)
{
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1 || cJSON_GetArraySize(arr) > 3)
        return ERR(e, "%s: %s: must be an array of 1 to 3 dimensions", file, field);
    for (int d = 0; d < 3; d++) {
        const cJSON *v = cJSON_GetArrayItem(arr, d);
        char sub[96];
        snprintf(sub, sizeof sub, "%s[%d]", field, d);
        if (!v)
            dims[d] = xstrdup("1");
        else if (get_expr(v, file, sub, p, &dims[d], e) != 0)
            return -1;
    }
    return 0;
}

static int parse_plan(const cJSON *root, const char *file, const Problem *p, LaunchPlan *lp, Error *e)
{
    static const char *const top_keys[] = {"format", "scratch", "launches", NULL};
    static const char *const scratch_keys[] = {"name", "dtype", "count", NULL};
    static const char *const launch_keys[] = {"kernel", "grid", "block", "smem", "args", NULL};
    if (!cJSON_IsObject(root))
        return ERR(e, "%s: top level must be a JSON object", file);
    if (check_keys(root, file, "", top_keys, e) != 0)
        return -1;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (fmt && (!cJSON_IsNumber(fmt) || fmt->valuedouble != LAUNCH_FORMAT_VERSION))
        return ERR(e, "%s: format: unknown format version (this build reads version %d)", file, LAUNCH_FORMAT_VERSION);
    const cJSON *scratch = cJSON_GetObjectItemCaseSensitive(root, "scratch");
    if (scratch && !cJSON_IsArray(scratch))
        return ERR(e, "%s: scratch: must be an array", file);
    lp->n_scratch = scratch ? cJSON_GetArraySize(scratch) : 0;
    lp->scratch = xcalloc((size_t)lp->n_scratch + 1, sizeof *lp->scratch);
    for (int s = 0; s < lp->n_scratch; s++) {
        const cJSON *j = cJSON_GetArrayItem(scratch, s);
        char field[64];
        snprintf(field, sizeof field, "scratch[%d]", s);
        if (!cJSON_IsObject(j))
            return ERR(e, "%s: %s: must be an object", file, field);
        if (check_keys(j, file, field, scratch_keys, e) != 0)
            return -1;
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
        const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(j, "dtype");
        if (!cJSON_IsString(name) || !problem_is_identifier(name->valuestring, 0))
            return ERR(e, "%s: %s.name: missing or not an identifier", file, field);
        lp->scratch[s].name = xstrdup(name->valuestring);
        if (problem_find_arg(p, name->valuestring))
            return ERR(e, "%s: %s.name: '%s' is already an argument of the problem", file, field, name->valuestring);
        for (int k = 0; k < s; k++)
            if (strcmp(lp->scratch[k].name, name->valuestring) == 0)
                return ERR(e, "%s: %s.name: duplicate scratch '%s'", file, field, name->valuestring);
        if (!cJSON_IsString(dtype) || (lp->scratch[s].dtype = dtype_from_name(dtype->valuestring)) == DT_INVALID)
            return ERR(e, "%s: %s.dtype: missing or unknown (known: %s)", file, field, dtype_all_names());
        char sub[96];
        snprintf(sub, sizeof sub, "%s.count", field);
        if (get_expr(cJSON_GetObjectItemCaseSensitive(j, "count"), file, sub, p, &lp->scratch[s].count, e) != 0)
            return -1;
    }
    const cJSON *launches = cJSON_GetObjectItemCaseSensitive(root, "launches");
    if (!cJSON_IsArray(launches) || cJSON_GetArraySize(launches) < 1)
        return ERR(e, "%s: launches: missing or empty", file);
    lp->n_launches = cJSON_GetArraySize(launches);
    lp->launches = xcalloc((size_t)lp->n_launches + 1, sizeof *lp->launches);
    for (int k = 0; k < lp->n_launches; k++) {
        const cJSON *j = cJSON_GetArrayItem(launches, k);
        Launch *L = &lp->launches[k];
        char field[64], sub[96];
        snprintf(field, sizeof field, "launches[%d]", k);
        if (!cJSON_IsObject(j))
            return ERR(e, "%s: %s: must be an object", file, field);
        if (check_keys(j, file, field, launch_keys, e) != 0)
            return -1;
        const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(j, "kernel");
        if (!cJSON_IsString(kernel) || !problem_is_identifier(kernel->valuestring, 0))
            return ERR(e, "%s: %s.kernel: missing or not an identifier", file, field);
        L->kernel = xstrdup(kernel->valuestring);
        snprintf(sub, sizeof sub, "%s.grid", field);
        if (parse_dims(cJSON_GetObjectItemCaseSensitive(j, "grid"), file, sub, p, L->grid, e) != 0)
            return -1;
        snprintf(sub, sizeof sub, "%s.block", field);
        if (parse_dims(cJSON_GetObjectItemCaseSensitive(j, "block"), file, sub, p, L->block, e) != 0)
            return -1;
        const cJSON *smem = cJSON_GetObjectItemCaseSensitive(j, "smem");
        snprintf(sub, sizeof sub, "%s.smem", field);
        if (!smem)
            L->smem = xstrdup("0");
        else if (get_expr(smem, file, sub, p, &L->smem, e) != 0)
            return -1;
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(j, "args");
        if (!cJSON_IsArray(args))
            return ERR(e, "%s: %s.args: missing or not an array", file, field);
        L->n_args = cJSON_GetArraySize(args);
        L->args = xcalloc((size_t)L->n_args + 1, sizeof *L->args);
        for (int a = 0; a < L->n_args; a++) {
            const cJSON *v = cJSON_GetArrayItem(args, a);
            LaunchArg *la = &L->args[a];
            snprintf(sub, sizeof sub, "%s.args[%d]", field, a);
            if (cJSON_IsNumber(v)) {
                if (get_expr(v, file, sub, p, &la->text, e) != 0)
                    return -1;
                la->kind = LARG_EXPR;
                continue;
            }
            if (!cJSON_IsString(v))
                return ERR(e, "%s: %s: must be a name or an integer expression", file, sub);
            la->text = xstrdup(v->valuestring);
            int found = 0;
            for (int i = 0; i < p->n_args && !found; i++)
                if (strcmp(p->args[i].name, v->valuestring) == 0)
                    la->kind = LARG_PROBLEM, la->index = i, found = 1;
            for (int s = 0; s < lp->n_scratch && !found; s++)
                if (strcmp(lp->scratch[s].name, v->valuestring) == 0)
                    la->kind = LARG_SCRATCH, la->index = s, found = 1;
            if (!found) {
                la->kind = LARG_EXPR;
                if (problem_eval(p, NULL, la->text, NULL, e) != 0)
                    return ERR(e, "%s: %s: '%s' is neither an argument, a scratch buffer nor an expression of the params",
                               file, sub, la->text);
            }
        }
    }
    return 0;
}

int launch_parse(const char *text, const char *filename, const Problem *p, LaunchPlan **out, Error *e)
{
    const char *file = filename ? filename : "launch.json";
    *out = NULL;
    cJSON *root = cJSON_Parse(text);
    if (!root)
        return ERR(e, "%s: malformed JSON", file);
    LaunchPlan *lp = xcalloc(1, sizeof *lp);
    int rc = parse_plan(root, file, p, lp, e);
    cJSON_Delete(root);
    if (rc != 0) {
        launch_free(lp);
        return -1;
    }
    *out = lp;
    return 0;
}

int launch_load(const char *path, const Problem *p, LaunchPlan **out, Error *e)
{
    char *text = NULL;
    if (file_read_all(path, 1 << 20, &text, NULL, e) != 0)
        return -1;
    int rc = launch_parse(text, path, p, out, e);
    free(text);
    return rc;
}

void launch_free(LaunchPlan *lp)
{
    if (!lp)
        return;
    for (int s = 0; lp->scratch && s < lp->n_scratch; s++) {
        free(lp->scratch[s].name);
        free(lp->scratch[s].count);
    }
    free(lp->scratch);
    for (int k = 0; lp->launches && k < lp->n_launches; k++) {
        Launch *L = &lp->launches[k];
        free(L->kernel);
        for (int d = 0; d < 3; d++) {
            free(L->grid[d]);
            free(L->block[d]);
        }
        free(L->smem);
        for (int a = 0; L->args && a < L->n_args; a++)
            free(L->args[a].text);
        free(L->args);
    }
    free(lp->launches);
    free(lp);
}

int launch_geometry(const LaunchPlan *lp, int k, const Problem *p, const ProblemConfig *c, LaunchGeometry *g,
                    Error *e)
{
    const Launch *L = &lp->launches[k];
    static const int64_t max_block[3] = {1024, 1024, 64};
    static const int64_t max_grid[3] = {2147483647, 65535, 65535};
    for (int d = 0; d < 3; d++) {
        if (problem_eval(p, c, L->grid[d], &g->grid[d], e) != 0 ||
            problem_eval(p, c, L->block[d], &g->block[d], e) != 0)
            return error_prefix(e, "launches[%d] (%s), config %s", k, L->kernel, c->name);
        if (g->block[d] < 1 || g->block[d] > max_block[d])
            return ERR(e, "launches[%d] (%s), config %s: block[%d] = %lld is outside 1..%lld", k, L->kernel, c->name, d,
                       (long long)g->block[d], (long long)max_block[d]);
        if (g->grid[d] < 1 || g->grid[d] > max_grid[d])
            return ERR(e, "launches[%d] (%s), config %s: grid[%d] = %lld is outside 1..%lld", k, L->kernel, c->name, d,
                       (long long)g->grid[d], (long long)max_grid[d]);
    }
    int64_t threads = g->block[0] * g->block[1] * g->block[2];
    if (threads > LAUNCH_MAX_THREADS)
        return ERR(e, "launches[%d] (%s), config %s: %lld threads per block (limit %d)", k, L->kernel, c->name,
                   (long long)threads, LAUNCH_MAX_THREADS);
    if (problem_eval(p, c, L->smem, &g->smem, e) != 0)
        return error_prefix(e, "launches[%d] (%s), config %s: smem", k, L->kernel, c->name);
    if (g->smem < 0 || g->smem > LAUNCH_MAX_SMEM)
        return ERR(e, "launches[%d] (%s), config %s: dynamic shared memory %lld bytes outside 0..%d", k, L->kernel,
                   c->name, (long long)g->smem, LAUNCH_MAX_SMEM);
    return 0;
}

int launch_scratch_count(const LaunchPlan *lp, int s, const Problem *p, const ProblemConfig *c, int64_t *n, Error *e)
{
    if (problem_eval(p, c, lp->scratch[s].count, n, e) != 0)
        return error_prefix(e, "scratch[%d] (%s), config %s", s, lp->scratch[s].name, c->name);
    if (*n < 1 || *n > PROBLEM_MAX_BUFFER_BYTES / (int64_t)dtype_size(lp->scratch[s].dtype))
        return ERR(e, "scratch[%d] (%s), config %s: %lld elements is outside 1..16 GiB", s, lp->scratch[s].name,
                   c->name, (long long)*n);
    return 0;
}
