/*
 * tests/regress/rg.h: helpers of the regression-workflow suites: scratch
 * folders, whole-file and line-wise edits, the built ff8diff binary run
 * with its cache inside the scratch folder, report.json loading, and an
 * independent look at the corpus (clip counts from the .dat headers,
 * SHA-256 through OpenSSL directly).
 *
 * Test code only.
 */
#ifndef FF8_TESTS_REGRESS_RG_H
#define FF8_TESTS_REGRESS_RG_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* A new empty folder under $TMPDIR or /tmp (malloc'd). */
char *rg_tempdir(void);
/* Removes a folder and everything below it, then frees path. */
void rg_rmtree(char *path);
/* "dir/name", malloc'd. */
char *rg_path(const char *dir, const char *name);
/* Whole file, NUL-terminated, malloc'd; NULL when unreadable. */
char *rg_read(const char *path, size_t *size);
void rg_write(const char *path, const char *data, size_t n);
/* Copies the regular files of one folder into another (created). */
void rg_copy_dir(const char *from, const char *to);

/* A file's lines without their newlines (a malloc'd array of malloc'd strings). */
char **rg_lines(const char *path, size_t *n);
/* Writes lines back, each followed by a newline, and frees them. */
void rg_put_lines(const char *path, char **lines, size_t n);

/* What a command did. */
typedef struct rg_out {
    int status;
    char *out, *err;
} rg_out;

/*
 * Runs `ff8diff ARGS` (printf-style, paths already safe for the shell) with
 * FF8DIFF_CACHE_DIR=<scratch>/cache, capturing stdout and stderr.
 */
void rg_cli(const char *scratch, rg_out *o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Runs a shell command in the same way (no ff8diff prefix). */
void rg_sh(const char *scratch, rg_out *o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void rg_out_free(rg_out *o);
/* Path of the ff8diff binary and of python3. */
const char *rg_ff8diff(void);
const char *rg_python(void);
/* $FF8DIFF_SOURCE_DIR/rel, malloc'd. */
char *rg_source(const char *rel);

/* The small synthetic corpus (seed 1) written into <scratch>/corpus; returns its path. */
char *rg_corpus(const char *scratch);

/* Parsed JSON of a file (asserts). */
cJSON *rg_json(const char *path);
/* The report.json of the newest run folder in a reports folder (asserts one exists). */
cJSON *rg_report(const char *reports_dir);
/* Numeric member by dotted path ("totals.sources.cache"); asserts it exists. */
double rg_num(const cJSON *root, const char *dotted);
/* The result record (file, clip, mode) of a report; NULL when absent. */
const cJSON *rg_result(const cJSON *report, const char *file, int clip, const char *mode);

/* The corpus's .dat names, sorted (malloc'd array of malloc'd strings). */
char **rg_dat_names(const char *dir, size_t *n);
/*
 * Clip and bone counts of a .dat read straight from its header (section 0
 * byte 0; section 2's u32 count); 0 clips for files without a model.
 */
unsigned rg_dat_clips(const char *path, unsigned *bones);
/* SHA-256 of a file, lower-case hex (OpenSSL EVP directly). */
void rg_sha256(const char *path, char out[65]);

/* Occurrences of needle in hay. */
size_t rg_count(const char *hay, const char *needle);

#endif
