/*
 * harness/core/cdiff.h: two corpora compared file by file and, for model
 * files that differ, clip by clip (`ff8diff corpus diff A B`): files only in
 * A or only in B, identical files, files that differ (which sections), and
 * per clip whether the skeleton or the clip's stream changed and the first
 * frame whose decoded pose differs in each mode, from the reference engine
 * (after StartClip and every Battle_ReadAnimation: the return value, the
 * root, rotations and scales the skeleton holds, the frame counters).
 *
 * Files are matched by corpus_name ignoring case (a Remaster entry's
 * _<lang> suffix is already off: names.h), so a 2013 install, a Remaster
 * install and a folder compare with each other. Plain results: the CLI
 * prints them, cdiff_json writes them. Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_CORE_CDIFF_H
#define FF8_HARNESS_CORE_CDIFF_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "corpus/source.h"
#include "harness/core/modes.h"

#define CDIFF_SCHEMA "ff8diff-corpus-diff/1"

/* status, JSON name, heading */
#define CDIFF_STATUS_MAP(XX)                                                                       \
    XX(SAME, "same", "identical")                                                                  \
    XX(DIFFER, "differ", "differ")                                                                 \
    XX(ONLY_A, "only_a", "only in A")                                                              \
    XX(ONLY_B, "only_b", "only in B")                                                              \
    XX(BAD, "bad", "cannot be compared")

typedef enum cdiff_status {
#define CDIFF_STATUS_ENUM(id, name, heading) CDIFF_##id,
    CDIFF_STATUS_MAP(CDIFF_STATUS_ENUM)
#undef CDIFF_STATUS_ENUM
        CDIFF__COUNT
} cdiff_status;

const char *cdiff_status_name(cdiff_status s);
const char *cdiff_status_heading(cdiff_status s);

/* Ticks decoded per clip and mode at most (a clip ends within 256 frames). */
#define CDIFF_TICKS_MAX 1024

/* One clip of a model file that differs. */
typedef struct cdiff_clip {
    uint32_t clip;
    uint8_t in_a, in_b;         /* the clip exists on that side */
    uint8_t skeleton;           /* the skeleton section changed */
    uint8_t stream;             /* the clip's own bytes changed */
    int32_t first[MODE__COUNT]; /* first frame (tick) whose decoded pose differs; -1: none */
} cdiff_clip;

typedef struct cdiff_file {
    char *name;
    cdiff_status status;
    char bad_side;  /* BAD: 'A' or 'B' */
    ff_error error; /* BAD: why */
    uint64_t size[2];
    char sha256[2][65];
    char *origin[2]; /* corpus_provenance of each side (NULL: absent) */
    uint32_t nsections[2];
    uint32_t sections; /* bit i: section i differs (same section count) */
    int layout;        /* 1: the section counts differ */
    uint32_t clips[2]; /* model files: clip counts */
    size_t nclips;     /* the clips that changed (bytes or pose) */
    cdiff_clip *clip;
} cdiff_file;

typedef struct cdiff {
    char *desc[2]; /* corpus_describe of A and B */
    size_t n;
    cdiff_file *f; /* by name, ignoring case */
    size_t count[CDIFF__COUNT];
    uint64_t clips_changed;
} cdiff;

/*
 * Compares every .dat entry of a and b into *out (cdiff_free it, also
 * after a failure). A file that cannot be loaded is a BAD entry, never a
 * failure; -1 only when memory runs out.
 */
int cdiff_run(const corpus *a, const corpus *b, cdiff *out, ff_error *err);
void cdiff_free(cdiff *d);
/* 0 identical, 1 differences, 2 a file could not be compared (the exit codes). */
int cdiff_exit_code(const cdiff *d);
/* The CDIFF_SCHEMA document (caller deletes); NULL when out of memory. */
cJSON *cdiff_json(const cdiff *d);

#endif
