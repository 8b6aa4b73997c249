/*
 * harness/sha.c: SHA-256 helpers over OpenSSL EVP.
 */
#include "harness/sha.h"

#include <openssl/evp.h>
#include <string.h>

void sha256_to_hex(const uint8_t d[32], char out[65])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[64] = '\0';
}

void sha256_parts(uint8_t out[32], const void *a, size_t alen, const void *b, size_t blen,
                  const void *c, size_t clen)
{
    memset(out, 0, 32);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx) return;
    unsigned int n = 0;
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1 ||
        (alen && EVP_DigestUpdate(ctx, a, alen) != 1) ||
        (blen && EVP_DigestUpdate(ctx, b, blen) != 1) ||
        (clen && EVP_DigestUpdate(ctx, c, clen) != 1) || EVP_DigestFinal_ex(ctx, out, &n) != 1)
        memset(out, 0, 32);
    EVP_MD_CTX_free(ctx);
}

void sha256_hex(const void *data, size_t len, char out[65])
{
    uint8_t d[32];
    sha256_parts(d, data, len, NULL, 0, NULL, 0);
    sha256_to_hex(d, out);
}
