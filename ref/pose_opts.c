/*
 * ref/pose_opts.c: the pose options (docs/pose.md section 3) as data: the names
 * of every key and value from the lists in ref/pose.h, the text form
 * (parse, canonical print), one option at a time, and the enumerator over
 * the whole space. Pure functions; no allocation, no globals.
 */
#include "ref/pose.h"

#include <string.h>

#define NAME_(name, text) text,
#define KEY_NAMES_(name, field, type, text, shows, map)                                           \
    static const char *const field##_names[] = {map(NAME_)};
REF_POSE_KEY_MAP(KEY_NAMES_)
#undef KEY_NAMES_
static const char *const shows_names[] = {REF_POSE_SHOWS_MAP(NAME_)};
#undef NAME_

typedef struct key_info {
    const char *name;
    const char *const *values;
    unsigned count;
    ref_pose_shows shows;
} key_info;

#define KEY_INFO_(name, field, type, text, shows, map)                                             \
    {text, field##_names, sizeof field##_names / sizeof(char *), REF_SHOWS_##shows},
static const key_info keys[REF_POSE_KEY__COUNT] = {REF_POSE_KEY_MAP(KEY_INFO_)};
#undef KEY_INFO_

/* Key names fit the 32-bit set of keys seen while parsing. */
_Static_assert(REF_POSE_KEY__COUNT < 32, "a parse tracks the keys seen in 32 bits");

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

ref_pose_shows ref_pose_key_shows(ref_pose_key key)
{
    return (unsigned)key < REF_POSE_KEY__COUNT ? keys[key].shows : REF_SHOWS_NONE;
}

const char *ref_pose_shows_name(ref_pose_shows s)
{
    return (unsigned)s < REF_SHOWS__COUNT ? shows_names[s] : NULL;
}

int ref_pose_key_is_width(ref_pose_key key)
{
    const char *n = ref_pose_key_name(key);
    return n && strncmp(n, REF_POSE_WIDTH_ALL "-", sizeof REF_POSE_WIDTH_ALL) == 0;
}

const char *ref_pose_value_name(ref_pose_key key, unsigned v)
{
    if ((unsigned)key >= REF_POSE_KEY__COUNT || v >= keys[key].count) return NULL;
    return keys[key].values[v];
}

unsigned ref_pose_opts_get(const ref_pose_opts *o, ref_pose_key key)
{
    switch (key) {
#define GET_(name, field, type, text, shows, map)                                                              \
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
#define SET_(name, field, type, text, shows, map)                                                              \
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

/*
 * Appends s to buf (n bytes, *at used), always NUL-terminated. Returns -1
 * when s does not fit whole (what fits is written: list_names' messages
 * may be cut; ref_pose_opts_format never is).
 */
static int append(char *buf, size_t n, size_t *at, const char *s)
{
    size_t len = strlen(s);
    int fits = *at + len < n;
    if (*at + 1 >= n) return -1;
    if (len > n - 1 - *at) len = n - 1 - *at;
    memcpy(buf + *at, s, len);
    *at += len;
    buf[*at] = '\0';
    return fits ? 0 : -1;
}

char *ref_pose_opts_format(const ref_pose_opts *o, char *buf, size_t n)
{
    if (!buf || n == 0) return NULL;
    size_t at = 0;
    int bad = 0;
    buf[0] = '\0';
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++) {
        const char *v = ref_pose_value_name((ref_pose_key)k, ref_pose_opts_get(o, (ref_pose_key)k));
        if (k) bad |= append(buf, n, &at, ",");
        bad |= append(buf, n, &at, keys[k].name);
        bad |= append(buf, n, &at, "=");
        bad |= append(buf, n, &at, v ? v : "?");
    }
    if (bad) {
        buf[0] = '\0';
        return NULL;
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

/* The shorthand "width" is looked up as this pseudo key (bit 31 of the keys seen). */
#define WIDTH_ALL_BIT (1u << 31)

static int parse_item(const char *item, size_t len, ref_pose_opts *o, unsigned *seen,
                      int *width_all, ff_error *err)
{
    char list[256];
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
    int all = k < 0 && klen == strlen(REF_POSE_WIDTH_ALL) &&
              memcmp(item, REF_POSE_WIDTH_ALL, klen) == 0;
    if (k < 0 && !all) {
        list_names(REF_POSE_KEY__COUNT, list, sizeof list);
        return ff_error_set(err, FF_E_USAGE, NULL, -1,
                            "pose options: unknown key \"%.*s\" (keys: %s, or %s for every "
                            "width-* key)",
                            (int)klen, item, list, REF_POSE_WIDTH_ALL);
    }
    unsigned bit = all ? WIDTH_ALL_BIT : 1u << k;
    if (*seen & bit)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "pose options: key \"%.*s\" given twice",
                            (int)klen, item);
    *seen |= bit;
    unsigned vk = all ? (unsigned)REF_POSE_KEY_WIDTH_T : (unsigned)k;
    int v = find_name(eq + 1, vlen, keys[vk].values, keys[vk].count);
    if (v < 0) {
        list_names(vk, list, sizeof list);
        return ff_error_set(err, FF_E_USAGE, NULL, -1,
                            "pose options: unknown value \"%.*s\" for %.*s (one of %s)", (int)vlen,
                            eq + 1, (int)klen, item, list);
    }
    if (all)
        *width_all = v;
    else
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
    int width_all = -1;
    if (*text) {
        for (const char *p = text;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            if (parse_item(p, len, &o, &seen, &width_all, err) < 0) return -1;
            if (!comma) break;
            p = comma + 1;
        }
    }
    for (unsigned k = 0; width_all >= 0 && k < REF_POSE_KEY__COUNT; k++)
        if (ref_pose_key_is_width((ref_pose_key)k) && !(seen & (1u << k)))
            ref_pose_opts_set(&o, (ref_pose_key)k, (unsigned)width_all);
    *out = o;
    return 0;
}
