/*
 * tests/corpus/ct.h: helpers shared by the corpus suites: loud must-succeed
 * calls, memory comparison with a hex dump, scratch folders, whole-file
 * writes and reads, the reference engine driven over a clip, and synthetic
 * presets built in memory.
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

/* Fails the running test with the error text when call != 0. */
#define CT_OK(call, err)                                                                           \
    do {                                                                                           \
        char ct_msg_[1024];                                                                        \
        int ct_rc_ = (call);                                                                       \
        cr_assert(ct_rc_ == 0, "%s failed: %s", #call,                                             \
                  ff_error_format((err), ct_msg_, sizeof ct_msg_));                                \
    } while (0)

/* Asserts an error of kind, file suffix (NULL: any) and offset (-2: any). */
void ct_assert_error(const ff_error *err, ff_errkind kind, const char *file_suffix, int64_t offset,
                     const char *what);


/* A new empty folder under $TMPDIR or /tmp (malloc'd path). */
char *ct_tempdir(void);
/* Removes a folder and everything below it, then frees path. */
void ct_rmtree(char *path);
/* Removes the folders ct_tempdir made that are still there: a suite's
 * .fini, so a test stopped by a failed assertion leaves nothing behind. */
void ct_cleanup(void);
/* dir + "/" + name, malloc'd. */
char *ct_path(const char *dir, const char *name);
/* Writes bytes to dir/name (creating it), asserting success. */
void ct_write(const char *dir, const char *name, const void *data, size_t size);
/* Creates dir/name as a folder, asserting success; returns the malloc'd path. */
char *ct_mkdir(const char *dir, const char *name);

/* Little-endian u32 access. */

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
