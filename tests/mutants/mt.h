/*
 * tests/mutants/mt.h: helpers shared by the mutant and run-level suites:
 * hand-described models (explicit per-frame deltas) written as .dat files
 * through synth_model_encode, scratch folders, the stand-in variants loaded
 * under the built-in "standin" profile, a run over a folder, and checks of
 * a run's results against a table of expected first divergences.
 *
 * Files written here have section 3 (the bytes after the animation section)
 * zeroed, so the frame a SLOW+FAST run reads past the last clip decodes as
 * an all-zero frame with mode bit 0 (every root and rotation delta 0, no
 * scale read): its effect can be worked out by hand.
 *
 * Test code only.
 */
#ifndef FF8_TESTS_MUTANTS_MT_H
#define FF8_TESTS_MUTANTS_MT_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/game.h"
#include "harness/core/results.h"
#include "harness/run/run.h"
#include "tests/support/ts.h"
#include "tests/support/ts_engine.h"
#include "common/error.h"

#define MT_MAX_BONES 2
#define MT_MAX_FRAMES 8

/* One frame: root deltas, mode bit, per bone rotation deltas and (mode 1) scales. */
typedef struct mt_frame {
    int16_t root[3];
    uint8_t mode;
    int16_t rot[MT_MAX_BONES][3];
    int16_t scale[MT_MAX_BONES][3]; /* read only when mode is 1 */
} mt_frame;

typedef struct mt_clip {
    unsigned n; /* frames */
    mt_frame f[MT_MAX_FRAMES];
} mt_clip;

/*
 * A monster file (11 sections; a body's 7 or a weapon's 8 when kind says
 * so): bones (bone 0 a root, bone 1 its child),
 * every bone with rest rotation 0 and rest scale rest_scale, the skeleton
 * flag byte and rest root translation as given.
 */
typedef struct mt_model {
    const char *name;
    unsigned bones;
    uint8_t flags;
    int16_t root[3];
    int16_t rest_scale[3];
    unsigned nclips;
    const mt_clip *clip;
    dat_kind kind; /* 0 (left out): a monster; DAT_BODY or DAT_WEAPON for an entity's files */
    int16_t model_scale; /* skeleton +2; 0 (left out): 1024 */
} mt_model;

/* The model's file bytes (malloc'd), section 3 zeroed. */
uint8_t *mt_encode(const mt_model *m, size_t *size);
/* mt_encode written to dir/m->name. */
void mt_write_model(const char *dir, const mt_model *m);
/* Offset of section k from a file's section table. */
uint32_t mt_section_offset(const uint8_t *data, uint32_t k);
/* Absolute offset of clip c's frame-count byte in a file's bytes. */
uint32_t mt_clip_offset(const uint8_t *data, uint32_t c);

/* A stand-in variant loaded under the built-in "standin" profile. */
emu_image *mt_image(const char *exe);

/* run_config with every mode, frame level only, the given jobs, on the engine under test. */
void mt_config(run_config *cfg, const char *corpus, const emu_image *img, unsigned jobs);
/* run_execute, asserting it went through. */
void mt_execute(const run_config *cfg, run_results *out);
/* Loads exe, runs every mode over corpus with jobs workers. */
void mt_run(const char *corpus, const char *exe, unsigned jobs, run_results *out);
/* The frame and pose levels of exe over corpus (2 jobs), under the convention conv in
 * ref/pose.h's text form, or searched when conv is NULL. */
void mt_run_pose(const char *corpus, const char *exe, const char *conv, run_results *out);
/* A new scratch folder holding the small preset (seed 1); the caller removes and frees it. */
char *mt_small_preset(void);

/* The result of (file, clip, mode), or NULL. */
const clip_result *mt_find(const run_results *r, const char *file, int32_t clip, mode_id mode);
/* Name of a result's file. */
const char *mt_file(const run_results *r, const clip_result *c);

/* An expected first divergence. */
typedef struct mt_expect {
    const char *file;
    int32_t clip;
    mode_id mode;
    size_t tick;
    const char *field; /* full name, as field_name writes it */
    unsigned bone;
    int32_t ref, orig;
    int32_t cur_off, cur_bit; /* cursor where that tick began */
} mt_expect;

/*
 * Asserts that r holds exactly the mismatches of the table (each with its
 * tick, field, bone, values and cursor) and that every other result is a
 * match; no fault, no bad input, not interrupted.
 */
void mt_check(const run_results *r, const mt_expect *e, size_t n);

/* run_config with every mode, the frame and entity levels, the given jobs. */
void mt_config_entity(run_config *cfg, const char *corpus, const emu_image *img, unsigned jobs);
/* Loads exe, runs every mode over corpus at the frame and entity levels. */
void mt_run_entity(const char *corpus, const char *exe, unsigned jobs, run_results *out);

/* An expected first divergence at the entity level (weapon NULL: no weapon slot). */
typedef struct mt_ent_expect {
    const char *body, *weapon;
    int32_t clip;
    mode_id mode;
    size_t tick;
    const char *field; /* full name with its model, "weapon.root.x" */
    int32_t ref, orig;
    int32_t cur_off, cur_bit; /* the diverging model's cursor where that tick began */
} mt_ent_expect;

/* The entity result of (body, weapon, clip, mode), or NULL. */
const entity_result *mt_ent_find(const run_results *r, const char *body, const char *weapon,
                                 int32_t clip, mode_id mode);
/*
 * Asserts that r's entity results hold exactly the mismatches of the table
 * (tick, field with its model, values, cursor) and that every other one
 * is a match, with groups holding them all; no fault, no bad input; the
 * original's side emulated, shared or cached.
 */
void mt_ent_check(const run_results *r, const mt_ent_expect *e, size_t n);

/* Ticks the reference makes on an n-frame clip in mode m (worked out from docs/engine.md). */
uint32_t mt_ticks(unsigned n, mode_id m);
/* Asserts ref_ticks of every result against mt_ticks. */
void mt_check_ticks(const run_results *r);

/* Name of a mode for messages. */
const char *mt_mode(mode_id m);

/* Asserts that a and b hold the same entity results, groups and plots (sources left out). */
void mt_same_entities(const run_results *a, const run_results *b, const char *what);

#endif
