/*
 * emu/image/profile.c: executable profiles (see emu/image/profile.h) parsed with cJSON.
 * Every field is validated and an error names the source and the key
 * ("routines[3].address"). The built-in profiles are in
 * emu/profiles/profile_builtin.c, writing one back to JSON in emu/image/profile_write.c,
 * the enums' names and the lookups in emu/image/profile_names.c.
 * No printing, no exit.
 */
#include "emu/image/profile.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/json_read.h"
#include "emu/image/profile_internal.h"
#include "emu/image/profile_names.h"
#include "ref/pose.h"

#define PROFILE_FORMAT "ff8diff-profile/1"
#define PROFILE_MAX_FILE (1u << 20)

#define BIT(k) (1u << PROFILE_P_##k)
/* The operand kinds each helper role takes (see profile.h), by role. */
static const unsigned helper_operands[PROFILE_H__COUNT] = {
    [PROFILE_H_SIN] = BIT(ANGLE),
    [PROFILE_H_COS] = BIT(ANGLE),
    [PROFILE_H_COPY5] = BIT(A) | BIT(B) | BIT(OUT),
    [PROFILE_H_MUL_INTO] = BIT(A) | BIT(B),
    [PROFILE_H_ROT_X] = BIT(ANGLE) | BIT(M),
    [PROFILE_H_ROT_Y] = BIT(ANGLE) | BIT(M),
    [PROFILE_H_ROT_Z] = BIT(ANGLE) | BIT(M),
    [PROFILE_H_ROT_XYZ] = BIT(SV) | BIT(M),
    [PROFILE_H_ROT_BONE] = BIT(SV) | BIT(M),
    [PROFILE_H_SCALE_UNIFORM] = BIT(M) | BIT(V),
    [PROFILE_H_SCALE_COLUMNS] = BIT(A) | BIT(V) | BIT(OUT),
    [PROFILE_H_APPLY] = BIT(A) | BIT(SV) | BIT(VOUT),
    [PROFILE_H_COMPOSE] = BIT(A) | BIT(B) | BIT(OUT),
    [PROFILE_H_COMPOSE_TO] = BIT(A) | BIT(B) | BIT(OUT),
};
/* A second set a role may take instead (0: none): an older reading of the routine. */
static const unsigned helper_operands_alt[PROFILE_H__COUNT] = {
    [PROFILE_H_SCALE_COLUMNS] = BIT(M) | BIT(V),
};
#undef BIT

/* Index of s in names[0..n), or -1. */
static int name_index(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

int profile_bad(const profile_pctx *c, const char *key, const char *why)
{
    return ff_error_set(c->err, FF_E_FORMAT, c->source, -1, "key %s: %s", key, why);
}

/* A u32 from a JSON integer or a "0x..."/decimal string. */
int profile_get_u32(const profile_pctx *c, const cJSON *v, const char *key, uint32_t *out)
{
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d < 0 || d > 4294967295.0 || d != (double)(uint32_t)d)
            return profile_bad(c, key, "not an integer in 0..0xFFFFFFFF");
        *out = (uint32_t)d;
        return 0;
    }
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return profile_bad(c, key, "expected an integer or a \"0x...\" string");
    const char *s = v->valuestring;
    int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
    const char *digits = base == 16 ? s + 2 : s;
    if (!isxdigit((unsigned char)digits[0])) return profile_bad(c, key, "not a number");
    char *end;
    errno = 0;
    unsigned long long n = strtoull(digits, &end, base);
    if (*end || errno || n > UINT32_MAX) return profile_bad(c, key, "not a number in 0..0xFFFFFFFF");
    *out = (uint32_t)n;
    return 0;
}

int profile_get_string(const profile_pctx *c, const cJSON *v, const char *key, char *out, size_t cap,
                      int allow_empty)
{
    if (!cJSON_IsString(v)) return profile_bad(c, key, "expected a string");
    size_t n = strlen(v->valuestring);
    if (n >= cap) return profile_bad(c, key, "string too long");
    if (!n && !allow_empty) return profile_bad(c, key, "empty string");
    memcpy(out, v->valuestring, n + 1);
    return 0;
}

/* Rejects keys not in allowed (NULL-terminated). */
int profile_check_keys(const profile_pctx *c, const cJSON *obj, const char *where,
                      const char *const *allowed)
{
    if (!cJSON_IsObject(obj)) return profile_bad(c, where, "expected an object");
    for (const cJSON *it = obj->child; it; it = it->next) {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            if (it->string && strcmp(it->string, *a) == 0) ok = 1;
        if (!ok) {
            char key[160];
            snprintf(key, sizeof key, "%s.%s", where, it->string ? it->string : "?");
            return profile_bad(c, key, "unknown key");
        }
    }
    return 0;
}

const cJSON *profile_need(const profile_pctx *c, const cJSON *obj, const char *name, const char *where)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!v) {
        char key[160];
        snprintf(key, sizeof key, "%s%s%s", where, where[0] ? "." : "", name);
        profile_bad(c, key, "missing");
    }
    return v;
}

int profile_hex_bytes(const char *s, uint8_t *out, unsigned cap, unsigned *len)
{
    unsigned n = 0;
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1])) return -1;
        if (s[2] && s[2] != ' ') return -1;
        if (n >= cap) return -1;
        char b[3] = {s[0], s[1], 0};
        out[n++] = (uint8_t)strtoul(b, NULL, 16);
        s += 2;
    }
    *len = n;
    return n ? 0 : -1;
}

static int parse_hashes(const profile_pctx *c, const cJSON *arr, emu_profile *p)
{
    if (!cJSON_IsArray(arr)) return profile_bad(c, "sha256", "expected an array");
    int n = cJSON_GetArraySize(arr);
    if (n > PROFILE_MAX_HASHES) return profile_bad(c, "sha256", "too many hashes");
    for (int i = 0; i < n; i++) {
        char key[32];
        snprintf(key, sizeof key, "sha256[%d]", i);
        char *h = p->sha256[i];
        if (profile_get_string(c, cJSON_GetArrayItem(arr, i), key, h, 65, 0) != 0) return -1;
        if (strlen(h) != 64) return profile_bad(c, key, "not 64 hex digits");
        for (int k = 0; k < 64; k++) {
            if (!isxdigit((unsigned char)h[k])) return profile_bad(c, key, "not 64 hex digits");
            h[k] = (char)tolower((unsigned char)h[k]);
        }
    }
    p->nhashes = (unsigned)n;
    return 0;
}

static int parse_fingerprints(const profile_pctx *c, const cJSON *arr, emu_profile *p)
{
    static const char *const keys[] = {"address", "bytes", NULL};
    if (!cJSON_IsArray(arr)) return profile_bad(c, "fingerprints", "expected an array");
    int n = cJSON_GetArraySize(arr);
    if (n > PROFILE_MAX_FINGERPRINTS) return profile_bad(c, "fingerprints", "too many fingerprints");
    for (int i = 0; i < n; i++) {
        char where[48], key[64];
        snprintf(where, sizeof where, "fingerprints[%d]", i);
        const cJSON *f = cJSON_GetArrayItem(arr, i);
        if (profile_check_keys(c, f, where, keys) != 0) return -1;
        profile_fingerprint *fp = &p->fingerprints[i];
        const cJSON *a = profile_need(c, f, "address", where), *b = profile_need(c, f, "bytes", where);
        if (!a || !b) return -1;
        snprintf(key, sizeof key, "%s.address", where);
        if (profile_get_u32(c, a, key, &fp->address) != 0) return -1;
        snprintf(key, sizeof key, "%s.bytes", where);
        if (!cJSON_IsString(b) ||
            profile_hex_bytes(b->valuestring, fp->bytes, PROFILE_FP_MAX_BYTES, &fp->len) != 0)
            return profile_bad(c, key, "expected 1..32 hex bytes like \"83 EC 08\"");
        if ((uint64_t)fp->address + fp->len > 0x100000000ull) return profile_bad(c, key, "runs past 4 GiB");
    }
    p->nfingerprints = (unsigned)n;
    return 0;
}

static int parse_callees(const profile_pctx *c, const cJSON *arr, const char *where, profile_routine *r)
{
    char key[96];
    snprintf(key, sizeof key, "%s.callees", where);
    if (!cJSON_IsArray(arr)) return profile_bad(c, key, "expected an array");
    int n = cJSON_GetArraySize(arr);
    if (n > PROFILE_MAX_CALLEES) return profile_bad(c, key, "too many callees");
    for (int i = 0; i < n; i++) {
        snprintf(key, sizeof key, "%s.callees[%d]", where, i);
        if (profile_get_string(c, cJSON_GetArrayItem(arr, i), key, r->callees[i], 64, 0) != 0) return -1;
    }
    r->ncallees = (unsigned)n;
    r->callees_known = 1;
    return 0;
}

/* The "params" list of a pose helper: one known kind per argument, exactly
 * the operand kinds of its role. */
static int parse_params(const profile_pctx *c, const cJSON *arr, const char *where, profile_routine *r)
{
    char key[96];
    snprintf(key, sizeof key, "%s.params", where);
    if (!cJSON_IsArray(arr)) return profile_bad(c, key, "expected an array");
    int n = cJSON_GetArraySize(arr);
    if (n != (int)r->args) return profile_bad(c, key, "not one operand kind per argument (\"args\")");
    unsigned seen = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *v = cJSON_GetArrayItem(arr, i);
        snprintf(key, sizeof key, "%s.params[%d]", where, i);
        int kind = cJSON_IsString(v)
                       ? name_index(profile_param_names, PROFILE_P__COUNT, v->valuestring)
                       : -1;
        if (kind < 0) return profile_bad(c, key, "expected angle, a, b, m, out, sv, v or vout");
        if (seen & (1u << kind)) return profile_bad(c, key, "operand kind given twice");
        seen |= 1u << kind;
        r->params[i] = (uint8_t)kind;
    }
    if (seen != helper_operands[r->helper] && seen != helper_operands_alt[r->helper]) {
        snprintf(key, sizeof key, "%s.params", where);
        return profile_bad(c, key, "not the operand kinds of its helper role");
    }
    return 0;
}

/* "helper", "params" and "result" of a routine row: all three or none. */
static int parse_helper(const profile_pctx *c, const cJSON *o, const char *where, profile_routine *r)
{
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "helper");
    const cJSON *pa = cJSON_GetObjectItemCaseSensitive(o, "params");
    const cJSON *re = cJSON_GetObjectItemCaseSensitive(o, "result");
    char key[96];
    r->helper = -1;
    if (!h && !pa && !re) return 0;
    snprintf(key, sizeof key, "%s.%s", where, !h ? "helper" : !pa ? "params" : "result");
    if (!h || !pa || !re)
        return profile_bad(c, key, "missing (a pose helper needs helper, params, result)");
    snprintf(key, sizeof key, "%s.helper", where);
    r->helper =
        cJSON_IsString(h) ? name_index(profile_helper_names, PROFILE_H__COUNT, h->valuestring) : -1;
    if (r->helper < 0) return profile_bad(c, key, "not a pose helper role (sin, cos, copy5, ...)");
    snprintf(key, sizeof key, "%s.result", where);
    int res = cJSON_IsString(re)
                  ? name_index(profile_result_names, PROFILE_RES__COUNT, re->valuestring)
                  : -1;
    if (res < 0) return profile_bad(c, key, "expected none, eax, ax or st0");
    if ((r->helper == PROFILE_H_SIN || r->helper == PROFILE_H_COS) && res == PROFILE_RES_NONE)
        return profile_bad(c, key, "sin and cos return a value");
    r->result = (uint8_t)res;
    return parse_params(c, pa, where, r);
}

/* "pattern": four hex digits per instruction token. */
static int parse_pattern(const profile_pctx *c, const cJSON *v, const char *where, profile_routine *r)
{
    char key[96];
    snprintf(key, sizeof key, "%s.pattern", where);
    if (!cJSON_IsString(v)) return profile_bad(c, key, "expected a string of hex digits");
    const char *h = v->valuestring;
    size_t n = strlen(h);
    if (n == 0 || n % 4 || n / 4 > PROFILE_PATTERN_MAX)
        return profile_bad(c, key, "expected 4 hex digits per instruction, at most 1024 instructions");
    for (size_t i = 0; i < n; i += 4) {
        uint16_t tok = 0;
        for (size_t k = 0; k < 4; k++) {
            int d = h[i + k];
            if (!isxdigit(d)) return profile_bad(c, key, "not a hex digit");
            tok = (uint16_t)(tok << 4 | (isdigit(d) ? d - '0' : tolower(d) - 'a' + 10));
        }
        r->pattern[i / 4] = tok;
    }
    r->npattern = (unsigned)(n / 4);
    return 0;
}

/* "size" (bytes) and "insns" (instructions): each optional, never 0. */
static int parse_size(const profile_pctx *c, const cJSON *o, const char *where, profile_routine *r)
{
    char key[96];
    const cJSON *sz = cJSON_GetObjectItemCaseSensitive(o, "size");
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(o, "insns");
    uint32_t v;
    snprintf(key, sizeof key, "%s.size", where);
    if (sz && (profile_get_u32(c, sz, key, &v) != 0 || (!v && profile_bad(c, key, "is 0"))))
        return -1;
    r->size = sz ? v : 0;
    snprintf(key, sizeof key, "%s.insns", where);
    if (in && (profile_get_u32(c, in, key, &v) != 0 || (!v && profile_bad(c, key, "is 0"))))
        return -1;
    r->insns = in ? v : 0;
    return 0;
}

static int parse_routine(const profile_pctx *c, const cJSON *o, int i, profile_routine *r)
{
    static const char *const keys[] = {"name",   "address", "signature", "args",
                                       "callees", "test",   "helper",    "params",
                                       "result",  "size",   "insns",     "pattern",
                                       NULL};
    char where[48], key[80];
    snprintf(where, sizeof where, "routines[%d]", i);
    if (profile_check_keys(c, o, where, keys) != 0) return -1;
    const cJSON *name = profile_need(c, o, "name", where), *addr = profile_need(c, o, "address", where);
    const cJSON *sig = profile_need(c, o, "signature", where), *args = profile_need(c, o, "args", where);
    if (!name || !addr || !sig || !args) return -1;
    snprintf(key, sizeof key, "%s.name", where);
    if (profile_get_string(c, name, key, r->name, sizeof r->name, 0) != 0) return -1;
    snprintf(key, sizeof key, "%s.address", where);
    if (profile_get_u32(c, addr, key, &r->address) != 0) return -1;
    snprintf(key, sizeof key, "%s.signature", where);
    if (profile_get_string(c, sig, key, r->signature, sizeof r->signature, 0) != 0) return -1;
    snprintf(key, sizeof key, "%s.args", where);
    uint32_t nargs;
    if (profile_get_u32(c, args, key, &nargs) != 0) return -1;
    if (nargs > PROFILE_MAX_ARGS) return profile_bad(c, key, "more than 16 arguments");
    r->args = nargs;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "test");
    if (t && !cJSON_IsBool(t)) {
        snprintf(key, sizeof key, "%s.test", where);
        return profile_bad(c, key, "expected true or false");
    }
    r->test = t && cJSON_IsTrue(t);
    const cJSON *pat = cJSON_GetObjectItemCaseSensitive(o, "pattern");
    if (pat && parse_pattern(c, pat, where, r) != 0) return -1;
    if (parse_size(c, o, where, r) != 0) return -1;
    const cJSON *cal = cJSON_GetObjectItemCaseSensitive(o, "callees");
    if (cal && parse_callees(c, cal, where, r) != 0) return -1;
    return parse_helper(c, o, where, r);
}

/* Names unique, callees resolvable, engine routines indexed. */
static int link_routines(const profile_pctx *c, emu_profile *p)
{
    for (unsigned i = 0; i < p->nroutines; i++) {
        const profile_routine *r = &p->routines[i];
        char key[96];
        for (unsigned j = 0; j < i; j++)
            if (strcmp(p->routines[j].name, r->name) == 0) {
                snprintf(key, sizeof key, "routines[%u].name", i);
                return profile_bad(c, key, "duplicate routine name");
            }
        for (unsigned k = 0; k < r->ncallees; k++) {
            const char *s = r->callees[k];
            snprintf(key, sizeof key, "routines[%u].callees[%u]", i, k);
            if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
                cJSON tmp;
                memset(&tmp, 0, sizeof tmp);
                tmp.type = cJSON_String;
                tmp.valuestring = (char *)s;
                uint32_t a;
                if (profile_get_u32(c, &tmp, key, &a) != 0) return -1;
            } else if (!profile_find_routine(p, s)) {
                return profile_bad(c, key, "names no routine of this profile");
            }
        }
        for (int id = 0; id < PROFILE_R__COUNT; id++)
            if (strcmp(r->name, profile_routine_names[id]) == 0) p->engine[id] = (int)i;
        if (r->helper >= 0) {
            if (p->helpers[r->helper] >= 0) {
                snprintf(key, sizeof key, "routines[%u].helper", i);
                return profile_bad(c, key, "role already held by another routine");
            }
            p->helpers[r->helper] = (int)i;
        }
    }
    return 0;
}

static int parse_routines(const profile_pctx *c, const cJSON *arr, emu_profile *p)
{
    if (!cJSON_IsArray(arr)) return profile_bad(c, "routines", "expected an array");
    int n = cJSON_GetArraySize(arr);
    if (n > PROFILE_MAX_ROUTINES) return profile_bad(c, "routines", "too many routines");
    for (int i = 0; i < n; i++)
        if (parse_routine(c, cJSON_GetArrayItem(arr, i), i, &p->routines[i]) != 0) return -1;
    p->nroutines = (unsigned)n;
    return link_routines(c, p);
}

static int parse_globals(const profile_pctx *c, const cJSON *arr, emu_profile *p)
{
    static const char *const keys[] = {"name", "address", "size", "found_in", NULL};
    if (!cJSON_IsArray(arr)) return profile_bad(c, "globals", "expected an array");
    int n = cJSON_GetArraySize(arr);
    if (n > PROFILE_MAX_GLOBALS) return profile_bad(c, "globals", "too many globals");
    for (int i = 0; i < n; i++) {
        char where[48], key[80];
        snprintf(where, sizeof where, "globals[%d]", i);
        const cJSON *o = cJSON_GetArrayItem(arr, i);
        if (profile_check_keys(c, o, where, keys) != 0) return -1;
        profile_global *g = &p->globals[i];
        const cJSON *nm = profile_need(c, o, "name", where), *a = profile_need(c, o, "address", where);
        const cJSON *sz = profile_need(c, o, "size", where);
        if (!nm || !a || !sz) return -1;
        snprintf(key, sizeof key, "%s.name", where);
        if (profile_get_string(c, nm, key, g->name, sizeof g->name, 0) != 0) return -1;
        snprintf(key, sizeof key, "%s.address", where);
        if (profile_get_u32(c, a, key, &g->address) != 0) return -1;
        snprintf(key, sizeof key, "%s.size", where);
        if (profile_get_u32(c, sz, key, &g->size) != 0) return -1;
        if (g->size == 0 || g->size > 4096) return profile_bad(c, key, "not in 1..4096");
        if ((uint64_t)g->address + g->size > 0x100000000ull) return profile_bad(c, key, "past 4 GiB");
        if (strcmp(g->name, "field_alloc_cursor") == 0) {
            if (g->size != 4) return profile_bad(c, key, "field_alloc_cursor must be 4 bytes");
            p->field_alloc_cursor = i;
        }
        const cJSON *fi = cJSON_GetObjectItemCaseSensitive(o, "found_in");
        snprintf(key, sizeof key, "%s.found_in", where);
        if (fi && profile_get_string(c, fi, key, g->found_in, sizeof g->found_in, 0) != 0) return -1;
    }
    p->nglobals = (unsigned)n;
    return 0;
}

static int parse_table(const profile_pctx *c, const cJSON *o, int i, profile_table *t)
{
    static const char *const keys[] = {"name", "address", "bytes", "read_by", NULL};
    char where[48], key[80];
    snprintf(where, sizeof where, "tables[%d]", i);
    if (profile_check_keys(c, o, where, keys) != 0) return -1;
    const cJSON *nm = profile_need(c, o, "name", where), *a = profile_need(c, o, "address", where);
    const cJSON *b = profile_need(c, o, "bytes", where), *rb = profile_need(c, o, "read_by", where);
    if (!nm || !a || !b || !rb) return -1;
    snprintf(key, sizeof key, "%s.name", where);
    if (profile_get_string(c, nm, key, t->name, sizeof t->name, 0) != 0) return -1;
    snprintf(key, sizeof key, "%s.address", where);
    if (profile_get_u32(c, a, key, &t->address) != 0) return -1;
    snprintf(key, sizeof key, "%s.bytes", where);
    if (!cJSON_IsString(b) ||
        profile_hex_bytes(b->valuestring, t->bytes, PROFILE_FP_MAX_BYTES, &t->len) != 0)
        return profile_bad(c, key, "expected 1..32 hex bytes like \"03 06 09 10\"");
    if ((uint64_t)t->address + t->len > 0x100000000ull) return profile_bad(c, key, "runs past 4 GiB");
    snprintf(key, sizeof key, "%s.read_by", where);
    if (!cJSON_IsArray(rb)) return profile_bad(c, key, "expected an array");
    int n = cJSON_GetArraySize(rb);
    if (n > PROFILE_MAX_READERS) return profile_bad(c, key, "too many readers");
    for (int k = 0; k < n; k++) {
        snprintf(key, sizeof key, "%s.read_by[%d]", where, k);
        if (profile_get_string(c, cJSON_GetArrayItem(rb, k), key, t->read_by[k], 64, 0) != 0) return -1;
    }
    t->nreaders = (unsigned)n;
    return 0;
}

static int parse_tables(const profile_pctx *c, const cJSON *arr, emu_profile *p)
{
    if (!cJSON_IsArray(arr)) return profile_bad(c, "tables", "expected an array");
    int n = cJSON_GetArraySize(arr);
    if (n > PROFILE_MAX_TABLES) return profile_bad(c, "tables", "too many tables");
    for (int i = 0; i < n; i++)
        if (parse_table(c, cJSON_GetArrayItem(arr, i), i, &p->tables[i]) != 0) return -1;
    p->ntables = (unsigned)n;
    return 0;
}

static int parse_located(const profile_pctx *c, const cJSON *o, emu_profile *p)
{
    static const char *const keys[] = {"from_profile", "executable", "patterns", "tool", NULL};
    if (profile_check_keys(c, o, "located", keys) != 0) return -1;
    profile_located *l = &p->located_from;
    struct {
        const char *name;
        char *out;
        size_t cap;
    } f[] = {{"from_profile", l->from_profile, sizeof l->from_profile},
             {"executable", l->executable, sizeof l->executable},
             {"patterns", l->patterns, sizeof l->patterns},
             {"tool", l->tool, sizeof l->tool}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        char key[48];
        snprintf(key, sizeof key, "located.%s", f[i].name);
        const cJSON *v = profile_need(c, o, f[i].name, "located");
        if (!v || profile_get_string(c, v, key, f[i].out, f[i].cap, 0) != 0) return -1;
    }
    p->located = 1;
    return 0;
}

/* Table readers and global owners name routines of the profile. */
static int check_names(const profile_pctx *c, const emu_profile *p)
{
    char key[96];
    for (unsigned i = 0; i < p->ntables; i++)
        for (unsigned k = 0; k < p->tables[i].nreaders; k++)
            if (!profile_find_routine(p, p->tables[i].read_by[k])) {
                snprintf(key, sizeof key, "tables[%u].read_by[%u]", i, k);
                return profile_bad(c, key, "names no routine of this profile");
            }
    for (unsigned i = 0; i < p->nglobals; i++)
        if (p->globals[i].found_in[0] && !profile_find_routine(p, p->globals[i].found_in)) {
            snprintf(key, sizeof key, "globals[%u].found_in", i);
            return profile_bad(c, key, "names no routine of this profile");
        }
    return 0;
}

static int parse_top(const profile_pctx *c, const cJSON *root, emu_profile *p)
{
    static const char *const keys[] = {
        "format",   "name",    "description",  "image_base",  "sha256",          "fingerprints",
        "routines", "globals", "scratch_size", "x87_control", "pose_convention", "tables",
        "located",  "evidence", "versions", NULL};
    if (profile_check_keys(c, root, "(top)", keys) != 0) return -1;
    const char *req[] = {"format",       "name",     "description", "image_base",  "sha256",
                         "fingerprints", "routines", "globals",     "scratch_size"};
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++)
        if (!profile_need(c, root, req[i], "")) return -1;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, PROFILE_FORMAT) != 0)
        return profile_bad(c, "format", "expected \"" PROFILE_FORMAT "\"");
    if (profile_get_string(c, cJSON_GetObjectItemCaseSensitive(root, "name"), "name", p->name,
                   sizeof p->name, 0) != 0)
        return -1;
    for (const char *s = p->name; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
            return profile_bad(c, "name", "only letters, digits, '_', '-' and '.' are allowed");
    if (profile_get_string(c, cJSON_GetObjectItemCaseSensitive(root, "description"), "description",
                   p->description, sizeof p->description, 1) != 0)
        return -1;
    if (profile_get_u32(c, cJSON_GetObjectItemCaseSensitive(root, "image_base"), "image_base",
                &p->image_base) != 0)
        return -1;
    if (p->image_base & 0xFFF) return profile_bad(c, "image_base", "not page-aligned");
    if (profile_get_u32(c, cJSON_GetObjectItemCaseSensitive(root, "scratch_size"), "scratch_size",
                &p->scratch_size) != 0)
        return -1;
    if (p->scratch_size < 0x100 || p->scratch_size > 0x1000000 || (p->scratch_size & 3))
        return profile_bad(c, "scratch_size", "not a multiple of 4 in 0x100..0x1000000");
    const cJSON *cw = cJSON_GetObjectItemCaseSensitive(root, "x87_control");
    uint32_t control = PROFILE_X87_CONTROL_DEFAULT;
    if (cw && profile_get_u32(c, cw, "x87_control", &control) != 0) return -1;
    if (control > 0xFFFF) return profile_bad(c, "x87_control", "not a 16-bit control word");
    p->x87_control = (uint16_t)control;
    const cJSON *pc = cJSON_GetObjectItemCaseSensitive(root, "pose_convention");
    if (pc) {
        ref_pose_opts o;
        ff_error e;
        if (profile_get_string(c, pc, "pose_convention", p->pose_convention, sizeof p->pose_convention,
                       0) != 0)
            return -1;
        if (ref_pose_opts_parse(p->pose_convention, &o, &e) != 0)
            return profile_bad(c, "pose_convention", e.reason);
    }
    if (parse_hashes(c, cJSON_GetObjectItemCaseSensitive(root, "sha256"), p) != 0) return -1;
    if (parse_fingerprints(c, cJSON_GetObjectItemCaseSensitive(root, "fingerprints"), p) != 0)
        return -1;
    if (parse_globals(c, cJSON_GetObjectItemCaseSensitive(root, "globals"), p) != 0) return -1;
    const cJSON *tables = cJSON_GetObjectItemCaseSensitive(root, "tables");
    if (tables && parse_tables(c, tables, p) != 0) return -1;
    const cJSON *loc = cJSON_GetObjectItemCaseSensitive(root, "located");
    if (loc && parse_located(c, loc, p) != 0) return -1;
    if (profile_parse_evidence(c, root, p) != 0) return -1;
    if (parse_routines(c, cJSON_GetObjectItemCaseSensitive(root, "routines"), p) != 0) return -1;
    return check_names(c, p);
}

int profile_parse(const char *json, size_t len, const char *source, emu_profile *out, ff_error *err)
{
    profile_pctx c = {source ? source : "(profile)", err};
    memset(out, 0, sizeof *out);
    for (int i = 0; i < PROFILE_R__COUNT; i++)
        out->engine[i] = -1;
    for (int i = 0; i < PROFILE_H__COUNT; i++)
        out->helpers[i] = -1;
    out->field_alloc_cursor = -1;
    snprintf(out->source, sizeof out->source, "%s", c.source);
    static const json_read_limits lim = {1u << 16, 16};
    cJSON *root = NULL;
    if (json_read_doc(json, len, &lim, c.source, &root, err) < 0) return -1;
    int rc = parse_top(&c, root, out);
    cJSON_Delete(root);
    return rc;
}

int profile_load_file(const char *path, emu_profile *out, ff_error *err)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    if (file_read(path, 0, PROFILE_MAX_FILE, &buf, &n, err) < 0) return -1;
    int rc = profile_parse((const char *)buf, n, path, out, err);
    free(buf);
    return rc;
}
