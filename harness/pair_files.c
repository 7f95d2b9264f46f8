#include "pair_files.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/fileio.h"
#include "common/launch.h"
#include "common/strbuf.h"

#define MAX_KERNEL_BYTES (1 << 20)
#define MAX_VARIANTS 256

void kernel_content_hash(const char *program, const char *source, const char *launch,
                         char hex[HASH_HEX_LEN + 1])
{
    HashCtx *h = hash_new();
    hash_update_str(h, "kernel/2");
    hash_update_str(h, program);
    hash_update_str(h, source);
    hash_update_str(h, launch);
    hash_final(h, hex);
}

/* Every launch of lp must fit every config of p. */
static int check_plan(const LaunchPlan *lp, const Problem *p, const char *path, Error *e)
{
    for (int c = 0; c < p->n_configs; c++) {
        for (int k = 0; k < lp->n_launches; k++) {
            LaunchGeometry g;
            if (launch_geometry(lp, k, p, &p->configs[c], &g, e) != 0)
                return error_prefix(e, "%s", path);
        }
        for (int s = 0; s < lp->n_scratch; s++) {
            int64_t n;
            if (launch_scratch_count(lp, s, p, &p->configs[c], &n, e) != 0)
                return error_prefix(e, "%s", path);
        }
    }
    return 0;
}

/* Reads one kernel folder (kernel.cu, launch.json, knobs.json) into k. */
static int load_kernel(const char *dir, const char *name, const Problem *p, KernelFiles *k, Error *e)
{
    int rc = 0;
    char *cu = xasprintf("%s/kernel.cu", dir), *lj = xasprintf("%s/launch.json", dir);
    char *kj = xasprintf("%s/knobs.json", dir), *text = NULL;
    LaunchPlan *lp = NULL;
    cJSON *j = NULL;
    memset(k, 0, sizeof *k);
    k->name = xstrdup(name);
    TRY(file_read_all(cu, MAX_KERNEL_BYTES, &k->source, NULL, e));
    TRY(launch_load(lj, p, &lp, e));
    TRY(check_plan(lp, p, lj, e));
    TRY(file_read_all(lj, MAX_KERNEL_BYTES, &text, NULL, e));
    j = cJSON_Parse(text);
    if (!j)
        FAIL(e, "%s: not valid JSON", lj);
    char *compact = cJSON_PrintUnformatted(j);
    k->launch = xstrdup(compact);
    cJSON_free(compact);
    cJSON_Delete(j);
    j = NULL;
    free(text);
    text = NULL;
    if (file_exists(kj)) {
        TRY(file_read_all(kj, MAX_KERNEL_BYTES, &text, NULL, e));
        j = cJSON_Parse(text);
        if (!cJSON_IsObject(j))
            FAIL(e, "%s: not a JSON object", kj);
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(j, "defect");
        if (d && !cJSON_IsString(d))
            FAIL(e, "%s: defect: must be a string", kj);
        if (d)
            k->defect = xstrdup(d->valuestring);
        const cJSON *par = cJSON_GetObjectItemCaseSensitive(j, "parent");
        if (par && (!cJSON_IsString(par) || !*par->valuestring || strcmp(par->valuestring, name) == 0))
            FAIL(e, "%s: parent: must name another variant of the program", kj);
        if (par)
            k->parent = xstrdup(par->valuestring);
        compact = cJSON_PrintUnformatted(j);
        k->knobs = xstrdup(compact);
        cJSON_free(compact);
    }
    kernel_content_hash(p->name, k->source, k->launch, k->content_hash);
done:
    cJSON_Delete(j);
    launch_free(lp);
    free(text);
    free(cu);
    free(lj);
    free(kj);
    return rc;
}

int pair_files_find(const PairFiles *pf, const char *name)
{
    for (int i = pf->has_reference; i < pf->n; i++)
        if (strcmp(pf->kernels[i].name, name) == 0)
            return i;
    return -1;
}

/* Every "parent" names a variant of the pair, the reference names none, and
 * no chain of parents comes back to where it started. */
static int check_parents(const PairFiles *pf, const char *dir, Error *e)
{
    for (int i = 0; i < pf->n; i++) {
        const KernelFiles *k = &pf->kernels[i];
        if (k->parent && i == 0 && pf->has_reference)
            return ERR(e, "%s/knobs.json: parent: the reference pair has no parent", dir);
        if (k->parent && pair_files_find(pf, k->parent) < 0)
            return ERR(e, "%s/variants/%s/knobs.json: parent: no variant named '%s'", dir, k->name, k->parent);
    }
    for (int i = 0; i < pf->n; i++) {
        int at = i;
        for (int steps = 0; pf->kernels[at].parent; steps++) {
            if (steps == pf->n)
                return ERR(e, "%s/variants/%s/knobs.json: parent: the chain of parents is a cycle", dir,
                           pf->kernels[i].name);
            at = pair_files_find(pf, pf->kernels[at].parent);
        }
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int pair_files_load(const char *dir, const Problem *p, PairFiles *out, Error *e)
{
    int rc = 0, n_names = 0;
    char *cu = xasprintf("%s/kernel.cu", dir), *vdir = xasprintf("%s/variants", dir);
    char *names[MAX_VARIANTS];
    DIR *d = NULL;
    memset(out, 0, sizeof *out);
    out->kernels = xcalloc(MAX_VARIANTS + 2, sizeof *out->kernels);
    if (file_exists(cu)) {
        TRY(load_kernel(dir, "reference", p, &out->kernels[out->n], e));
        out->n++;
        out->has_reference = 1;
    }
    if (file_is_dir(vdir)) {
        d = opendir(vdir);
        if (!d)
            FAIL(e, "%s: cannot open", vdir);
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            if (n_names == MAX_VARIANTS)
                FAIL(e, "%s: more than %d variants", vdir, MAX_VARIANTS);
            names[n_names++] = xstrdup(de->d_name);
        }
        qsort(names, (size_t)n_names, sizeof *names, cmp_str);
        for (int i = 0; i < n_names; i++) {
            char *sub = xasprintf("%s/%s", vdir, names[i]);
            int r = load_kernel(sub, names[i], p, &out->kernels[out->n], e);
            out->n++;
            free(sub);
            if (r != 0)
                goto done_rc;
            /* one candidate, one row: a copy under another name is a mistake */
            const KernelFiles *k = &out->kernels[out->n - 1];
            for (int j = 0; j < out->n - 1; j++)
                if (strcmp(out->kernels[j].content_hash, k->content_hash) == 0)
                    FAIL(e, "%s/%s: the same kernel.cu and launch.json as %s%s", vdir, k->name,
                         j == 0 && out->has_reference ? "the reference pair" : "variants/",
                         j == 0 && out->has_reference ? "" : out->kernels[j].name);
        }
    }
    TRY(check_parents(out, dir, e));
done:
    if (d)
        closedir(d);
    for (int i = 0; i < n_names; i++)
        free(names[i]);
    free(cu);
    free(vdir);
    return rc;
done_rc:
    rc = -1;
    goto done;
}

void pair_files_release(PairFiles *pf)
{
    for (int i = 0; i < pf->n; i++) {
        KernelFiles *k = &pf->kernels[i];
        free(k->name);
        free(k->source);
        free(k->launch);
        free(k->knobs);
        free(k->defect);
        free(k->parent);
    }
    free(pf->kernels);
    memset(pf, 0, sizeof *pf);
}
