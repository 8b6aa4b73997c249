/*
 * harness/core/levels.c: level names from RUN_LEVEL_MAP, and the
 * --levels list parsed by them.
 */
#include "harness/core/levels.h"

#include <stdio.h>
#include <string.h>

static const char *const names[] = {
#define RUN_LEVEL_NAME(id, name) name,
    RUN_LEVEL_MAP(RUN_LEVEL_NAME)
#undef RUN_LEVEL_NAME
};

const char *run_level_name(run_level l)
{
    return (unsigned)l < RUN_LEVEL__COUNT ? names[l] : "?";
}

int run_level_from_name(const char *name)
{
    for (int i = 0; i < RUN_LEVEL__COUNT; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

int run_level_parse_list(const char *text, unsigned *mask)
{
    unsigned m = 0;
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char word[16];
        if (len >= sizeof word) return -1;
        memcpy(word, p, len);
        word[len] = '\0';
        int l = len ? run_level_from_name(word) : -2; /* empty words are skipped */
        if (l == -1) return -1;
        if (l >= 0) m |= 1u << l;
        if (!comma) break;
        p = comma + 1;
    }
    if (!m) return -1;
    *mask = m;
    return 0;
}

char *run_level_list_words(unsigned mask, char *buf, size_t n)
{
    size_t at = 0;
    if (n) buf[0] = '\0';
    for (int l = 0; l < RUN_LEVEL__COUNT && at < n; l++) {
        if (!(mask >> l & 1u)) continue;
        int k = snprintf(buf + at, n - at, "%s%s", at ? ", " : "", names[l]);
        if (k < 0) break;
        at += (size_t)k;
    }
    return buf;
}
