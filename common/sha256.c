/*
 * common/sha256.c: SHA-256 over OpenSSL's EVP interface.
 */
#include "common/sha256.h"

#include <openssl/evp.h>
#include <string.h>

void sha256_to_hex(const uint8_t d[SHA256_BYTES], char out[SHA256_HEX])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < SHA256_BYTES; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[2 * SHA256_BYTES] = '\0';
}

int sha256_parts(const sha256_part *parts, size_t n, uint8_t out[SHA256_BYTES], ff_error *err)
{
    memset(out, 0, SHA256_BYTES);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "SHA-256: out of memory");
    unsigned int len = 0;
    int ok = EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1;
    for (size_t i = 0; ok && i < n; i++)
        if (parts[i].data && parts[i].len)
            ok = EVP_DigestUpdate(ctx, parts[i].data, parts[i].len) == 1;
    ok = ok && EVP_DigestFinal_ex(ctx, out, &len) == 1 && len == SHA256_BYTES;
    EVP_MD_CTX_free(ctx);
    if (ok) return 0;
    memset(out, 0, SHA256_BYTES);
    return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "SHA-256 failed in libcrypto");
}

int sha256_hex(const void *data, size_t len, char out[SHA256_HEX], ff_error *err)
{
    uint8_t d[SHA256_BYTES];
    sha256_part p = {data, len};
    out[0] = '\0';
    if (sha256_parts(&p, 1, d, err) < 0) return -1;
    sha256_to_hex(d, out);
    return 0;
}
