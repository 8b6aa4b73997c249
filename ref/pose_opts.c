/*
 * ref/pose_opts.c: the pose options (POSE.md section 3) as data: the names
 * of every key and value from the lists in ref/pose.h, the text form
 * (parse, canonical print), one option at a time, and the enumerator over
 * the whole space. Pure functions; no allocation, no globals.
 */
#include "ref/pose.h"

#include <string.h>

#define NAME_(name, text) text,
static const char *const order_names[] = {REF_POSE_ORDER_MAP(NAME_)};
static const char *const trig_names[] = {REF_POSE_TRIG_MAP(NAME_)};
static const char *const step_names[] = {REF_POSE_STEP_MAP(NAME_)};
static const char *const offset_names[] = {REF_POSE_OFFSET_MAP(NAME_)};
static const char *const length_names[] = {REF_POSE_LENGTH_MAP(NAME_)};
static const char *const scale_names[] = {REF_POSE_SCALE_MAP(NAME_)};
static const char *const width_names[] = {REF_POSE_WIDTH_MAP(NAME_)};
#undef NAME_

typedef struct key_info {
    const char *name;
    const char *const *values;
    unsigned count;
} key_info;

#define KEY_INFO_(name, field, type, text)                                                         \
    {text, field##_names, sizeof field##_names / sizeof(char *)},
static const key_info keys[REF_POSE_KEY__COUNT] = {REF_POSE_KEY_MAP(KEY_INFO_)};
#undef KEY_INFO_

/* The size of the option space, from the lists. */
#define SPACE_                                                                                     \
    ((unsigned)REF_ORDER__COUNT * REF_TRIG__COUNT * REF_STEP__COUNT * REF_OFFSET__COUNT *          \
     REF_LENGTH__COUNT * REF_SCALE__COUNT * REF_WIDTH__COUNT)
_Static_assert(SPACE_ == REF_POSE_OPTS_COUNT,
               "REF_POSE_OPTS_COUNT is the product of the value counts");

void ref_pose_opts_default(ref_pose_opts *o)
{
    memset(o, 0, sizeof *o);
}

const char *ref_pose_key_name(ref_pose_key key)
{
    return (unsigned)key < REF_POSE_KEY__COUNT ? keys[key].name : NULL;
}

unsigned ref_pose_value_count(ref_pose_key key)
{
    return (unsigned)key < REF_POSE_KEY__COUNT ? keys[key].count : 0;
}

const char *ref_pose_value_name(ref_pose_key key, unsigned v)
{
    if ((unsigned)key >= REF_POSE_KEY__COUNT || v >= keys[key].count) return NULL;
    return keys[key].values[v];
}

unsigned ref_pose_opts_get(const ref_pose_opts *o, ref_pose_key key)
{
    switch (key) {
#define GET_(name, field, type, text)                                                              \
    case REF_POSE_KEY_##name:                                                                      \
        return (unsigned)o->field;
        REF_POSE_KEY_MAP(GET_)
#undef GET_
    default:
        return 0;
    }
}

int ref_pose_opts_set(ref_pose_opts *o, ref_pose_key key, unsigned v)
{
    if (v >= ref_pose_value_count(key)) return -1;
    switch (key) {
#define SET_(name, field, type, text)                                                              \
    case REF_POSE_KEY_##name:                                                                      \
        o->field = (type)v;                                                                        \
        return 0;
        REF_POSE_KEY_MAP(SET_)
#undef SET_
    default:
        return -1;
    }
}

int ref_pose_opts_valid(const ref_pose_opts *o)
{
    if (!o) return 0;
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++)
        if (ref_pose_opts_get(o, (ref_pose_key)k) >= keys[k].count) return 0;
    return 1;
}

int ref_pose_opts_at(unsigned index, ref_pose_opts *o)
{
    if (index >= REF_POSE_OPTS_COUNT) return -1;
    ref_pose_opts r;
    ref_pose_opts_default(&r);
    for (unsigned k = REF_POSE_KEY__COUNT; k-- > 0;) {
        ref_pose_opts_set(&r, (ref_pose_key)k, index % keys[k].count);
        index /= keys[k].count;
    }
    *o = r;
    return 0;
}

unsigned ref_pose_opts_index(const ref_pose_opts *o)
{
    if (!ref_pose_opts_valid(o)) return REF_POSE_OPTS_COUNT;
    unsigned index = 0;
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++)
        index = index * keys[k].count + ref_pose_opts_get(o, (ref_pose_key)k);
    return index;
}

/* Appends s to buf (n bytes, *at used), truncating, always NUL-terminated. */
static void append(char *buf, size_t n, size_t *at, const char *s)
{
    size_t len = strlen(s);
    if (*at + 1 >= n) return;
    if (len > n - 1 - *at) len = n - 1 - *at;
    memcpy(buf + *at, s, len);
    *at += len;
    buf[*at] = '\0';
}

char *ref_pose_opts_format(const ref_pose_opts *o, char *buf, size_t n)
{
    if (!buf || n == 0) return buf;
    size_t at = 0;
    buf[0] = '\0';
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++) {
        const char *v = ref_pose_value_name((ref_pose_key)k, ref_pose_opts_get(o, (ref_pose_key)k));
        if (k) append(buf, n, &at, ",");
        append(buf, n, &at, keys[k].name);
        append(buf, n, &at, "=");
        append(buf, n, &at, v ? v : "?");
    }
    return buf;
}

/* "a, b or c" of key k's values (or of the key names when k is the count). */
static void list_names(unsigned k, char *buf, size_t n)
{
    size_t at = 0;
    unsigned count = k < REF_POSE_KEY__COUNT ? keys[k].count : REF_POSE_KEY__COUNT;
    buf[0] = '\0';
    for (unsigned v = 0; v < count; v++) {
        if (v) append(buf, n, &at, v + 1 == count ? " or " : ", ");
        append(buf, n, &at, k < REF_POSE_KEY__COUNT ? keys[k].values[v] : keys[v].name);
    }
}

/* Index of the len-byte name s in names (count of them), or -1. */
static int find_name(const char *s, size_t len, const char *const *names, unsigned count)
{
    for (unsigned i = 0; i < count; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0) return (int)i;
    return -1;
}

static int parse_item(const char *item, size_t len, ref_pose_opts *o, unsigned *seen, ff_error *err)
{
    char list[128];
    const char *eq = memchr(item, '=', len);
    if (len == 0)
        return ff_error_set(err, FF_E_USAGE, NULL, -1,
                            "pose options: empty item (items are key=value separated by commas)");
    if (!eq)
        return ff_error_set(err, FF_E_USAGE, NULL, -1,
                            "pose options: item \"%.*s\" is not key=value", (int)len, item);
    const char *names[REF_POSE_KEY__COUNT];
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++)
        names[k] = keys[k].name;
    size_t klen = (size_t)(eq - item), vlen = len - klen - 1;
    int k = find_name(item, klen, names, REF_POSE_KEY__COUNT);
    if (k < 0) {
        list_names(REF_POSE_KEY__COUNT, list, sizeof list);
        return ff_error_set(err, FF_E_USAGE, NULL, -1,
                            "pose options: unknown key \"%.*s\" (keys: %s)", (int)klen, item, list);
    }
    if (*seen & (1u << k))
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "pose options: key \"%s\" given twice",
                            keys[k].name);
    *seen |= 1u << k;
    int v = find_name(eq + 1, vlen, keys[k].values, keys[k].count);
    if (v < 0) {
        list_names((unsigned)k, list, sizeof list);
        return ff_error_set(err, FF_E_USAGE, NULL, -1,
                            "pose options: unknown value \"%.*s\" for %s (one of %s)", (int)vlen,
                            eq + 1, keys[k].name, list);
    }
    ref_pose_opts_set(o, (ref_pose_key)k, (unsigned)v);
    return 0;
}

int ref_pose_opts_parse(const char *text, ref_pose_opts *out, ff_error *err)
{
    if (!text || !out)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "pose options: no text to parse");
    ref_pose_opts o;
    ref_pose_opts_default(&o);
    unsigned seen = 0;
    if (*text) {
        for (const char *p = text;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            if (parse_item(p, len, &o, &seen, err) < 0) return -1;
            if (!comma) break;
            p = comma + 1;
        }
    }
    *out = o;
    return 0;
}
