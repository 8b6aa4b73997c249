/*
 * common/sha256.h: the project's one SHA-256 (OpenSSL EVP underneath), for
 * file identities, cache keys and deduplication keys.
 *
 * One failure policy: a digest that cannot be computed (libcrypto out of
 * memory or broken) is an error value, never a made-up digest. Nothing here
 * prints, exits or keeps state between calls.
 */
#ifndef FF8_COMMON_SHA256_H
#define FF8_COMMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define SHA256_BYTES 32
#define SHA256_HEX 65 /* 64 lower-case hex digits + NUL */

/* One piece of the input; a NULL or empty piece adds nothing. */
typedef struct sha256_part {
    const void *data;
    size_t len;
} sha256_part;

/*
 * Digest of the concatenation of n parts into out. Returns 0, or -1 with
 * err (kind FF_E_INTERNAL) when libcrypto fails; out is then all zeros,
 * which no caller may use as a key.
 */
int sha256_parts(const sha256_part *parts, size_t n, uint8_t out[SHA256_BYTES], ff_error *err);
/* Lower-case hex digest of one buffer; same contract (out is "" on failure). */
int sha256_hex(const void *data, size_t len, char out[SHA256_HEX], ff_error *err);
/* Lower-case hex of a digest. Cannot fail. */
void sha256_to_hex(const uint8_t d[SHA256_BYTES], char out[SHA256_HEX]);

#endif
