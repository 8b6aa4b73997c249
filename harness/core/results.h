/*
 * harness/core/results.h: what a run produces, as plain data: one record per
 * (file, model, clip, mode) at the frame level, one per (entity, clip, mode)
 * at the entity level, one per routine at the leaf level, and the files of
 * the corpus with their manifest entries. Report
 * writers read only this (through report.json) and never recompute it.
 */
#ifndef FF8_HARNESS_CORE_RESULTS_H
#define FF8_HARNESS_CORE_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "corpus/manifest.h"
#include "emu/emu.h"
#include "emu/fault.h"
#include "harness/core/compare.h"
#include "harness/core/modes.h"
#include "harness/core/pose_conv.h"
#include "ref/dat.h"
#include "common/error.h"

/* status, JSON name */
#define RES_STATUS_MAP(XX)                                                     \
    XX(MATCH, "match")                                                         \
    XX(MISMATCH, "mismatch")                                                   \
    XX(FAULT, "fault")                                                         \
    XX(BAD_INPUT, "bad_input")                                                 \
    XX(NOT_RUN, "not_run")

typedef enum res_status {
#define RES_STATUS_ENUM(id, name) RES_##id,
    RES_STATUS_MAP(RES_STATUS_ENUM)
#undef RES_STATUS_ENUM
        RES__COUNT
} res_status;

/* Where the original's side of a clip came from. */
#define RES_SOURCE_MAP(XX)                                                     \
    XX(NONE, "none")                                                           \
    XX(EMULATED, "emulated")                                                   \
    XX(SHARED, "deduplicated")                                                 \
    XX(CACHE, "cache")                                                         \
    XX(TRACES, "traces")

typedef enum res_source {
#define RES_SOURCE_ENUM(id, name) RES_SRC_##id,
    RES_SOURCE_MAP(RES_SOURCE_ENUM)
#undef RES_SOURCE_ENUM
        RES_SRC__COUNT
} res_source;

const char *res_status_name(res_status s);
const char *res_source_name(res_source s);

#define RES_STREAM_BYTES 16
#define RES_SERIES_MAX 1024

/* The channel that diverged, over the whole clip, for plots. */
typedef struct res_series {
    size_t n;             /* ticks shown (the longer side's) */
    size_t ref_n, orig_n; /* ticks each side has */
    int32_t *ref, *orig;
} res_series;

/* A posed skeleton at one tick, both sides, for the stick figure of a pose group. */
typedef struct res_figure {
    unsigned bones;  /* 0: no figure */
    unsigned bone;   /* the diverging bone */
    int16_t *parent; /* bones entries (-1: root) */
    int32_t *ref, *orig; /* bones x 3 joint positions (the bones' t) */
} res_figure;

typedef struct clip_result {
    uint32_t file; /* index into run_results.files */
    int32_t clip;  /* -1: the whole file (bad input before any clip) */
    mode_id mode;
    res_status status;
    res_source source;
    uint32_t ref_ticks, orig_ticks;
    uint32_t frames; /* the clip's frame byte */
    /* MISMATCH */
    cmp_divergence div;
    int x87_limit;            /* a pose value off by one within the x87 emulation limit */
    int group;                /* index into run_results.groups */
    uint64_t stream_off;      /* file offset of stream[0] */
    uint8_t stream_len;
    uint8_t stream[RES_STREAM_BYTES];
    uint64_t cursor_file_off; /* file offset of the cursor byte at the divergence */
    /* FAULT (heap) */
    emu_fault *fault;
    /* BAD_INPUT (heap) */
    ff_error *error;
} clip_result;

typedef struct leaf_case {
    uint64_t index; /* case number: cases are generated from (seed, index) */
    uint8_t buf[8]; /* bytes at the cursor */
    int32_t bit;
    int16_t n;      /* bitReader width */
    int16_t ref_ax, orig_ax;
    int64_t ref_pos, orig_pos;
    int32_t ref_bit, orig_bit;
} leaf_case;

typedef struct leaf_result {
    char routine[32];
    uint64_t calls, mismatches, faults;
    int have_first;
    leaf_case first;      /* first mismatch, in case order */
    emu_fault *fault;     /* fault of the first faulting case (heap) */
    uint64_t fault_index; /* ... and its case number */
    int group;
} leaf_result;

/* The leaf level of one pose helper (harness/run/leaf_pose.c). */
#define POSE_LEAF_HELPERS 5
typedef struct pose_leaf_result {
    char role[16];       /* "sin", "copy5", ... */
    char routine[64];    /* its profile row; "" when the profile has none */
    char signature[96];  /* "(angle) -> eax": the operands and result assumed */
    char note[96];       /* why it did not run */
    int ran, trig;       /* ran; sin or cos (trig_matched holds a tally) */
    uint64_t calls, mismatches, faults;
    char first[240];       /* the first mismatch in words, "" when none */
    char first_fault[240]; /* the first fault, "" when none */
    uint64_t trig_matched[4]; /* angles each trig option (ref/pose.h order) matches */
} pose_leaf_result;
/* ---- the entity level ---- */

/* One entity of the run: a body (or monster) and at most one weapon model. */
typedef struct res_entity {
    uint32_t body;          /* index into run_results.files */
    int32_t weapon;         /* index into run_results.files; -1: a NULL weapon slot */
    int why;                /* corpus/pairs.h pairs_noweapon: why no weapon slot */
    unsigned body_clips, weapon_clips;
    unsigned clips;         /* the clips run: those both models have */
    int pool_mismatch;      /* the clip counts differ (reported once per pair) */
    int16_t attach_rot[3], attach_trans[3]; /* the weapon slot's attach fields */
    int32_t shares;         /* the entity whose outcomes it shares (same bytes), -1: none */
    /*
     * The in-hand offset (weapon root minus body root, x y z) over the ticks
     * of one clip: the entity's first mismatching (clip, mode), else its
     * first clip run. plot_clip -1: no plot (no weapon, or nothing ran).
     */
    int32_t plot_clip;
    mode_id plot_mode;
    res_series offset[3];
} res_entity;

/* One entity clip in one mode: QueueAnimation, then AdvanceBy1 to the body's end call. */
typedef struct entity_result {
    uint32_t entity; /* index into run_results.entities */
    /*
     * r.file is the body's file, r.frames the body clip's frame byte,
     * r.div.model the model that diverged (its stream window is from that
     * model's file).
     */
    clip_result r;
    uint32_t weapon_frames; /* the weapon clip's frame byte (0 without a weapon) */
    /* the call at which the weapon's own clip ended on each side; -1: it
     * was still running when the body completed, or no weapon */
    int32_t weapon_end_ref, weapon_end_orig;
} entity_result;

/* A signature: what groups mismatches by cause. */
typedef struct res_group {
    char level[8];  /* "frame", "entity" or "leaf" */
    char field[32]; /* field kind ("rot.x", "weapon.rot.x") or routine name */
    char mode[16];  /* mode name, "-" for leaf */
    char shape[48]; /* shape of the difference */
    uint64_t count;
    int64_t example;    /* index into results (frame), entity_results (entity) or leaf (leaf) */
    res_series series;  /* frame level: the example's diverging channel */
    res_figure figure;  /* pose level: the example's skeleton at its divergence */
    /* frame level, with an executable: the original instruction behind it */
    int have_writer;    /* writer holds a replay's answer */
    emu_writer writer;  /* writer.writes == 0: that call did not write the field */
    char writer_note[160]; /* why there is no writer ("" when there is one) */
} res_group;

/* A file of the run: its manifest entry (name, kind, size, SHA-256, ...). */
typedef manifest_entry run_file;

typedef struct run_totals {
    uint64_t files, bad_files, clips, comparisons;
    uint64_t by_status[RES__COUNT];
    uint64_t by_source[RES_SRC__COUNT];
    uint64_t ticks_ref, ticks_orig;
    uint64_t leaf_calls, leaf_mismatches, leaf_faults;
    uint64_t cache_rejected; /* cache entries refused (key, length or checksum): re-emulated */
    uint64_t x87_limit;      /* mismatches within the x87 emulation limit (POSE.md section 4) */
    /* the entity level, apart from the frame level's counts above */
    uint64_t entities, entities_armed, pool_mismatches;
    uint64_t entity_comparisons;
    uint64_t entity_by_status[RES__COUNT];
    uint64_t entity_by_source[RES_SRC__COUNT];
} run_totals;

/* Formats of the candidate's trace files a check read. */
#define RES_FMT_TICKS 1u  /* Trace JSON Lines (engine calls) */
#define RES_FMT_FRAMES 2u /* the frames format (decoded poses) */

typedef struct run_results {
    size_t nfiles;
    run_file *files;
    size_t nresults;
    clip_result *results; /* ordered by (file, mode, clip) */
    size_t nleaf;
    leaf_result *leaf;
    size_t nentities;
    res_entity *entities;          /* file order: bodies and monsters, a body's weapons */
    size_t nentity_results;
    entity_result *entity_results; /* ordered by (entity, mode, clip) */
    size_t ngroups;
    res_group *groups;    /* ordered by count, then signature */
    run_totals totals;
    char corpus_kind[16];          /* "folder", "archive", "install", "file" */
    char corpus_description[512];  /* what the corpus path turned out to be */
    unsigned jobs;                 /* worker threads the run used */
    unsigned cand_formats;         /* candidate trace files read: RES_FMT_* bits */
    pose_conv pose;                /* the pose level's convention and how it was found */
    size_t npose_leaf;             /* the pose helpers' leaf level (leaf and pose levels) */
    pose_leaf_result pose_leaf[POSE_LEAF_HELPERS];
    int interrupted;               /* stopped early by a signal (which: interrupt_signal) */
    int interrupt_signal;          /* SIGINT, SIGTERM; 0 when not interrupted */
    double seconds;
    size_t nwarnings;
    char **warnings;               /* sentences the report shows (renamed entries, cache) */
} run_results;

void run_results_free(run_results *r);

#endif
