/*
 * harness/core/levels.h: the levels a run compares at (docs/design.md,
 * "Levels"), as rows: the name used on the command line (--levels) and in
 * report.json's run.levels, in the order reports list them. The only list
 * of them; what each level does is harness/run's.
 */
#ifndef FF8_HARNESS_CORE_LEVELS_H
#define FF8_HARNESS_CORE_LEVELS_H

#include <stddef.h>

#define RUN_LEVEL_MAP(XX)                                                                          \
    XX(FRAME, "frame")                                                                             \
    XX(POSE, "pose")                                                                               \
    XX(ENTITY, "entity")                                                                           \
    XX(LEAF, "leaf")

typedef enum run_level {
#define RUN_LEVEL_ENUM(id, name) RUN_LEVEL_##id,
    RUN_LEVEL_MAP(RUN_LEVEL_ENUM)
#undef RUN_LEVEL_ENUM
        RUN_LEVEL__COUNT
} run_level;

/* "frame"; "?" out of range. */
const char *run_level_name(run_level l);
/* "pose" -> RUN_LEVEL_POSE; -1 when unknown. */
int run_level_from_name(const char *name);
/*
 * Parses "frame,pose" into a bit mask (bit i = level i), empty words
 * skipped. Returns 0, or -1 for an unknown word or no level at all (*mask
 * unchanged).
 */
int run_level_parse_list(const char *text, unsigned *mask);
/* Every level's bit (bit i = level i). */
#define RUN_LEVELS_ALL ((1u << RUN_LEVEL__COUNT) - 1u)
/* The names of the levels in mask as a message lists them ("frame, pose, entity,
 * leaf" for RUN_LEVELS_ALL) into buf (n bytes, cut to fit). Returns buf. */
char *run_level_list_words(unsigned mask, char *buf, size_t n);

#endif
