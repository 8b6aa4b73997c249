/*
 * corpus/manifest.h: what a corpus holds, file by file: kind (through
 * dat_parse), size, SHA-256, bones, clips, frames, scale-path use (found
 * by decoding every clip with the reference engine in normal mode) and
 * clips longer than 128 frames; plus the totals `corpus stats` prints.
 *
 * Plain structs: the caller prints them. A file that cannot be loaded,
 * parsed or decoded is an entry marked bad with its error, never a failure
 * of the whole manifest. Nothing here prints or exits.
 */
#ifndef FF8_CORPUS_MANIFEST_H
#define FF8_CORPUS_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "corpus/source.h"
#include "ref/dat.h"
#include "common/error.h"

#define MANIFEST_SHA256_HEX 65 /* 64 hex digits + NUL */

typedef struct manifest_entry {
    char *name;     /* owned */
    char *origin;   /* owned: where the file comes from (corpus_provenance); NULL: not told */
    int bad;        /* 1: loading, dat_parse or decoding failed (see error) */
    ff_error error; /* kind FF_E_OK unless bad */
    int parsed;     /* 1: dat_parse accepted the file, kind is valid */
    dat_kind kind;
    uint64_t size;
    char sha256[MANIFEST_SHA256_HEX]; /* lower-case hex; "" when not loaded */
    unsigned bones;                   /* model kinds */
    unsigned clips;                   /* model kinds */
    uint64_t frames;                  /* sum of the clips' frame counts */
    unsigned scale_clips;             /* clips with a frame whose mode bit is 1 */
    int scale_path;                   /* scale_clips > 0 */
    unsigned long_clips;              /* clips of more than 128 frames */
} manifest_entry;

typedef struct manifest_totals {
    unsigned files;                    /* entries, bad ones included */
    unsigned bad;                      /* entries marked bad */
    unsigned by_kind[DAT__KIND_COUNT]; /* good entries by kind */
    uint64_t clips, frames;            /* good entries */
    unsigned scale_files;
    uint64_t scale_clips;
    unsigned max_bones;
    unsigned long_clips;
} manifest_totals;

typedef struct manifest {
    size_t n;
    manifest_entry *e;
    manifest_totals totals;
} manifest;

/*
 * Describes one file held in memory into *e (overwritten; free its name
 * with manifest_entry_clear). A bad file is not a failure: e->bad and
 * e->error say why. Returns -1 only when memory or hashing fails.
 */
int manifest_analyze(const char *name, const uint8_t *data, size_t size, manifest_entry *e,
                     ff_error *err);
/* Frees e's name and zeroes it (NULL is fine). */
void manifest_entry_clear(manifest_entry *e);

/* Adds one entry to running totals. */
void manifest_totals_add(manifest_totals *t, const manifest_entry *e);

/*
 * Sets e->origin to entry i's provenance in c (corpus_provenance). -1 only
 * when memory runs out.
 */
int manifest_set_origin(manifest_entry *e, const corpus *c, size_t i, ff_error *err);

/*
 * Loads and describes every .dat entry of c, in corpus order (an entry
 * that fails to load becomes a bad entry). *out is new (manifest_free).
 */
int manifest_build(const corpus *c, manifest **out, ff_error *err);
/* Frees m and its entries (NULL is fine). */
void manifest_free(manifest *m);

#endif
