#include "hash.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct HashCtx {
    EVP_MD_CTX *md;
};

HashCtx *hash_new(void)
{
    HashCtx *h = malloc(sizeof *h);
    if (!h || !(h->md = EVP_MD_CTX_new()) || EVP_DigestInit_ex(h->md, EVP_sha256(), NULL) != 1) {
        fputs("cudaperf: cannot initialise SHA-256\n", stderr);
        abort();
    }
    return h;
}

void hash_update(HashCtx *h, const void *data, size_t len)
{
    EVP_DigestUpdate(h->md, data, len);
}

void hash_update_str(HashCtx *h, const char *s)
{
    EVP_DigestUpdate(h->md, s ? s : "", (s ? strlen(s) : 0) + 1);
}

void hash_final(HashCtx *h, char hex[HASH_HEX_LEN + 1])
{
    unsigned char dig[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_DigestFinal_ex(h->md, dig, &n);
    for (unsigned i = 0; i < n && i < 32; i++)
        sprintf(hex + 2 * i, "%02x", dig[i]);
    hex[HASH_HEX_LEN] = '\0';
    EVP_MD_CTX_free(h->md);
    free(h);
}

void hash_hex(const void *data, size_t len, char hex[HASH_HEX_LEN + 1])
{
    HashCtx *h = hash_new();
    hash_update(h, data, len);
    hash_final(h, hex);
}
