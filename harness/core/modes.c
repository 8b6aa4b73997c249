/*
 * harness/core/modes.c: mode names and flag bits from MODE_MAP, the entity
 * level's statuses from ENTITY_STATUS_MAP.
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
        if (strcmp(word, MODE_ALL_WORD) == 0) {
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

char *mode_list_words(char *buf, size_t n)
{
    size_t at = 0;
    if (n) buf[0] = '\0';
    for (int m = 0; m <= MODE__COUNT && at < n; m++) {
        int k = snprintf(buf + at, n - at, "%s%s", m ? ", " : "",
                         m < MODE__COUNT ? modes[m].name : MODE_ALL_WORD);
        if (k < 0) break;
        at += (size_t)k;
    }
    return buf;
}

unsigned mode_count(unsigned mask)
{
    unsigned n = 0;
    for (int m = 0; m < MODE__COUNT; m++)
        n += (mask >> m) & 1u;
    return n;
}

static const struct {
    const char *name;
    uint8_t status;
    mode_id mode;
} statuses[] = {
#define ENTITY_STATUS_ROW(id, name, status, mode) {name, status, mode},
    ENTITY_STATUS_MAP(ENTITY_STATUS_ROW)
#undef ENTITY_STATUS_ROW
};

const char *entity_status_name(entity_status_id s)
{
    return (unsigned)s < ENTITY_STATUS__COUNT ? statuses[s].name : "?";
}

uint8_t entity_status_byte(entity_status_id s)
{
    return (unsigned)s < ENTITY_STATUS__COUNT ? statuses[s].status : 0;
}

mode_id entity_status_mode(entity_status_id s)
{
    return (unsigned)s < ENTITY_STATUS__COUNT ? statuses[s].mode : MODE_NORMAL;
}

int entity_status_of_mode(mode_id m)
{
    for (int s = 0; s < ENTITY_STATUS__COUNT; s++)
        if (statuses[s].mode == m) return s;
    return -1;
}

unsigned mode_entity_mask(void)
{
    unsigned mask = 0;
    for (int s = 0; s < ENTITY_STATUS__COUNT; s++)
        mask |= 1u << statuses[s].mode;
    return mask;
}

const char *mode_entity_why_not(mode_id m)
{
    if ((unsigned)m >= MODE__COUNT || (mode_entity_mask() >> m) & 1u) return NULL;
    return "QueueAnimation sets SLOW or FAST from the entity's status, never both: no entity "
           "reaches this mode, which stays a frame-level mode";
}
