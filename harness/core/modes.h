/*
 * harness/core/modes.h: the four decoding modes, as rows: the name used in
 * traces, reports and on the command line, and the AnimCmd flag bits set
 * before StartClip; and the entity level's statuses, as rows.
 */
#ifndef FF8_HARNESS_CORE_MODES_H
#define FF8_HARNESS_CORE_MODES_H

#include <stddef.h>
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
/* The word mode_parse_list takes for every mode. */
#define MODE_ALL_WORD "all"
/*
 * Parses "normal,slow" or "all" into a bit mask (bit i = mode i).
 * Returns 0, or -1 with the offending word copied into bad.
 */
int mode_parse_list(const char *text, unsigned *mask, char *bad, unsigned bad_size);
/*
 * The words mode_parse_list takes, as a message lists them: every mode's
 * name, then MODE_ALL_WORD ("normal, slow, fast, slow+fast, all"), into buf
 * (n bytes, cut to fit). Returns buf.
 */
char *mode_list_words(char *buf, size_t n);
/* How many modes a mask holds (bit i = mode i). */
unsigned mode_count(unsigned mask);

/*
 * The entity level's statuses: the entity's status byte (+9: 0x80 Slow,
 * 0x40 Haste) through which the game's QueueAnimation (0x509520) reaches a
 * speed, given a valid sequence pair and +2 bit 3 clear (docs/pose.md section
 * 5), and the mode the public notes say it turns each into (Slow wins over
 * Haste). The entity level runs the modes some status reaches, each mode's
 * clips under the first status that reaches it, the AnimCmd flags also
 * preset to that mode's so that an engine which does not read the status
 * runs at the same speed; every status is also probed on its own (no
 * preset flags) and the flags it left recorded. slow+fast is reached by
 * none (the routine sets SLOW or FAST, never both): it stays a frame-level
 * mode.
 */
#define ENTITY_STATUS_MAP(XX)                                                  \
    XX(NORMAL, "normal", 0x00, MODE_NORMAL)                                    \
    XX(SLOW, "slow", 0x80, MODE_SLOW)                                          \
    XX(HASTE, "haste", 0x40, MODE_FAST)                                        \
    XX(SLOW_HASTE, "slow+haste", 0xC0, MODE_SLOW)

typedef enum entity_status_id {
#define ENTITY_STATUS_ENUM(id, name, status, mode) ENTITY_STATUS_##id,
    ENTITY_STATUS_MAP(ENTITY_STATUS_ENUM)
#undef ENTITY_STATUS_ENUM
        ENTITY_STATUS__COUNT
} entity_status_id;

const char *entity_status_name(entity_status_id s);
/* The status byte (entity +9). */
uint8_t entity_status_byte(entity_status_id s);
/* The mode the game's QueueAnimation turns the status into. */
mode_id entity_status_mode(entity_status_id s);
/* The first status that reaches mode m (the one its entity clips run under); -1: none. */
int entity_status_of_mode(mode_id m);
/* The modes some status reaches (bit i = mode i): what the entity level can run. */
unsigned mode_entity_mask(void);
/* Why the entity level does not run mode m (a sentence), NULL when some status reaches it. */
const char *mode_entity_why_not(mode_id m);

#endif
