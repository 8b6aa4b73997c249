/*
 * tests/hostile/hs.h: helpers of the hostile-input suites: temporary
 * folders, files, little-endian fields of .dat bytes, running the built
 * ff8diff binary and reading the report.json it writes (cJSON).
 *
 * Every helper asserts (Criterion) instead of returning errors: a failing
 * helper fails the test with what went wrong.
 */
#ifndef FF8_TESTS_HOSTILE_HS_H
#define FF8_TESTS_HOSTILE_HS_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "common/le.h"
#include "ref/dat.h"
#include "tests/support/ts.h"

/* Writes dir/name (scratch folders and paths: tests/support/ts.h). */
void hs_write(const char *dir, const char *name, const void *data, size_t size);


/* A synthetic monster: bones, nclips clips of frames[i] frames, 64 bytes of geometry. */
uint8_t *hs_monster(unsigned bones, unsigned nclips, const uint8_t *frames, uint64_t seed,
                    size_t *size);
/* Clips of a .dat file read from its bytes (0 for a kind without model). */
unsigned hs_clips(const uint8_t *data, size_t size);

/* Path of a built program: $FF8DIFF_BINARY_DIR/harness/ff8diff, stand-ins. */
const char *hs_cli(void);
char *hs_standin(const char *name);

/*
 * Runs argv[0] with argv, FF8DIFF_CACHE_DIR=cache_dir, stdout and stderr
 * into log_dir/stdout and log_dir/stderr. Returns the exit status (128 +
 * signal when killed).
 */
int hs_run(const char *const *argv, const char *cache_dir, const char *log_dir);
/*
 * As hs_run, in a child whose address space (RLIMIT_AS, as_bytes) and
 * largest file written (RLIMIT_FSIZE, fsize_bytes) are limited; 0: no limit.
 * Peak memory is asserted this way, never by timing: a run that needs more
 * fails inside the limit.
 */
int hs_run_limited(const char *const *argv, const char *cache_dir, const char *log_dir,
                   uint64_t as_bytes, uint64_t fsize_bytes);
/*
 * 1 in a sanitizer build: tests that limit the address space are disabled
 * there (.disabled = HS_SANITIZED), since ASan reserves terabytes of it.
 */
#ifndef HS_SANITIZED
#define HS_SANITIZED 0
#endif
/* log_dir/name (stdout, stderr) as text, malloc'd. */
char *hs_log(const char *log_dir, const char *name);

/* Parses the report.json of the only run written under out_dir. */
cJSON *hs_report(const char *out_dir);

/* Reads a number / string member (asserts it exists with that type). */
double hs_num(const cJSON *o, const char *key);
const char *hs_str(const cJSON *o, const char *key);

/* The result of (file, clip, mode) in report, or NULL. */
const cJSON *hs_result(const cJSON *report, const char *file, int clip, const char *mode);
/* The manifest entry of file in report, or NULL. */
const cJSON *hs_manifest(const cJSON *report, const char *file);

/* The four modes as report.json names them. */
extern const char *const hs_modes[4];

#endif
