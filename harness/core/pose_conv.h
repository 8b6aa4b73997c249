/*
 * harness/core/pose_conv.h: what the convention search of the pose level
 * found, as plain data for report.json: every candidate tried with the
 * frames and cells it matched on the sampled states, the convention chosen
 * (or pinned by the profile, or given with --pose-options), and for each
 * choice whether evidence or the default decided it; for the width of the
 * sums, also where the comparison decided it when the search could not.
 *
 * No logic here: harness/run/pose_search.c and pose_width.c fill it, the
 * report writers read it.
 */
#ifndef FF8_HARNESS_CORE_POSE_CONV_H
#define FF8_HARNESS_CORE_POSE_CONV_H

#include <stdint.h>

#include "harness/core/modes.h"
#include "ref/pose.h"

/*
 * Candidates of one search stage: the product of the value counts of the
 * keys that show in `shows` (ref/pose.h's REF_POSE_KEY_MAP rows).
 */
#define POSE_CONV_PROD_(shows)                                                                     \
    (1u REF_POSE_KEY_MAP(POSE_CONV_PROD_KEY_##shows##_))
#define POSE_CONV_PROD_ONE_(key_shows, want, map) *(REF_SHOWS_##key_shows == REF_SHOWS_##want ? (0 map(REF_POSE_COUNT_)) : 1u)
#define POSE_CONV_PROD_KEY_CELLS_(name, field, type, text, shows, map) POSE_CONV_PROD_ONE_(shows, CELLS, map)
#define POSE_CONV_PROD_KEY_T_(name, field, type, text, shows, map) POSE_CONV_PROD_ONE_(shows, T, map)
#define POSE_CONV_PROD_KEY_SCALE_(name, field, type, text, shows, map) POSE_CONV_PROD_ONE_(shows, SCALE, map)
#define POSE_CONV_PROD_KEY_SUMS_(name, field, type, text, shows, map) POSE_CONV_PROD_ONE_(shows, SUMS, map)
/* Rounds of the joint stage (harness/run/pose_search.c). */
#define POSE_CONV_JOINT_ROUNDS 2
/*
 * Every candidate a search can try: one stage per kind of choice, the sums'
 * stage twice (again after a joint stage), the joint rounds (the cells'
 * keys, then the translations' and scale's together) and the final
 * combination. A search that would pass it is an internal error, never a
 * silent drop.
 */
#define POSE_CONV_MAX_CANDIDATES                                                                   \
    (POSE_CONV_PROD_(CELLS) + POSE_CONV_PROD_(T) + POSE_CONV_PROD_(SCALE) +                       \
     2 * POSE_CONV_PROD_(SUMS) +                                                                   \
     POSE_CONV_JOINT_ROUNDS * (POSE_CONV_PROD_(CELLS) + POSE_CONV_PROD_(T) * POSE_CONV_PROD_(SCALE)) + \
     1)

typedef struct pose_candidate {
    char opts[REF_POSE_OPTS_TEXT_MAX];
    char stage[16];        /* ref_pose_shows' name, "joint" or "final" */
    uint64_t frames;       /* sampled states matched whole at this stage */
    uint64_t frames_total; /* states the stage looked at */
    uint64_t values;       /* cells (or translations) equal */
    uint64_t values_total;
} pose_candidate;

/* How the reference's convention was decided. */
typedef enum pose_conv_source {
    POSE_CONV_NONE,    /* no pose level */
    POSE_CONV_GIVEN,   /* --pose-options SPEC */
    POSE_CONV_PROFILE, /* the profile pins it */
    POSE_CONV_SEARCH,  /* found by the search on the original */
} pose_conv_source;

/*
 * What decided one choice (one key of ref/pose.h's options), one list:
 * enum, report name.
 *   given       --pose-options (not this run's evidence)
 *   pinned      the executable's profile (not this run's evidence)
 *   evidence    every other value matches fewer sampled values
 *   default     another value matches as many: the sample cannot tell them
 *               apart, the first value of the list was kept
 *   joint       another value matches more of this choice's own states; it
 *               was decided jointly on every sampled state
 *   comparison  (a width site) the search could not tell; the first state
 *               of the comparison that told them apart decided it
 *   undecided   no state of the corpus tells the values apart (a width
 *               site), or no input can (a choice that shows in nothing), so
 *               the verdicts are the same under either
 */
#define POSE_BASIS_MAP(XX)                                                                         \
    XX(GIVEN, "given")                                                                             \
    XX(PINNED, "pinned")                                                                           \
    XX(EVIDENCE, "evidence")                                                                       \
    XX(DEFAULT, "default")                                                                         \
    XX(JOINT, "joint")                                                                             \
    XX(COMPARISON, "comparison")                                                                   \
    XX(UNDECIDED, "undecided")
#define POSE_BASIS_ENUM_(name, text) POSE_BASIS_##name,
typedef enum pose_basis { POSE_BASIS_MAP(POSE_BASIS_ENUM_) POSE_BASIS__COUNT } pose_basis;

typedef struct pose_key_decision {
    pose_basis basis;
    char note[120]; /* "" or the values that tie, the states that showed it, ... */
} pose_key_decision;

/* Where the comparison decided a width site: the first state, in corpus order, that told
 * 32-bit from 64-bit at that site and agreed with the width taken. */
typedef struct pose_width_at {
    char file[64];
    int32_t clip, tick;
    mode_id mode;
    char field[40];           /* the first value the widths disagree on */
    int32_t ref32, ref64, orig; /* its value under each width, and the original's */
} pose_width_at;

/*
 * A convention given (--pose-options) that the executable's poses contradict:
 * after a run of the executable with pose mismatches, the search (on a
 * sample of its own, apart from the run's convention) finds one that matches
 * more sampled states whole. The options that differ, each side's values in
 * ref/pose.h's text form ("order=yxz"), and the states each matches.
 */
typedef struct pose_contradiction {
    int contradicted;                        /* 0: not checked, or not contradicted */
    char given[REF_POSE_OPTS_TEXT_MAX];      /* the given values of the options that differ */
    char found[REF_POSE_OPTS_TEXT_MAX];      /* the executable's values of those options */
    char convention[REF_POSE_OPTS_TEXT_MAX]; /* the given one with found's values: whole */
    uint64_t states, states_found, states_given; /* sampled; matched whole by found, by given */
    double seconds;                          /* the check's sample and search */
} pose_contradiction;

typedef struct pose_conv {
    pose_conv_source source;
    char chosen[REF_POSE_OPTS_TEXT_MAX];
    /* the search (POSE_CONV_SEARCH) */
    unsigned ncand;
    pose_candidate cand[POSE_CONV_MAX_CANDIDATES];
    uint64_t states, scale_states, faulted; /* sampled states; with flag bit0; the original faulted */
    uint64_t overrun_states; /* scale-path states past the engine's 80-slot arrays, left out */
    int all_match;                          /* the chosen matches every sampled state */
    /* when not all_match: the first state the chosen misses, and where */
    char first_file[64];
    int32_t first_clip, first_tick;
    mode_id first_mode;
    char first_field[40];
    int32_t first_ref, first_orig;
    char note[200]; /* "" or what the sample could not decide */
    double seconds;
    /* the run: poses of the original emulated (BuildBoneMatrices and both world calls)
     * and replayed from a worker's memo (the same input seen before) */
    uint64_t states_emulated, states_replayed;
    /* what decided each choice, in ref/pose.h's key order */
    pose_key_decision keys[REF_POSE_KEY__COUNT];
    /* sampled states of all kinds (the extreme ones among them) that tell apart
     * the values of each key that shows only in sums (the width sites); and of
     * any of them */
    uint64_t extreme_states, width_states;
    uint64_t telling[REF_POSE_KEY__COUNT];
    /* per width site left to the comparison (width_open): clips that told its
     * values apart, and of those after the decision, the ones whose original
     * agreed and the ones that contradicted it (mismatches); clips met before
     * any decision whose original agreed with neither */
    int width_open[REF_POSE_KEY__COUNT];
    uint64_t width_clips[REF_POSE_KEY__COUNT], width_agreed[REF_POSE_KEY__COUNT];
    uint64_t width_contradicted[REF_POSE_KEY__COUNT], width_neither[REF_POSE_KEY__COUNT];
    pose_width_at width_at[REF_POSE_KEY__COUNT]; /* basis comparison */
    pose_contradiction contradicted; /* POSE_CONV_GIVEN with pose mismatches */
} pose_conv;

const char *pose_conv_source_name(pose_conv_source s);
/* "evidence", "default", ...; "?" when out of range. */
const char *pose_basis_name(pose_basis b);

#endif
