/*
 * harness/core/modes.h: the four decoding modes, as rows: the name used in
 * traces, reports and on the command line, and the AnimCmd flag bits set
 * before StartClip.
 */
#ifndef FF8_HARNESS_CORE_MODES_H
#define FF8_HARNESS_CORE_MODES_H

#include <stdint.h>

#define MODE_MAP(XX)                                                           \
    XX(NORMAL, "normal", 0x00)                                                 \
    XX(SLOW, "slow", 0x01)                                                     \
    XX(FAST, "fast", 0x02)                                                     \
    XX(SLOW_FAST, "slow+fast", 0x03)

typedef enum mode_id {
#define MODE_ENUM(id, name, flags) MODE_##id,
    MODE_MAP(MODE_ENUM)
#undef MODE_ENUM
        MODE__COUNT
} mode_id;

#define MODE_ALL ((1u << MODE__COUNT) - 1)

const char *mode_name(mode_id m);
uint8_t mode_flags(mode_id m);
/* "slow" -> MODE_SLOW; -1 when unknown. */
int mode_from_name(const char *name);
/*
 * Parses "normal,slow" or "all" into a bit mask (bit i = mode i).
 * Returns 0, or -1 with the offending word copied into bad.
 */
int mode_parse_list(const char *text, unsigned *mask, char *bad, unsigned bad_size);
/* How many modes a mask holds (bit i = mode i). */
unsigned mode_count(unsigned mask);

#endif
