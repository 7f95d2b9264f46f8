#include "kb_export.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/problem.h"
#include "common/strbuf.h"
#include "harness/kb_source.h"

int kb_export_source(const char *meta, const char *source, const char *config, char **out, Error *e)
{
    int rc = 0;
    Problem *p = NULL;
    KbConstants k;
    memset(&k, 0, sizeof k);
    *out = NULL;
    TRY(problem_parse(meta, "meta.json", &p, e));
    const ProblemConfig *cf = problem_find_config(p, config);
    if (!cf)
        FAIL(e, "no config '%s'", config);
    if (p->n_params > KB_MAX_CONSTANTS)
        FAIL(e, "more than %d params", KB_MAX_CONSTANTS);
    for (int i = 0; i < p->n_params; i++) {
        k.names[k.n] = xstrdup(p->params[i]);
        k.values[k.n++] = cf->params[i];
    }
    TRY(kb_source_check_entry_points(source, "program.py", e));
    TRY(kb_source_set_constants(source, &k, "program.py", out, e));
done:
    kb_constants_release(&k);
    problem_free(p);
    return rc;
}

/* "levelN" from "torch-levelN", else "other". */
static void level_dir(const char *category, char *buf, size_t len)
{
    if (category && strncmp(category, "torch-level", 11) == 0 && isdigit((unsigned char)category[11])) {
        const char *q = category + 11;
        while (isdigit((unsigned char)*q))
            q++;
        if (*q == '\0') {
            snprintf(buf, len, "level%s", category + 11);
            return;
        }
    }
    snprintf(buf, len, "other");
}

/* The file stem from a program name: its last component, [A-Za-z0-9_] only. */
static char *safe_stem(const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    char *s = xstrdup(base);
    for (char *q = s; *q; q++)
        if (!isalnum((unsigned char)*q) && *q != '_')
            *q = '_';
    return s;
}

typedef struct Written {
    char **paths;
    int n;
} Written;

static int is_numbered_py(const char *f)
{
    const char *q = f;
    if (!isdigit((unsigned char)*q))
        return 0;
    while (isdigit((unsigned char)*q))
        q++;
    size_t n = strlen(f);
    return *q == '_' && n > 3 && strcmp(f + n - 3, ".py") == 0;
}

static int is_level_dir(const char *d)
{
    if (strcmp(d, "other") == 0)
        return 1;
    if (strncmp(d, "level", 5) != 0 || !d[5])
        return 0;
    for (const char *q = d + 5; *q; q++)
        if (!isdigit((unsigned char)*q))
            return 0;
    return 1;
}

/* Removes numbered files in out_dir's level folders not in w. */
static int remove_stale(const char *out_dir, const Written *w, int *removed, Error *e)
{
    DIR *top = opendir(out_dir);
    if (!top)
        return ERR(e, "export: cannot list '%s': %s", out_dir, strerror(errno));
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(top)) != NULL) {
        if (!is_level_dir(de->d_name))
            continue;
        char *dir = xasprintf("%s/%s", out_dir, de->d_name);
        DIR *sub = opendir(dir);
        if (sub) {
            struct dirent *fe;
            while ((fe = readdir(sub)) != NULL) {
                if (!is_numbered_py(fe->d_name))
                    continue;
                char *path = xasprintf("%s/%s", dir, fe->d_name);
                int keep = 0;
                for (int i = 0; i < w->n && !keep; i++)
                    keep = strcmp(w->paths[i], path) == 0;
                if (!keep) {
                    if (unlink(path) != 0) {
                        ERR(e, "export: cannot remove stale '%s': %s", path, strerror(errno));
                        rc = -1;
                    } else {
                        (*removed)++;
                    }
                }
                free(path);
            }
            closedir(sub);
        }
        free(dir);
    }
    closedir(top);
    return rc;
}

int kb_export_split(Catalog *c, const char *split, const char *config, const char *out_dir, KbExportSummary *sum,
                    Error *e)
{
    int rc = 0;
    sqlite3_stmt *st = NULL;
    Written w = {NULL, 0};
    /* per level: the next number */
    char levels[64][16];
    int next[64], n_levels = 0;
    memset(sum, 0, sizeof *sum);
    TRY(file_mkdirs(out_dir, e));
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT name, lang, category, meta, source FROM programs WHERE split = ?1 "
                           "ORDER BY CASE WHEN category LIKE 'torch-level%' THEN category ELSE '~' END, name",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = catalog_sql_error(c, e, "listing programs to export");
        goto done;
    }
    sqlite3_bind_text(st, 1, split, -1, SQLITE_STATIC);
    int r;
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        const char *lang = (const char *)sqlite3_column_text(st, 1);
        const char *category = (const char *)sqlite3_column_text(st, 2);
        const char *meta = (const char *)sqlite3_column_text(st, 3);
        const char *source = (const char *)sqlite3_column_text(st, 4);
        if (strcmp(lang, "torch") != 0) {
            sum->skipped_c++;
            continue;
        }
        Error pe = {{0}, 0, 0};
        char *text = NULL;
        if (kb_export_source(meta, source, config, &text, &pe) != 0) {
            sum->skipped_bad++;
            fprintf(stderr, "harness: export: %s: %s\n", name, pe.msg);
            continue;
        }
        char lv[32];
        level_dir(category, lv, sizeof lv);
        int li = 0;
        while (li < n_levels && strcmp(levels[li], lv) != 0)
            li++;
        if (li == n_levels) {
            if (n_levels == 64) {
                free(text);
                FAIL(e, "export: more than 64 levels");
            }
            snprintf(levels[n_levels], sizeof levels[0], "%s", lv);
            next[n_levels++] = 1;
        }
        char *stem = safe_stem(name);
        char *dir = xasprintf("%s/%s", out_dir, lv);
        char *path = xasprintf("%s/%d_%s.py", dir, next[li]++, stem);
        int changed = 0;
        int ok = file_mkdirs(dir, e) == 0 && file_write_if_changed(path, text, strlen(text), &changed, e) == 0;
        free(stem);
        free(dir);
        free(text);
        if (!ok) {
            free(path);
            rc = -1;
            goto done;
        }
        if (changed)
            sum->written++;
        else
            sum->unchanged++;
        w.paths = xrealloc(w.paths, sizeof(char *) * (size_t)(w.n + 1));
        w.paths[w.n++] = path;
    }
    if (r != SQLITE_DONE) {
        rc = catalog_sql_error(c, e, "listing programs to export");
        goto done;
    }
    TRY(remove_stale(out_dir, &w, &sum->removed, e));
done:
    sqlite3_finalize(st);
    for (int i = 0; i < w.n; i++)
        free(w.paths[i]);
    free(w.paths);
    return rc;
}
