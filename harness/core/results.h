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
#include "emu/engine/emu.h"
#include "emu/engine/fault.h"
#include "harness/core/cells.h"
#include "harness/core/compare.h"
#include "harness/core/modes.h"
#include "harness/core/pose_conv.h"
#include "harness/core/readcmp.h"
#include "ref/dat.h"
#include "ref/quirks.h"
#include "common/error.h"

/*
 * How a status counts in the verdict (harness/core/verdict.c): nothing
 * failed (PASS), a failure of the compared code (DIFF), an input that could
 * not be read (BAD), a comparison not made (NOT_RUN).
 */
typedef enum res_share { RES_SHARE_PASS, RES_SHARE_DIFF, RES_SHARE_BAD, RES_SHARE_NOT_RUN } res_share;

/*
 * status, JSON name, label in every rendering, how it counts in the verdict.
 * NOT_DECODED: the candidate gave no trace for a clip the authority has, or
 * fewer frames (ticks) than the authority's, every one it gave agreeing, or
 * left out a field class --require asks for: the decoder's failure, counted
 * with mismatches. BAD_INPUT: a trace (or corpus file) that cannot be read.
 */
#define RES_STATUS_MAP(XX)                                                     \
    XX(MATCH, "match", "match", PASS)                                          \
    XX(MISMATCH, "mismatch", "mismatch", DIFF)                                 \
    XX(FAULT, "fault", "fault", DIFF)                                          \
    XX(NOT_DECODED, "not_decoded", "not decoded", DIFF)                        \
    XX(BAD_INPUT, "bad_input", "bad input", BAD)                               \
    XX(NOT_RUN, "not_run", "not run", NOT_RUN)

typedef enum res_status {
#define RES_STATUS_ENUM(id, name, label, share) RES_##id,
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
/* "not decoded": the status in words; "?" out of range. */
const char *res_status_label(res_status s);
/* How s counts in the verdict; RES_SHARE_NOT_RUN out of range. */
res_share res_status_share(res_status s);
/* The sum of n[s] over the statuses that count as share. */
uint64_t res_status_sum(const uint64_t n[RES__COUNT], res_share share);
const char *res_source_name(res_source s);

#define RES_STREAM_BYTES 16
#define RES_SERIES_MAX 1024

/* The channel that diverged, over the whole clip, for plots. */
typedef struct res_series {
    size_t n;             /* ticks shown (the longer side's) */
    size_t ref_n, orig_n; /* ticks each side has */
    int32_t *ref, *orig;
} res_series;

/*
 * A posed skeleton at one tick, both sides, for the stick figure of a pose
 * group: the matrices of the area the divergence is in (the bone matrices,
 * or the world matrices under the identity or the fixed base).
 */
typedef struct res_figure {
    unsigned bones;  /* 0: no figure */
    unsigned bone;   /* the diverging bone */
    size_t tick;     /* the divergence's tick */
    field_area area; /* FIELD_AREA_BONE, _WORLD or _PLACED */
    int16_t *parent; /* bones entries (-1: root) */
    int32_t *ref, *orig;     /* bones x 3: each bone's t (its joint) */
    int32_t *ref_m, *orig_m; /* bones x 9: each bone's m, row-major (Q12) */
} res_figure;
/* Reads shown on each side of the first differing read. */
#define RES_WINDOW 6
#define RES_WINDOW_LEN (2 * RES_WINDOW + 1)

/* How far a mismatch was explained (harness/run/explain.c). */
typedef enum res_expl_state {
    RES_EXPL_NONE = 0, /* not explained (no replay asked, or no executable) */
    RES_EXPL_READ,     /* a read differs: first */
    RES_EXPL_COMBINE,  /* every read of the call agrees: the values are combined differently */
    RES_EXPL_FAILED    /* the replay could not be made: note says why */
} res_expl_state;

/* A mismatch explained by replaying its diverging call on both sides with read logs. */
typedef struct res_explain {
    res_expl_state state;
    char note[160];              /* FAILED: why; else "" */
    size_t tick;                 /* the call replayed */
    size_t ref_reads, orig_reads; /* reads each side made in that call */
    readcmp_first first;         /* READ: the first differing read */
    /* Both logs around the first differing read (COMBINE: the last reads). */
    size_t win_first;            /* log index of win_ref[0] / win_orig[0] */
    uint8_t win_ref_n, win_orig_n;
    ref_read win_ref[RES_WINDOW_LEN], win_orig[RES_WINDOW_LEN];
    /* COMBINE: how the original's value relates to the reference's */
    int32_t before;              /* the field's value before the call (the same on both sides) */
    char relation[32];           /* "orig_lower_by_1", "kept_previous", ... or "" */
    int have_writer;             /* COMBINE: the original's instruction that wrote the field */
    emu_writer writer;
    /* READ: the original's call of the differing read ("call 0x509370"), when known */
    uint32_t call_eip;
    char call_insn[64];
    char call_routine[EMU_OWNER_NAME]; /* the routine holding it (emu/image/owner.h), "" if none */
    int call_in_profile;               /* call_routine is a profile routine */
    uint32_t call_offset;              /* call_eip minus call_routine's entry */
} res_explain;

/*
 * What one clip's comparison looked at, per field class (fields.h
 * field_classes): the ticks compared on class k (both sides carry it), and
 * the ticks where the authority carries it and the candidate left it out.
 */
typedef struct res_fields {
    uint32_t ticks[FIELD_CLASS_MAX];
    uint32_t unsupplied[FIELD_CLASS_MAX];
    /* bit k: on the ticks left out, the authority's values of class k differ
     * from the skeleton's bytes before the clip (the clip moves them) */
    uint16_t moving;
} res_fields;

/*
 * --engine both: how a clip's original side on the second engine compared
 * with the first's: id, JSON name, what it means.
 */
#define RES_ENG_MAP(XX)                                                                            \
    XX(NONE, "not_compared", "not run on both engines")                                            \
    XX(AGREE, "agree", "the same calls, values and faults on both engines")                       \
    XX(X87, "x87_emulation_vs_hardware",                                                           \
       "pose cells off by one and nothing else: the emulated x87 (QEMU's fsin, fcos, fpatan "      \
       "and rounding) against the CPU's")                                                          \
    XX(DISAGREE, "disagree", "the engines disagree: another value, another fault or none")

typedef enum res_eng {
#define RES_ENG_ENUM(id, name, what) RES_ENG_##id,
    RES_ENG_MAP(RES_ENG_ENUM)
#undef RES_ENG_ENUM
        RES_ENG__COUNT
} res_eng;

const char *res_eng_name(res_eng e);
const char *res_eng_what(res_eng e);

/* A clip on both engines (first: the run's engine; second: the other). */
typedef struct res_both {
    res_eng state;
    cmp_divergence div;     /* the first difference (ref: first engine, orig: second) */
    uint64_t cells;         /* field values that differ, every tick */
    int fault_first, fault_second; /* emu_fault_kind of each, EMU_FAULT_NONE: none */
    uint32_t eip_first, eip_second;
} res_both;

/*
 * Where the reference with one quirk-table row switched (ref/quirks.h) first
 * departs from the exact reference on a clip: the quirk pass of a run
 * (harness/run/quirkside.h). engine is the exact reference's value there,
 * plain the switched reading's; field FIELD_RET with plain -1: the switched
 * reading stopped on an error at that tick.
 */
typedef struct res_quirk_hit {
    uint16_t tick;
    uint16_t field; /* field_id */
    uint16_t bone;
    uint16_t pad;
    int32_t engine, plain;
} res_quirk_hit;

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
    /* the read that produced the diverging value (harness/run/refside.h), when known; the
     * stream window is then centred on it */
    int have_value;
    uint64_t value_file_off; /* file offset of the byte its first bit is in */
    uint8_t value_bit;       /* that bit, 0..7 (LSB first) */
    uint8_t value_routine;   /* ref/readlog.h's ref_routine */
    uint16_t value_bits;     /* bits it consumed */
    /* FAULT (heap) */
    emu_fault *fault;
    /* BAD_INPUT (heap) */
    ff_error *error;
    /* MISMATCH explained on its own (--explain all; heap, NULL otherwise) */
    res_explain *expl;
    int cause; /* index into run_results.causes, -1: none */
    /* NOT_DECODED: the candidate gave ref_ticks of the orig_ticks expected
     * (all of them when it left out required classes: missing, bit k) */
    uint16_t missing;
    /* the candidate's word on why it stopped (the frames format's "error"
     * line; heap, NULL when none), whatever the status */
    char *stopped;
    res_fields use; /* what was compared, per field class */
    res_both eng; /* --engine both */
    /* MISMATCH against recorded traces (check): every differing value, classed
     * by its effect on the pose (harness/core/cells.h; heap, NULL otherwise) */
    cell_list *cells;
    /* The quirk pass (frame level, unless --no-quirks): quirks_done when it
     * ran on this clip; quirks, the rows that bite, each at quirk[row]. */
    uint8_t quirks_done;
    uint32_t quirks;
    /* A checked decoder's mismatch (check --against) that the reference with
     * these rows switched reproduces (one row, or two together), or a clip it
     * did not decode (stopped short) whose stop the row explains; 0: none.
     * explain_tried: the table was tried on this clip (0 with --no-quirks). */
    uint32_t explained;
    uint8_t explain_tried;
    res_quirk_hit quirk[REF_Q__COUNT];
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

/*
 * --engine both at the leaf level: the cases also run on the second engine
 * and those whose answers differ (another AX, cursor or bit, a fault on one
 * engine only or of another kind or place).
 */
typedef struct leaf_both {
    uint64_t calls, disagree;
    int have_first;
    leaf_case first; /* the first in case order: ref_* the run's engine's, orig_* the second's */
    int fault_first, fault_second; /* its emu_fault_kind on each, EMU_FAULT_NONE: none */
} leaf_both;

typedef struct leaf_result {
    char routine[32];
    uint64_t calls, mismatches, faults;
    int have_first;
    leaf_case first;      /* first mismatch, in case order */
    emu_fault *fault;     /* fault of the first faulting case (heap) */
    uint64_t fault_index; /* ... and its case number */
    int group;
    leaf_both eng; /* --engine both */
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
    /* --engine both: cases also run on the second engine; those whose results differ by
     * one at most everywhere (the x87 class) and otherwise (or a fault on one only) */
    uint64_t eng_calls, eng_x87, eng_disagree;
    char eng_first[240]; /* the first that differs in words, "" when none */
} pose_leaf_result;
/* ---- the entity level ---- */

/* One entity of the run: a body (or monster) and at most one weapon model. */
/*
 * The speed bits (AnimCmd flags bits 0-1) each model held after
 * QueueAnimation called with one entity status and no flags preset ([0]
 * the body, [1] the weapon): the reference's (the notes' routine) and the
 * original's. -1: not known (no weapon, the status's mode not run, or the
 * original's side not emulated in this run).
 */
typedef struct res_queue {
    int8_t ref[2], orig[2];
} res_queue;

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
    res_queue queue[ENTITY_STATUS__COUNT]; /* by harness/core/modes.h's entity status */
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
    res_explain expl;   /* frame level: its example explained */
    int cause;          /* index into run_results.causes, -1: none */
} res_group;

/* Value differences listed per cause at most. */
#define RES_CAUSE_VALUES 8

/* Mismatches of one cause: the same instruction of the original behind the first differing
 * value (the call that read it, the routine that returned it, the store that wrote it). */
typedef struct res_cause {
    char kind[12];        /* "read", "combine" or "lockstep" (causes_entity.c) */
    char signature[192];  /* what merged them, for reading and for tests */
    char statement[400];  /* one line */
    char routine[64];     /* the routine that answers for it */
    /* the instruction: the writer (combine) or, for reads, the call site of the read */
    int have_insn;
    uint32_t eip;
    char insn[96];
    char insn_routine[EMU_OWNER_NAME]; /* as emu_writer.routine */
    int insn_in_profile;
    uint32_t insn_offset;
    /* How the values differ, one entry per input class (or field) among its mismatches,
     * original vs reference ("rotation type 3: 16 vs 12 bits"); the example's first. */
    unsigned nvalues;
    char values[RES_CAUSE_VALUES][80];
    unsigned more_values; /* classes beyond RES_CAUSE_VALUES, not listed */
    uint64_t clips;       /* frame-level clip results it explains */
    uint64_t leaf_calls;  /* leaf-level mismatching calls it explains */
    uint64_t entity_clips; /* entity-level clip results it explains */
    unsigned modes;       /* bit i = mode_id i */
    uint64_t files;
    int64_t example;      /* the group whose example stands for it */
    /* check --against (harness/core/causes_quirk.c): the quirk-table rows behind a
     * "quirk" cause (0 otherwise), and its first clip result (-1: the example group's) */
    uint32_t rows;
    int64_t example_result;
    size_t ngroups;
    int *groups;          /* the groups it explains (heap) */
    /* "" or what it follows from: "pose_options", the convention given, which the
     * executable's poses contradict (run.pose.contradicted) */
    char consequence_of[16];
} res_cause;

/* Coverage of one routine of the original. */
typedef struct res_cov_block {
    uint32_t start, end;
    uint16_t insns;
    uint32_t from;        /* the instruction that leads to it (0: none known) */
    char edge[8];         /* "branch", "jump", "fall", "entry" */
    int from_covered;     /* that instruction's block ran */
    char branch[96];      /* the instruction at from */
    char *disasm;         /* its instructions, one a line (heap) */
} res_cov_block;

typedef struct res_cov_routine {
    char name[64];
    uint32_t entry;
    unsigned blocks, covered;
    char note[96];        /* "replaced by a return", "not decodable", "" */
    unsigned nuncovered;
    res_cov_block *uncovered; /* heap */
} res_cov_routine;

typedef struct res_coverage {
    int enabled;          /* asked for (the coverage option) on a run of an executable */
    /* why no block was recorded although asked for (the run's engine has no
     * coverage hooks): routines is then empty; "" when recorded */
    char not_recorded[160];
    int complete;         /* every compared clip was emulated here (none from cache or traces) */
    uint64_t not_emulated; /* clip results whose original side was not emulated in this run */
    unsigned nroutines;
    res_cov_routine *routines; /* heap */
} res_coverage;

/*
 * Which engine did what in a run, by kind name (emu_engine_kind_name); ""
 * where nothing was done. The run's calls are on the engine run_config asks
 * for; replays that need hooks (write watches, read logs) on one that has
 * them, which may be another.
 */
typedef struct res_engines {
    char calls[16];        /* the run's calls of the original; "": none (traces) */
    char replays[16];      /* the replays with hooks that were made; "": none */
    char replays_why[320]; /* why the replays ran on another engine than the calls, or "" */
    char coverage[16];     /* the engine whose blocks were recorded; "": none */
    char second[16];       /* --engine both: the engine every call was also made on; "": none */
} res_engines;

/* A file of the run: its manifest entry (name, kind, size, SHA-256, ...). */
typedef manifest_entry run_file;

typedef struct run_totals {
    uint64_t files, bad_files, clips, comparisons;
    uint64_t by_status[RES__COUNT];
    uint64_t by_source[RES_SRC__COUNT];
    uint64_t ticks_ref, ticks_orig;
    uint64_t leaf_calls, leaf_mismatches, leaf_faults;
    uint64_t cache_rejected; /* cache entries refused (key, length or checksum): re-emulated */
    uint64_t x87_limit;      /* mismatches in the x87 emulation limit (docs/pose.md section 4) */
    /* differing values of the clips whose cells were collected, by class, and
     * the whole-turn ones by whether their bone matrices differed */
    uint64_t cells[CELL__COUNT];
    uint64_t turns_equal, turns_differ;
    /*
     * Per field class (fields.h field_classes), over frame-level results
     * compared (match, mismatch, not decoded): clips and ticks compared on
     * it; clips and ticks where the authority carries it and the candidate
     * supplied nothing; of those clips, the ones whose authority values move
     * from the skeleton's bytes (the poses differ there).
     */
    uint64_t cls_clips[FIELD_CLASS_MAX], cls_ticks[FIELD_CLASS_MAX];
    uint64_t cls_unsup_clips[FIELD_CLASS_MAX], cls_unsup_ticks[FIELD_CLASS_MAX];
    uint64_t cls_moving_clips[FIELD_CLASS_MAX];
    /* the entity level, apart from the frame level's counts above */
    uint64_t entities, entities_armed, pool_mismatches;
    uint64_t entity_comparisons;
    uint64_t entity_by_status[RES__COUNT];
    uint64_t entity_by_source[RES_SRC__COUNT];
    /* (entity, status) whose flags after QueueAnimation differ between the sides */
    uint64_t queue_mismatches;
    /* --engine both: clips by res_eng; of the x87_limit ones, those the CPU measured
     * to differ from the emulator there (emulation vs hardware) */
    uint64_t engines[RES_ENG__COUNT];
    uint64_t x87_measured;
    uint64_t entity_engines[RES_ENG__COUNT]; /* the entity level's clips by res_eng */
    uint64_t leaf_engine_calls, leaf_engine_disagree; /* the leaf level's, --engine both */
} run_totals;

/* Formats of the candidate's trace files a check read. */
#define RES_FMT_TICKS 1u  /* Trace JSON Lines (engine calls) */
#define RES_FMT_FRAMES 2u /* the frames format (decoded poses) */

typedef struct run_results {
    size_t nfiles;
    run_file *files;
    size_t nresults;
    clip_result *results; /* ordered by (file, mode, clip) */
    size_t results_mapped; /* bytes of results' own mapping (run_plan.c); 0: from the heap */
    size_t nleaf;
    leaf_result *leaf;
    size_t nentities;
    res_entity *entities;          /* file order: bodies and monsters, a body's weapons */
    unsigned entity_modes;         /* the modes the entity level ran (bit i = mode i) */
    size_t nentity_results;
    entity_result *entity_results; /* ordered by (entity, mode, clip) */
    size_t ngroups;
    res_group *groups;    /* ordered by count, then signature */
    size_t ncauses;
    res_cause *causes;    /* ordered by clips explained, then first group */
    int explained_all;    /* every mismatching clip was explained on its own */
    res_coverage coverage;
    res_engines engines;
    run_totals totals;
    char corpus_kind[16];          /* "folder", "archive", "install", "file" */
    char corpus_description[512];  /* what the corpus path turned out to be */
    char corpus_release[16];       /* provenance (corpus_origin): "" when none */
    char corpus_archive[1024];
    char corpus_zzz_entry[256];
    uint64_t corpus_zzz_offset;
    char corpus_lang[32];
    unsigned jobs;                 /* worker threads the run used */
    unsigned cand_formats;         /* candidate trace files read: RES_FMT_* bits */
    unsigned required;             /* field classes the candidate must supply (bit k) */
    pose_conv pose;                /* the pose level's convention and how it was found */
    size_t npose_leaf;             /* the pose helpers' leaf level (leaf and pose levels) */
    pose_leaf_result pose_leaf[POSE_LEAF_HELPERS];
    int interrupted;               /* stopped early by a signal (which: interrupt_signal) */
    int interrupt_signal;          /* SIGINT, SIGTERM; 0 when not interrupted */
    double seconds;
    size_t nwarnings;
    char **warnings;               /* sentences the report shows (renamed entries, cache) */
    double explain_seconds;        /* of seconds: the replays with read logs (explain.c) */
} run_results;

void run_results_free(run_results *r);

#endif
