/*
 * emu/image/profile_evidence.c: the profile's evidence that never decides
 * whether a build runs (see emu/image/profile.h): "evidence" (bytes at an
 * address, with what they say) and "versions" (builds told apart by dwords
 * of the image). Parsed with every key checked. No printing, no exit.
 */
#include <stdio.h>
#include <string.h>

#include "emu/image/profile_internal.h"

static int parse_one_evidence(const profile_pctx *c, const cJSON *o, int i, profile_evidence *e)
{
    static const char *const keys[] = {"what", "address", "bytes", NULL};
    char where[48], key[80];
    snprintf(where, sizeof where, "evidence[%d]", i);
    if (profile_check_keys(c, o, where, keys) != 0) return -1;
    const cJSON *w = profile_need(c, o, "what", where), *a = profile_need(c, o, "address", where);
    const cJSON *b = profile_need(c, o, "bytes", where);
    if (!w || !a || !b) return -1;
    snprintf(key, sizeof key, "%s.what", where);
    if (profile_get_string(c, w, key, e->what, sizeof e->what, 0) != 0) return -1;
    snprintf(key, sizeof key, "%s.address", where);
    if (profile_get_u32(c, a, key, &e->address) != 0) return -1;
    snprintf(key, sizeof key, "%s.bytes", where);
    if (!cJSON_IsString(b) ||
        profile_hex_bytes(b->valuestring, e->bytes, PROFILE_FP_MAX_BYTES, &e->len) != 0)
        return profile_bad(c, key, "expected 1..32 hex bytes like \"D0 E1 FE\"");
    if ((uint64_t)e->address + e->len > 0x100000000ull)
        return profile_bad(c, key, "runs past 4 GiB");
    return 0;
}

/* "dwords": [["0x401004", "0x3885048D"], ...], 1..PROFILE_VERSION_DWORDS pairs. */
static int parse_dwords(const profile_pctx *c, const cJSON *arr, const char *where,
                        profile_version *v)
{
    char key[96];
    snprintf(key, sizeof key, "%s.dwords", where);
    int n = cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : -1;
    if (n < 1 || n > PROFILE_VERSION_DWORDS)
        return profile_bad(c, key, "expected 1 to 4 [address, value] pairs");
    for (int k = 0; k < n; k++) {
        const cJSON *pair = cJSON_GetArrayItem(arr, k);
        snprintf(key, sizeof key, "%s.dwords[%d]", where, k);
        if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2)
            return profile_bad(c, key, "expected an [address, value] pair");
        if (profile_get_u32(c, cJSON_GetArrayItem(pair, 0), key, &v->address[k]) != 0 ||
            profile_get_u32(c, cJSON_GetArrayItem(pair, 1), key, &v->value[k]) != 0)
            return -1;
        if (v->address[k] > 0xFFFFFFFCu) return profile_bad(c, key, "runs past 4 GiB");
    }
    v->ndwords = (unsigned)n;
    return 0;
}

static int parse_version(const profile_pctx *c, const cJSON *o, int i, profile_version *v)
{
    static const char *const keys[] = {"build", "language", "own", "dwords", NULL};
    char where[48], key[80];
    snprintf(where, sizeof where, "versions[%d]", i);
    if (profile_check_keys(c, o, where, keys) != 0) return -1;
    const cJSON *b = profile_need(c, o, "build", where), *l = profile_need(c, o, "language", where);
    const cJSON *d = profile_need(c, o, "dwords", where);
    if (!b || !l || !d) return -1;
    snprintf(key, sizeof key, "%s.build", where);
    if (profile_get_string(c, b, key, v->build, sizeof v->build, 0) != 0) return -1;
    snprintf(key, sizeof key, "%s.language", where);
    if (profile_get_string(c, l, key, v->language, sizeof v->language, 0) != 0) return -1;
    const cJSON *own = cJSON_GetObjectItemCaseSensitive(o, "own");
    if (own && !cJSON_IsBool(own)) {
        snprintf(key, sizeof key, "%s.own", where);
        return profile_bad(c, key, "expected true or false");
    }
    v->own = own && cJSON_IsTrue(own);
    return parse_dwords(c, d, where, v);
}

int profile_parse_evidence(const profile_pctx *c, const cJSON *root, emu_profile *p)
{
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(root, "evidence");
    if (ev) {
        int n = cJSON_IsArray(ev) ? cJSON_GetArraySize(ev) : -1;
        if (n < 0) return profile_bad(c, "evidence", "expected an array");
        if (n > PROFILE_MAX_EVIDENCE) return profile_bad(c, "evidence", "too many entries");
        for (int i = 0; i < n; i++)
            if (parse_one_evidence(c, cJSON_GetArrayItem(ev, i), i, &p->evidence[i]) != 0)
                return -1;
        p->nevidence = (unsigned)n;
    }
    const cJSON *vs = cJSON_GetObjectItemCaseSensitive(root, "versions");
    if (!vs) return 0;
    int n = cJSON_IsArray(vs) ? cJSON_GetArraySize(vs) : -1;
    if (n < 0) return profile_bad(c, "versions", "expected an array");
    if (n > PROFILE_MAX_VERSIONS) return profile_bad(c, "versions", "too many builds");
    unsigned own = 0;
    for (int i = 0; i < n; i++) {
        if (parse_version(c, cJSON_GetArrayItem(vs, i), i, &p->versions[i]) != 0) return -1;
        own += (unsigned)p->versions[i].own;
    }
    if (own > 1) return profile_bad(c, "versions", "more than one build marked \"own\"");
    p->nversions = (unsigned)n;
    return 0;
}
