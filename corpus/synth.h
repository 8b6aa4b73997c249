/*
 * corpus/synth.h: synthetic battle .dat corpora, deterministic by seed,
 * shaped like the game's (docs/engine.md sections 3, 6 and 7) so that the whole
 * tool chain runs without any game file.
 *
 * Three levels:
 *   synth_model  an explicit description (kind, bones, clips as per-frame
 *                deltas) turned into file bytes with the encoder of
 *                ref/encode.h;
 *   synth_file_spec  a compact recipe (kind, bone count, clip list, seeds)
 *                expanded into a synth_model, random but deterministic;
 *   synth_plan   a preset's list of named files (small, vanilla, cover), built one
 *                at a time in memory or written to a folder.
 * Every file parses with dat_parse, and every clip is followed by at least
 * two frames' worth of bytes (SYNTH_TAIL_FRAMES) before the end of the
 * file, so no decoding mode that over-reads by a frame leaves the file.
 *
 * Nothing here prints, exits, uses rand() or keeps global state; all
 * randomness comes from the seed through a splitmix64 generator.
 */
#ifndef FF8_CORPUS_SYNTH_H
#define FF8_CORPUS_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "corpus/pairs.h"
#include "ref/dat.h"
#include "common/error.h"

/* Frames of over-read room kept after the last clip of every file. */
#define SYNTH_TAIL_FRAMES 2

/* ---- explicit models ---- */

typedef struct synth_bone {
    int16_t parent;   /* -1 for a root bone, else an earlier bone */
    int16_t length;   /* bone size (+2) */
    int16_t rot[3];   /* rest rotation (+4), 4096 = 360 degrees */
    int16_t scale[3]; /* rest scale (+0xA), 1024 = 1.0 */
} synth_bone;

typedef struct synth_clip {
    unsigned frames; /* 1..255 */
    int16_t *root;   /* frames * 3 root translation deltas */
    uint8_t *mode;   /* frames mode bits: 1 = the frame carries scales */
    int16_t *rot;    /* frames * bones * 3 rotation deltas, -2048..2047 */
    int16_t *scale;  /* frames * bones * 3 absolute scales; NULL when no frame has mode 1 */
} synth_clip;

typedef struct synth_model {
    dat_kind kind;
    /* Model kinds only (dat_kind_has_model): */
    unsigned bones; /* 1..255 */
    synth_bone *bone;
    uint8_t flags;       /* skeleton +1 as stored (0 in every vanilla file) */
    int16_t model_scale; /* skeleton +2 */
    int16_t root[3];     /* skeleton +8: rest root translation */
    unsigned nclips;
    synth_clip *clip;
    /* Every kind: */
    uint64_t filler_seed;   /* random bytes of the skeleton header's unread
                               fields and of the sections after animation */
    uint64_t geometry_seed; /* random bytes of section 1 (and of non-model
                               sections) */
    size_t geometry_size;   /* bytes of section 1 (non-model: of each section) */
} synth_model;

/*
 * Lays the model out as a .dat of its kind (section count from dat.h):
 * header, skeleton (section 0), geometry filler (1), animation (2), then
 * filler sections, the first of them long enough for SYNTH_TAIL_FRAMES
 * frames of over-read; sections start 4-byte aligned. *data is new (caller
 * frees). Fails with FF_E_USAGE on an inconsistent model (bones 0, no
 * clip, a clip of 0 frames, ...) and FF_E_RANGE on a rotation delta outside
 * -2048..2047.
 */
int synth_model_encode(const synth_model *m, uint8_t **data, size_t *size, ff_error *err);

/* Frees what synth_spec_model allocated inside m and zeroes it. */
void synth_model_free(synth_model *m);

/* ---- recipes ---- */

/* What a clip of a recipe holds. */
typedef enum synth_clip_kind {
    SYNTH_CLIP_RANDOM = 0, /* random motion of the given length */
    SYNTH_CLIP_EXTREMES,   /* 10 frames: both extremes of every position and
                              rotation width, mode bit alternating, scales
                              absent, present and 0x7C00 payloads */
    SYNTH_CLIP_WRAP,       /* 20 frames: root and rotation sums pass
                              +32767 and -32768 (s16 wrap) */
    SYNTH_CLIP_COVER       /* 3 frames, every bone alike: each position type,
                              each rotation type and absent rotations, scales
                              absent, present and 0x7C00 on frames 0 and 2,
                              odd negative deltas after frame 0 (halved by
                              SLOW), an odd count for FAST's last pass */
} synth_clip_kind;

#define SYNTH_EXTREMES_FRAMES 10
#define SYNTH_WRAP_FRAMES 20
#define SYNTH_COVER_FRAMES 3

typedef struct synth_clip_spec {
    uint8_t frames; /* 1..255 for RANDOM; ignored by the other kinds */
    uint8_t scale;  /* RANDOM: 1 = some frames use the scale path */
    uint8_t kind;   /* synth_clip_kind */
} synth_clip_spec;

typedef struct synth_file_spec {
    dat_kind kind;
    uint64_t seed;               /* skeleton, clips and filler after animation */
    uint64_t geometry_seed;      /* geometry bytes; files that differ only here
                                    share skeleton + animation byte for byte */
    unsigned bones;              /* model kinds: 1..255 */
    unsigned nclips;             /* model kinds: 1..2^20 */
    const synth_clip_spec *clip; /* nclips entries; NULL: random clips of 1..40 frames */
    size_t geometry_size;        /* 0: random 256..4095 bytes */
} synth_file_spec;

/*
 * Expands a recipe into a model (caller frees with synth_model_free).
 * On failure *m is zeroed.
 */
int synth_spec_model(const synth_file_spec *spec, synth_model *m, ff_error *err);

/* synth_spec_model + synth_model_encode: a recipe's file bytes (caller frees). */
int synth_build_file(const synth_file_spec *spec, uint8_t **data, size_t *size, ff_error *err);

/* ---- presets ---- */

/*
 * small: a few files covering the decoding corners; vanilla: sized like the
 * game's monster corpus; cover: the smallest corpus that runs every path of
 * the decoding routines (two files: 1 bone with a COVER clip followed by a
 * one-frame clip that SLOW+FAST reads into, and 255 bones with a COVER clip).
 */
typedef enum synth_preset {
    SYNTH_SMALL = 0,
    SYNTH_VANILLA,
    SYNTH_COVER,
    SYNTH__PRESET_COUNT
} synth_preset;

/* "small", "vanilla", "cover"; "?" when out of range. */
const char *synth_preset_name(synth_preset p);
/* Preset by name; -1 when unknown. */
int synth_preset_from_name(const char *name);

/* Figures of a built corpus (from the models, before encoding). */
typedef struct synth_summary {
    unsigned files;
    unsigned by_kind[DAT__KIND_COUNT];
    unsigned clips;
    uint64_t frames;
    unsigned scale_files; /* files with a clip holding a mode-1 frame */
    unsigned scale_clips; /* clips holding a mode-1 frame */
    unsigned max_bones, min_bones;
    unsigned long_clips; /* clips of more than 128 frames */
    unsigned dup_files;  /* files copying another file's skeleton + animation */
    unsigned dup_clips;  /* clips of those files */
} synth_summary;

typedef struct synth_plan synth_plan;

/*
 * Plans a preset for seed (cheap: no clip is generated). *out is new
 * (synth_plan_free); on failure it is untouched.
 */
int synth_plan_make(synth_preset preset, uint64_t seed, synth_plan **out, ff_error *err);
/* Frees p (NULL is fine); specs and names from it are invalid afterwards. */
void synth_plan_free(synth_plan *p);
/* Number of files the plan makes. */
size_t synth_plan_count(const synth_plan *p);
/* File name of entry i ("c0m000.dat", ...), NULL when out of range. */
const char *synth_plan_name(const synth_plan *p, size_t i);
/* Recipe of entry i (valid until synth_plan_free), NULL when out of range. */
const synth_file_spec *synth_plan_spec(const synth_plan *p, size_t i);
/* Index of the entry whose skeleton + animation entry i copies, or -1. */
long synth_plan_dup_of(const synth_plan *p, size_t i);
/*
 * The plan's entities manifest: the body + weapon pairs it gives non-zero
 * weapon-slot attach values (an empty list for vanilla, whose slots are
 * identity). Valid until synth_plan_free.
 */
const pairs_attach_list *synth_plan_attach(const synth_plan *p);

/*
 * Builds entry i's bytes (caller frees) and, when sum is not NULL, adds
 * its figures to *sum (which the caller zeroed first).
 */
int synth_plan_build(const synth_plan *p, size_t i, uint8_t **data, size_t *size,
                     synth_summary *sum, ff_error *err);

/*
 * Writes a preset's files into outdir (created with its parents), each
 * through a temporary name and a rename, then its entities manifest
 * (PAIRS_ATTACH_FILE, always, empty or not), and fills *sum (may be NULL).
 * Files already in outdir with other names are left alone.
 */
int synth_write(const char *outdir, synth_preset preset, uint64_t seed, synth_summary *sum,
                ff_error *err);

#endif
