/*
 * harness/core/modes.c: mode names and flag bits from MODE_MAP.
 */
#include "harness/core/modes.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    uint8_t flags;
} modes[] = {
#define MODE_ROW(id, name, flags) {name, flags},
    MODE_MAP(MODE_ROW)
#undef MODE_ROW
};

const char *mode_name(mode_id m)
{
    return (unsigned)m < MODE__COUNT ? modes[m].name : "?";
}

uint8_t mode_flags(mode_id m)
{
    return (unsigned)m < MODE__COUNT ? modes[m].flags : 0;
}

int mode_from_name(const char *name)
{
    for (int i = 0; i < MODE__COUNT; i++)
        if (strcmp(modes[i].name, name) == 0) return i;
    return -1;
}

int mode_parse_list(const char *text, unsigned *mask, char *bad, unsigned bad_size)
{
    unsigned m = 0;
    const char *p = text;
    if (bad_size) bad[0] = '\0';
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char word[32];
        if (len == 0 || len >= sizeof word) {
            if (bad_size) snprintf(bad, bad_size, "%.*s", (int)(len < 31 ? len : 31), p);
            return -1;
        }
        memcpy(word, p, len);
        word[len] = '\0';
        if (strcmp(word, "all") == 0) {
            m |= MODE_ALL;
        } else {
            int id = mode_from_name(word);
            if (id < 0) {
                if (bad_size) snprintf(bad, bad_size, "%s", word);
                return -1;
            }
            m |= 1u << id;
        }
        if (!comma) break;
        p = comma + 1;
    }
    *mask = m;
    return 0;
}

unsigned mode_count(unsigned mask)
{
    unsigned n = 0;
    for (int m = 0; m < MODE__COUNT; m++)
        n += (mask >> m) & 1u;
    return n;
}
