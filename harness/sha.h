/*
 * harness/sha.h: SHA-256 through OpenSSL's EVP, for file identities and
 * content keys. Never fails on valid pointers (aborting on a broken
 * libcrypto is not ours to do: a failed digest yields all zeros).
 */
#ifndef FF8_HARNESS_SHA_H
#define FF8_HARNESS_SHA_H

#include <stddef.h>
#include <stdint.h>

/* Lowercase hex digest of data into out (65 bytes with the NUL). */
void sha256_hex(const void *data, size_t len, char out[65]);
/* Digest of three concatenated parts (any may be empty). */
void sha256_parts(uint8_t out[32], const void *a, size_t alen, const void *b, size_t blen,
                  const void *c, size_t clen);
/* Lowercase hex of 32 bytes. */
void sha256_to_hex(const uint8_t d[32], char out[65]);

#endif
