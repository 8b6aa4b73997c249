/*
 * emu/image/profile_internal.h: what the profile parser's files share
 * (emu/image/profile.c, emu/image/profile_evidence.c): the parsing context
 * and the checked readers of JSON values, each naming the source and the
 * key in its error. Not for use outside emu/image/profile*.c.
 */
#ifndef FF8_EMU_IMAGE_PROFILE_INTERNAL_H
#define FF8_EMU_IMAGE_PROFILE_INTERNAL_H

#include <cjson/cJSON.h>

#include "emu/image/profile.h"

/* Parsing context: where errors point. */
typedef struct profile_pctx {
    const char *source;
    ff_error *err;
} profile_pctx;

/* Sets a FF_E_FORMAT error "key KEY: WHY"; returns -1. */
int profile_bad(const profile_pctx *c, const char *key, const char *why);
/* A u32 from a JSON integer or a "0x..."/decimal string; 0 or -1. */
int profile_get_u32(const profile_pctx *c, const cJSON *v, const char *key, uint32_t *out);
/* A string of fewer than cap bytes (empty only when allow_empty); 0 or -1. */
int profile_get_string(const profile_pctx *c, const cJSON *v, const char *key, char *out,
                       size_t cap, int allow_empty);
/* Rejects an object with keys not in allowed (NULL-terminated); 0 or -1. */
int profile_check_keys(const profile_pctx *c, const cJSON *obj, const char *where,
                       const char *const *allowed);
/* The member name of obj, or NULL with the error set. */
const cJSON *profile_need(const profile_pctx *c, const cJSON *obj, const char *name,
                          const char *where);
/* "83 EC 08" into out (1..cap bytes); 0, or -1 when malformed. */
int profile_hex_bytes(const char *s, uint8_t *out, unsigned cap, unsigned *len);

/* "evidence" and "versions" of the top object (either may be absent); 0 or -1. */
int profile_parse_evidence(const profile_pctx *c, const cJSON *root, emu_profile *p);

#endif
