/*
 * corpus/names.c: a name of its own for every archive entry (names.h).
 *
 * Must not print or exit; the set of names lives only during the call.
 */
#include "corpus/names.h"

#include "common/path.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A set of names ignoring ASCII case (open addressing; the strings are the caller's). */
typedef struct nameset {
    const char **slot;
    size_t cap;
} nameset;

static uint64_t hash_ci(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a over lower-cased bytes */
    for (; *s; s++) h = (h ^ (uint8_t)tolower((unsigned char)*s)) * 1099511628211ull;
    return h;
}

/* 1 when name is in the set; else adds it when add is set, and returns 0. */
static int nameset_has(nameset *ns, const char *name, int add)
{
    size_t i = (size_t)hash_ci(name) & (ns->cap - 1);
    for (; ns->slot[i]; i = (i + 1) & (ns->cap - 1))
        if (!strcasecmp(ns->slot[i], name)) return 1;
    if (add) ns->slot[i] = name;
    return 0;
}

/* "stem~k.ext" (the extension is what follows the last dot, when it is not the first byte). */
static char *suffixed(const char *base, unsigned k)
{
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) dot = base + strlen(base);
    int n = snprintf(NULL, 0, "%.*s~%u%s", (int)(dot - base), base, k, dot);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (s) snprintf(s, (size_t)n + 1, "%.*s~%u%s", (int)(dot - base), base, k, dot);
    return s;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* The first "stem~k.ext" (k from 2) no entry has, added to the set; NULL when out of memory. */
static char *free_name(nameset *ns, const char *base)
{
    for (unsigned k = 2;; k++) {
        char *name = suffixed(base, k);
        if (!name || !nameset_has(ns, name, 1)) return name;
        free(name);
    }
}

int names_unique(const arc *a, const char *path, const char *lang, char ***names,
                 uint8_t **renamed, size_t *nrenamed, ff_error *err)
{
    size_t n = arc_count(a);
    nameset ns = {NULL, 16};
    while (ns.cap < 4 * (n + 1)) ns.cap *= 2;
    ns.slot = calloc(ns.cap, sizeof *ns.slot);
    char **nm = calloc(n ? n : 1, sizeof *nm);
    char **base = calloc(n ? n : 1, sizeof *base);
    uint8_t *dup = calloc(n ? n : 1, 1);
    int rc = ns.slot && nm && dup && base ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const char *p = arc_get(a, i)->path;
        size_t len = strlen(p) + 1;
        base[i] = malloc(len);
        if (!base[i]) rc = -1;
        else names_match_name(p, lang, base[i], len);
    }
    /* Every base name is taken first, so a generated name never takes a real one. */
    for (size_t i = 0; i < n && rc == 0; i++)
        dup[i] = (uint8_t)nameset_has(&ns, base[i], 1);
    size_t count = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        nm[i] = dup[i] ? free_name(&ns, base[i]) : dup_str(base[i]);
        if (!nm[i]) rc = -1;
        count += dup[i];
    }
    free(ns.slot);
    for (size_t i = 0; base && i < n; i++) free(base[i]);
    free(base);
    if (rc < 0) {
        for (size_t i = 0; nm && i < n; i++) free(nm[i]);
        free(nm);
        free(dup);
        return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory for entry names");
    }
    *names = nm;
    *renamed = dup;
    *nrenamed = count;
    return 0;
}

int names_match_name(const char *path, const char *lang, char *out, size_t n)
{
    const char *base = path_base(path);
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) dot = base + strlen(base);
    size_t k = lang ? strlen(lang) : 0, stem = (size_t)(dot - base);
    if (k && stem > k + 1 && base[stem - k - 1] == '_' &&
        !strncasecmp(base + stem - k, lang, k)) {
        snprintf(out, n, "%.*s%s", (int)(stem - k - 1), base, dot);
        return 1;
    }
    snprintf(out, n, "%s", base);
    return 0;
}
