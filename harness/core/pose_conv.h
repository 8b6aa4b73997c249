/*
 * harness/core/pose_conv.h: what the convention search of the pose level
 * found, as plain data for report.json: every candidate tried with the
 * frames and cells it matched on the sampled states, and the convention
 * chosen (or pinned by the profile, or given with --pose-options).
 *
 * No logic here: harness/run/pose_search.c fills it, the report writers
 * read it.
 */
#ifndef FF8_HARNESS_CORE_POSE_CONV_H
#define FF8_HARNESS_CORE_POSE_CONV_H

#include <stdint.h>

#include "harness/core/modes.h"
#include "ref/pose.h"

#define POSE_CONV_MAX_CANDIDATES 224

typedef struct pose_candidate {
    char opts[REF_POSE_OPTS_TEXT_MAX];
    char stage[16];        /* "cells", "translations", "scale", "joint", "final" */
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

typedef struct pose_conv {
    pose_conv_source source;
    char chosen[REF_POSE_OPTS_TEXT_MAX];
    /* the search (POSE_CONV_SEARCH) */
    unsigned ncand;
    pose_candidate cand[POSE_CONV_MAX_CANDIDATES];
    uint64_t states, scale_states, faulted; /* sampled states; with flag bit0; the original faulted */
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
} pose_conv;

const char *pose_conv_source_name(pose_conv_source s);

#endif
