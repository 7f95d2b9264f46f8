/* harness catalog — stats, list, show, check and hash of the catalog. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "harness/cli.h"

/* Options shared by the catalog subcommands. */
typedef struct CatOpts {
    int json;
    const char *split, *family, *lang;
    const char *positional;
} CatOpts;

static int parse_opts(const char *cmd, const char *usage, int argc, char **argv, CatOpts *o, int want_positional)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            o->json = 1;
        } else if (strcmp(argv[i], "--split") == 0 && i + 1 < argc) {
            o->split = argv[++i];
        } else if (strcmp(argv[i], "--family") == 0 && i + 1 < argc) {
            o->family = argv[++i];
        } else if (strcmp(argv[i], "--lang") == 0 && i + 1 < argc) {
            o->lang = argv[++i];
        } else if (argv[i][0] != '-' && want_positional && !o->positional) {
            o->positional = argv[i];
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    if (want_positional && !o->positional)
        return cli_usage_error(cmd, "missing argument");
    return -1; /* go on */
}

static int open_catalog(CliContext *cx, Catalog **c)
{
    Error e;
    if (catalog_open(cx->catalog_path, 0, c, &e) != 0)
        return cli_fail(&e);
    return 0;
}

/* Runs a two-column (key, count) query into a JSON object and/or a table. */
static cJSON *count_by(Catalog *c, const char *sql)
{
    cJSON *obj = cJSON_CreateObject();
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(catalog_db(c), sql, -1, &st, NULL) == SQLITE_OK)
        while (sqlite3_step(st) == SQLITE_ROW)
            cJSON_AddNumberToObject(obj, sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "none",
                                    sqlite3_column_double(st, 1));
    sqlite3_finalize(st);
    return obj;
}

static double scalar_query(Catalog *c, const char *sql)
{
    sqlite3_stmt *st = NULL;
    double v = 0;
    if (sqlite3_prepare_v2(catalog_db(c), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    return v;
}

static void print_counts(const char *title, const cJSON *obj)
{
    printf("%s:\n", title);
    for (const cJSON *it = obj->child; it; it = it->next)
        printf("  %-28s %6.0f\n", it->string, it->valuedouble);
}

static const char STATS_USAGE[] = "usage: harness catalog stats [--json]\n"
                                  "  Counts of programs by language, family, split and dtype, configs and kernels.\n";

static int cat_stats(CliContext *cx, int argc, char **argv)
{
    CatOpts o;
    int r = parse_opts("catalog stats", STATS_USAGE, argc, argv, &o, 0);
    if (r >= 0)
        return r;
    Catalog *c;
    if (open_catalog(cx, &c))
        return 1;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "programs", scalar_query(c, "SELECT count(*) FROM programs"));
    cJSON *by_lang = count_by(c, "SELECT lang, count(*) FROM programs GROUP BY lang");
    /* Both languages always appear, so consumers need not special-case. */
    if (!cJSON_GetObjectItem(by_lang, "c"))
        cJSON_AddNumberToObject(by_lang, "c", 0);
    if (!cJSON_GetObjectItem(by_lang, "torch"))
        cJSON_AddNumberToObject(by_lang, "torch", 0);
    cJSON_AddItemToObject(root, "programs_by_lang", by_lang);
    cJSON_AddItemToObject(root, "programs_by_split",
                          count_by(c, "SELECT coalesce(split, 'none'), count(*) FROM programs GROUP BY 1 ORDER BY 1"));
    cJSON_AddItemToObject(root, "programs_by_origin",
                          count_by(c, "SELECT origin, count(*) FROM programs GROUP BY 1 ORDER BY 1"));
    cJSON_AddItemToObject(root, "programs_by_category",
                          count_by(c, "SELECT coalesce(category, 'none'), count(*) FROM programs GROUP BY 1 ORDER BY 1"));
    cJSON_AddItemToObject(root, "programs_by_dtype",
                          count_by(c, "SELECT dtype, count(*) FROM programs GROUP BY 1 ORDER BY 1"));
    cJSON_AddItemToObject(root, "families",
                          count_by(c, "SELECT family, count(*) FROM programs GROUP BY 1 ORDER BY 1"));
    cJSON_AddNumberToObject(root, "family_count", scalar_query(c, "SELECT count(DISTINCT family) FROM programs"));
    cJSON_AddNumberToObject(root, "configs", scalar_query(c, "SELECT count(*) FROM configs"));
    cJSON_AddNumberToObject(root, "min_configs_per_program",
                            scalar_query(c, "SELECT coalesce(min(n), 0) FROM (SELECT count(*) n FROM configs GROUP BY program_id)"));
    cJSON *kernels = count_by(c, "SELECT origin, count(*) FROM kernels GROUP BY 1 ORDER BY 1");
    cJSON_AddItemToObject(root, "kernels_by_origin", kernels);
    cJSON_AddItemToObject(root, "rejections_by_verdict",
                          count_by(c, "SELECT verdict, count(*) FROM rejections GROUP BY 1 ORDER BY 1"));
    cJSON_AddNumberToObject(root, "runs", scalar_query(c, "SELECT count(*) FROM runs"));
    cJSON_AddNumberToObject(root, "results", scalar_query(c, "SELECT count(*) FROM results"));
    if (o.json) {
        char *s = cJSON_PrintUnformatted(root);
        printf("%s\n", s);
        cJSON_free(s);
    } else {
        printf("catalog %s: %.0f programs in %.0f families, %.0f configs (min %.0f per program)\n",
               catalog_path(c), cJSON_GetObjectItem(root, "programs")->valuedouble,
               cJSON_GetObjectItem(root, "family_count")->valuedouble, cJSON_GetObjectItem(root, "configs")->valuedouble,
               cJSON_GetObjectItem(root, "min_configs_per_program")->valuedouble);
        print_counts("by language", by_lang);
        print_counts("by split", cJSON_GetObjectItem(root, "programs_by_split"));
        print_counts("by category", cJSON_GetObjectItem(root, "programs_by_category"));
        print_counts("by dtype (first output)", cJSON_GetObjectItem(root, "programs_by_dtype"));
        print_counts("by family", cJSON_GetObjectItem(root, "families"));
        print_counts("kernels by origin", kernels);
        print_counts("rejected programs", cJSON_GetObjectItem(root, "rejections_by_verdict"));
    }
    cJSON_Delete(root);
    catalog_close(c);
    return 0;
}

static const char LIST_USAGE[] = "usage: harness catalog list [--split S] [--family F] [--lang L] [--json]\n"
                                 "  One line per program: name, split, dtype, configs.\n";

static int cat_list(CliContext *cx, int argc, char **argv)
{
    CatOpts o;
    int r = parse_opts("catalog list", LIST_USAGE, argc, argv, &o, 0);
    if (r >= 0)
        return r;
    if (o.split && strcmp(o.split, "train") && strcmp(o.split, "val") && strcmp(o.split, "test") &&
        strcmp(o.split, "test-ood"))
        return cli_usage_error("catalog list", "--split must be train, val, test or test-ood");
    Catalog *c;
    if (open_catalog(cx, &c))
        return 1;
    sqlite3_stmt *st = NULL;
    const char *sql = "SELECT p.name, p.lang, p.family, coalesce(p.split, ''), p.dtype, p.origin,"
                      " (SELECT count(*) FROM configs c WHERE c.program_id = p.id),"
                      " (SELECT count(*) FROM kernels k WHERE k.program_id = p.id)"
                      " FROM programs p WHERE (?1 IS NULL OR p.split = ?1) AND (?2 IS NULL OR p.family = ?2)"
                      " AND (?3 IS NULL OR p.lang = ?3) ORDER BY p.name";
    if (sqlite3_prepare_v2(catalog_db(c), sql, -1, &st, NULL) != SQLITE_OK) {
        Error e;
        catalog_sql_error(c, &e, "list");
        catalog_close(c);
        return cli_fail(&e);
    }
    sqlite3_bind_text(st, 1, o.split, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, o.family, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, o.lang, -1, SQLITE_STATIC);
    int n = 0;
    if (o.json)
        printf("[");
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (o.json) {
            cJSON *obj = cJSON_CreateObject();
            static const char *const keys[] = {"name", "lang", "family", "split", "dtype", "origin"};
            for (int k = 0; k < 6; k++)
                cJSON_AddStringToObject(obj, keys[k], (const char *)sqlite3_column_text(st, k));
            cJSON_AddNumberToObject(obj, "configs", sqlite3_column_int(st, 6));
            cJSON_AddNumberToObject(obj, "kernels", sqlite3_column_int(st, 7));
            char *s = cJSON_PrintUnformatted(obj);
            printf("%s\n%s", n ? "," : "", s);
            cJSON_free(s);
            cJSON_Delete(obj);
        } else {
            printf("%-52s %-9s %-5s %d configs, %d kernels\n", sqlite3_column_text(st, 0), sqlite3_column_text(st, 3),
                   sqlite3_column_text(st, 4), sqlite3_column_int(st, 6), sqlite3_column_int(st, 7));
        }
        n++;
    }
    if (o.json)
        printf("]\n");
    else
        fprintf(stderr, "%d programs\n", n);
    sqlite3_finalize(st);
    catalog_close(c);
    return 0;
}

static const char SHOW_USAGE[] = "usage: harness catalog show NAME [--json]\n"
                                 "  The program's signature, configs, tolerance, cost model and source.\n";

static int cat_show(CliContext *cx, int argc, char **argv)
{
    CatOpts o;
    int r = parse_opts("catalog show", SHOW_USAGE, argc, argv, &o, 1);
    if (r >= 0)
        return r;
    Catalog *c;
    if (open_catalog(cx, &c))
        return 1;
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT name, split, origin, meta, source, content_hash FROM programs WHERE name = ?", -1,
                           &st, NULL) != SQLITE_OK) {
        catalog_close(c);
        return 1;
    }
    sqlite3_bind_text(st, 1, o.positional, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_ROW) {
        fprintf(stderr, "harness: no program named '%s' in %s (see `harness catalog list`)\n", o.positional,
                cx->catalog_path);
        rc = 1;
    } else if (o.json) {
        cJSON *obj = cJSON_CreateObject();
        cJSON_AddStringToObject(obj, "name", (const char *)sqlite3_column_text(st, 0));
        cJSON_AddStringToObject(obj, "split", (const char *)sqlite3_column_text(st, 1));
        cJSON_AddStringToObject(obj, "origin", (const char *)sqlite3_column_text(st, 2));
        cJSON_AddItemToObject(obj, "meta", cJSON_Parse((const char *)sqlite3_column_text(st, 3)));
        cJSON_AddStringToObject(obj, "source", (const char *)sqlite3_column_text(st, 4));
        cJSON_AddStringToObject(obj, "content_hash", (const char *)sqlite3_column_text(st, 5));
        char *s = cJSON_Print(obj);
        printf("%s\n", s);
        cJSON_free(s);
        cJSON_Delete(obj);
    } else {
        Problem *p = NULL;
        Error e;
        if (problem_parse((const char *)sqlite3_column_text(st, 3), o.positional, &p, &e) != 0) {
            rc = cli_fail(&e);
        } else {
            printf("%s  (split %s, origin %s)\n", p->name, sqlite3_column_text(st, 1), sqlite3_column_text(st, 2));
            if (p->description)
                printf("  %s\n", p->description);
            printf("\nsignature: %s(", p->entry);
            for (int i = 0; i < p->n_args; i++) {
                const ProblemArg *a = &p->args[i];
                printf("%s%s %s %s", i ? ", " : "", arg_role_name(a->role), dtype_name(a->dtype), a->name);
                if (arg_role_is_buffer(a->role)) {
                    printf("[");
                    for (int d = 0; d < a->ndim; d++)
                        printf("%s%s", d ? ", " : "", a->shape[d]);
                    printf("]");
                } else if (a->role == ROLE_SCALAR) {
                    printf(" = %g", a->value);
                }
            }
            printf(")\n\nconfigs:\n");
            for (int k = 0; k < p->n_configs; k++) {
                printf("  %-12s", p->configs[k].name);
                for (int j = 0; j < p->n_params; j++)
                    printf(" %s=%lld", p->params[j], (long long)p->configs[k].params[j]);
                for (int j = 0; j < p->configs[k].n_ov; j++)
                    printf(" %s=%g", p->configs[k].ov_names[j], p->configs[k].ov_values[j]);
                printf("\n");
            }
            printf("\ntolerance: atol %g, rtol %g\ncost: flops %s, bytes %s\nprovenance: %s, seed %lld, %s\n",
                   p->atol, p->rtol, p->cost_flops, p->cost_bytes, p->prov_generator ? p->prov_generator : "-",
                   (long long)p->prov_seed, p->prov_license);
            printf("\n--- source ---\n%s", sqlite3_column_text(st, 4));
            problem_free(p);
        }
    }
    sqlite3_finalize(st);
    catalog_close(c);
    return rc;
}

static const char CHECK_USAGE[] = "usage: harness catalog check [--json]\n"
                                  "  Checks schema version, SQLite integrity, orphan rows and source hashes.\n"
                                  "  Exit status 1 when anything is wrong.\n";

static int cat_check(CliContext *cx, int argc, char **argv)
{
    CatOpts o;
    int r = parse_opts("catalog check", CHECK_USAGE, argc, argv, &o, 0);
    if (r >= 0)
        return r;
    Catalog *c;
    if (open_catalog(cx, &c))
        return 1;
    Error e;
    int problems = 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    int rc = catalog_check(c, mem, &problems, &e);
    fclose(mem);
    if (rc != 0) {
        free(buf);
        catalog_close(c);
        return cli_fail(&e);
    }
    if (o.json) {
        cJSON *obj = cJSON_CreateObject();
        cJSON_AddBoolToObject(obj, "ok", problems == 0);
        cJSON_AddNumberToObject(obj, "problems", problems);
        cJSON *lines = cJSON_AddArrayToObject(obj, "report");
        for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
            cJSON_AddItemToArray(lines, cJSON_CreateString(line));
        char *s = cJSON_PrintUnformatted(obj);
        printf("%s\n", s);
        cJSON_free(s);
        cJSON_Delete(obj);
    } else {
        fputs(buf, stdout);
        printf("%s: %d problem(s)\n", problems ? "FAILED" : "OK", problems);
    }
    free(buf);
    catalog_close(c);
    return problems ? 1 : 0;
}

static const char HASH_USAGE[] = "usage: harness catalog hash\n"
                                 "  SHA-256 of the catalog's content (programs, configs, kernels, splits),\n"
                                 "  independent of build times and row ids: equal builds print equal hashes.\n";

static int cat_hash(CliContext *cx, int argc, char **argv)
{
    CatOpts o;
    int r = parse_opts("catalog hash", HASH_USAGE, argc, argv, &o, 0);
    if (r >= 0)
        return r;
    Catalog *c;
    if (open_catalog(cx, &c))
        return 1;
    Error e;
    char hex[HASH_HEX_LEN + 1];
    int rc = catalog_content_hash(c, hex, &e);
    catalog_close(c);
    if (rc != 0)
        return cli_fail(&e);
    if (o.json)
        printf("{\"hash\": \"%s\"}\n", hex);
    else
        printf("%s\n", hex);
    return 0;
}

static const CliCommand CATALOG_COMMANDS[] = {
    {"check", cat_check, "schema version, integrity, orphan rows, source hashes"},
    {"hash", cat_hash, "content hash of the catalog (reproducibility)"},
    {"list", cat_list, "list programs [--split S] [--family F] [--lang L] [--json]"},
    {"show", cat_show, "show one program: signature, configs, source"},
    {"stats", cat_stats, "counts by language, family, split, dtype [--json]"},
};

int cmd_catalog(CliContext *cx, int argc, char **argv)
{
    return cli_dispatch(cx, "catalog", CATALOG_COMMANDS, (int)(sizeof CATALOG_COMMANDS / sizeof *CATALOG_COMMANDS),
                        argc - 1, argv + 1);
}
