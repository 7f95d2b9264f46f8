/* catalog.h — the SQLite catalog: open/create with schema checks, program
 * storage, splits, the content hash and the integrity check.
 *
 * A Catalog is opened with catalog_open() and released with catalog_close().
 * The schema version (PRAGMA user_version) must equal CATALOG_SCHEMA_VERSION:
 * an unknown version is refused, never migrated.  Writes are grouped by the
 * caller in catalog_begin()/catalog_commit() transactions so that a killed
 * process never leaves half a program behind. */
#ifndef CUDAPERF_CATALOG_H
#define CUDAPERF_CATALOG_H

#include <sqlite3.h>
#include <stdio.h>

#include "common/error.h"
#include "common/hash.h"
#include "common/problem.h"

#define CATALOG_SCHEMA_VERSION 3

typedef struct Catalog Catalog;

/* Opens path; creates it with the schema when it does not exist and
 * `create` is set.  Refuses files that are not SQLite databases, and
 * catalogs of another schema version. */
int catalog_open(const char *path, int create, Catalog **out, Error *e);
void catalog_close(Catalog *c);
sqlite3 *catalog_db(Catalog *c);
const char *catalog_path(const Catalog *c);

int catalog_begin(Catalog *c, Error *e);
int catalog_commit(Catalog *c, Error *e);
void catalog_rollback(Catalog *c);

/* Records a SQLite failure in e: "catalog 'x.db': <what>: <sqlite message>". */
int catalog_sql_error(Catalog *c, Error *e, const char *what);

/* Runs SQL that returns no rows. */
int catalog_exec(Catalog *c, const char *sql, Error *e);

/* The hashes that identify a program's content. */
typedef struct ProgramHashes {
    char source[HASH_HEX_LEN + 1];
    char norm[HASH_HEX_LEN + 1];
    char content[HASH_HEX_LEN + 1];
} ProgramHashes;

/* Computes the hashes of (canonical meta, source); normalisation as in
 * normalize.h. */
int catalog_program_hashes(const Problem *p, const char *meta_json, const char *source, ProgramHashes *h,
                           Error *e);

/* 1 if a program or a rejection with this content hash is stored. */
int catalog_knows_content(Catalog *c, const char *content_hash, int *known, Error *e);

/* Stores a program with its args and configs, replacing a program of the
 * same name.  Call inside a transaction.  origin: generated / contributed /
 * imported. */
int catalog_put_program(Catalog *c, const Problem *p, const char *meta_json, const char *source,
                        const ProgramHashes *h, const char *category, const char *origin, Error *e);

/* Records why a program was not accepted (replaces an earlier verdict). */
int catalog_put_rejection(Catalog *c, const char *content_hash, const char *name, const char *verdict,
                          const char *reason, Error *e);

/* Assigns every program its split (see docs/ARCHITECTURE.md): about 10% of
 * each language's families held out whole as test-ood; the rest 80/10/10
 * train/val/test by a stable hash of the normalised source, so programs
 * whose normalised sources match always share a split.  *changed gets the
 * number of programs whose split changed. */
int catalog_assign_splits(Catalog *c, int *changed, Error *e);

/* SHA-256 over the catalog's content (programs, configs, kernels; not runs
 * or results), independent of row ids and build times. */
int catalog_content_hash(Catalog *c, char hex[HASH_HEX_LEN + 1], Error *e);

/* Checks schema version, SQLite integrity, foreign keys/orphans and that
 * every stored source matches its hash.  Writes one line per finding to out;
 * *problems gets their number. */
int catalog_check(Catalog *c, FILE *out, int *problems, Error *e);

int catalog_set_info(Catalog *c, const char *key, const char *value, Error *e);

/* ISO-8601 UTC timestamp into buf (at least 32 bytes). */
const char *catalog_now(char *buf);

#endif
