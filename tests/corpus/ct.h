/*
 * tests/corpus/ct.h: what only the corpus suites share: the reference
 * engine driven over a clip and synthetic presets built in memory. The
 * rest (TS_OK, error checks, scratch folders, file writes) is
 * tests/support/ts.h's.
 *
 * Test code only.
 */
#ifndef FF8_TESTS_CORPUS_CT_H
#define FF8_TESTS_CORPUS_CT_H

#include <stddef.h>
#include <stdint.h>

#include "common/le.h"
#include "corpus/synth.h"
#include "ref/dat.h"
#include "ref/engine.h"
#include "common/error.h"
#include "tests/support/ts.h"

/*
 * Decodes clip c of a parsed file with the reference engine in mode flags
 * (REF_CMD_SLOW / REF_CMD_FAST), from the file's skeleton, until the engine
 * returns 1. Returns the number of calls, or -1 with err filled.
 */
int ct_decode_clip(const dat_file *d, uint32_t c, uint8_t flags, ff_error *err);

/* A preset built in memory: every file's name, bytes and parse, and the summary. */
typedef struct ct_built {
    size_t n;
    char name[256][16];
    uint8_t *data[256];
    size_t size[256];
    dat_file dat[256];
    synth_summary sum;
} ct_built;

/* Builds every file of a preset (at most 256), asserting each builds and parses. */
ct_built *ct_build_preset(synth_preset preset, uint64_t seed);
/* Frees b and its files. */
void ct_free_built(ct_built *b);
/* Index of the file of that name, -1 when absent. */
long ct_find(const ct_built *b, const char *name);
/* The parsed file of that name; fails the test when it is missing. */
const dat_file *ct_must_find(const ct_built *b, const char *name);

#endif
