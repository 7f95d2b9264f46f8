/* hash.h — content hashes (SHA-256 through OpenSSL's libcrypto).
 *
 * Programs, kernels and the whole catalog are identified by the hex SHA-256
 * of their canonical content, so rebuilds are idempotent and duplicate
 * contributions are found. */
#ifndef CUDAPERF_HASH_H
#define CUDAPERF_HASH_H

#include <stddef.h>

#define HASH_HEX_LEN 64

typedef struct HashCtx HashCtx;

/* Incremental hashing: hash_new() never returns NULL (aborts on OOM);
 * hash_final() writes 64 hex digits + NUL into hex and frees the context. */
HashCtx *hash_new(void);
void hash_update(HashCtx *h, const void *data, size_t len);
/* Adds a string followed by a NUL separator, so ("ab","c") != ("a","bc"). */
void hash_update_str(HashCtx *h, const char *s);
void hash_final(HashCtx *h, char hex[HASH_HEX_LEN + 1]);

/* One-shot hash of a buffer. */
void hash_hex(const void *data, size_t len, char hex[HASH_HEX_LEN + 1]);

#endif
