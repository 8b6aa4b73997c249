/*
 * tests/support/ts.h: helpers every suite may use (libff8testsupport):
 * loud must-succeed calls (TS_OK) and error checks, scratch folders (removed
 * again by ts_cleanup), whole-file and line-wise edits, the built ff8diff binary
 * run with its cache inside the scratch folder, report.json loading, an
 * independent look at the corpus (clip counts from the .dat headers,
 * SHA-256 through OpenSSL directly), and memory compared with a hex dump of
 * both sides.
 *
 * Test code only.
 */
#ifndef FF8_TESTS_SUPPORT_TS_H
#define FF8_TESTS_SUPPORT_TS_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/*
 * The stand-in engine's pose convention (emu/standin/README.md) in
 * ref/pose.h's text form: without its width sites (TS_STANDIN_POSE_BASE,
 * for appending "width=64" and the like) and canonically, every site at 32
 * bits as in standin.exe (TS_STANDIN_POSE).
 */
#define TS_STANDIN_TAIL "root=model,offset=-y,length=own,scale=stack"
#define TS_STANDIN_POSE_BASE "order=yxz,trig=x87-nearest,step=nearest-even," TS_STANDIN_TAIL
#define TS_WIDTHS(t, v) ",width-t=" t ",width-cols=32,width-model=32,width-vec=" v
#define TS_STANDIN_POSE TS_STANDIN_POSE_BASE TS_WIDTHS("32", "32")

/* Fails the running test with the error text when call != 0. */
#define TS_OK(call, err)                                                                           \
    do {                                                                                           \
        char ts_msg_[1024];                                                                        \
        int ts_rc_ = (call);                                                                       \
        cr_assert(ts_rc_ == 0, "%s failed: %s", #call,                                             \
                  ff_error_format((err), ts_msg_, sizeof ts_msg_));                                \
    } while (0)

/* Asserts an error of kind, file suffix (NULL: any) and offset (-2: any), with a reason. */
void ts_assert_error(const ff_error *err, ff_errkind kind, const char *file_suffix,
                     int64_t offset, const char *what);

/* "<build>/emu/standin/<name>": a stand-in build or variant (malloc'd). */
char *ts_standin(const char *name);
/* Reads a whole regular file (malloc'd, NUL-terminated); fails the test when it cannot. */
void *ts_read_all(const char *path, size_t *size);

/* A new empty folder under $TMPDIR or /tmp (malloc'd). */
char *ts_tempdir(void);
/* Removes a folder and everything below it, then frees path. */
void ts_rmtree(char *path);
/*
 * Removes the folders ts_tempdir made that are still there: a suite's
 * .fini, so a test stopped by a failed assertion leaves nothing behind.
 */
void ts_cleanup(void);
/* Creates dir/name as a folder, asserting success; returns the malloc'd path. */
char *ts_mkdir(const char *dir, const char *name);
/* Writes bytes to dir/name (creating it), asserting success. */
void ts_write_in(const char *dir, const char *name, const void *data, size_t size);
/* "dir/name", malloc'd. */
char *ts_path(const char *dir, const char *name);
/* Whole file, NUL-terminated, malloc'd; NULL when unreadable. */
char *ts_read(const char *path, size_t *size);
void ts_write(const char *path, const void *data, size_t n);
/* Copies the regular files of one folder into another (created). */
void ts_copy_dir(const char *from, const char *to);

/* A file's lines without their newlines (a malloc'd array of malloc'd strings). */
char **ts_lines(const char *path, size_t *n);
/* Writes lines back, each followed by a newline, and frees them. */
void ts_put_lines(const char *path, char **lines, size_t n);

/* What a command did. */
typedef struct ts_out {
    int status;
    char *out, *err;
} ts_out;

/*
 * Runs `ff8diff ARGS` (printf-style, paths already safe for the shell) with
 * FF8DIFF_CACHE_DIR=<scratch>/cache, capturing stdout and stderr.
 */
void ts_cli(const char *scratch, ts_out *o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Runs a shell command in the same way (no ff8diff prefix). */
void ts_sh(const char *scratch, ts_out *o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void ts_out_free(ts_out *o);
/* Path of the ff8diff binary and of python3. */
const char *ts_ff8diff(void);
const char *ts_python(void);
/* $FF8DIFF_SOURCE_DIR/rel, malloc'd. */
char *ts_source(const char *rel);

/*
 * Headless Chromium ($FF8DIFF_CHROMIUM, else "chromium"): asserts it is on
 * PATH (a test that needs it fails, it never skips). ts_chromium_run opens
 * the local file page with flags added (--dump-dom, --screenshot=PATH, ...)
 * in a fresh profile folder under scratch, output captured as ts_sh does.
 */
const char *ts_chromium(void);
void ts_chromium_run(const char *scratch, ts_out *o, const char *page, const char *flags);

/* The small synthetic corpus (seed 1) written into <scratch>/corpus; returns its path.
 * Copied from the one the build wrote ($FF8DIFF_SMALL_CORPUS, tests/CMakeLists.txt),
 * else made by `ff8diff corpus synth`. */
char *ts_corpus(const char *scratch);

/* Parsed JSON of a file (asserts). */
cJSON *ts_json(const char *path);
/* The file name of the newest run folder in reports_dir (caller frees; asserts one exists). */
char *ts_run_file(const char *reports_dir, const char *name);
/* s as one single-quoted shell word (caller frees). */
char *ts_quote(const char *s);
/* The files named by files_sh (shell words, quoted by the caller; globs allowed) validate
 * against the schema at schema_rel under the source tree: tests/js/schema.mjs (Ajv, draft
 * 2020-12), run in scratch. */
void ts_assert_schema(const char *scratch, const char *schema_rel, const char *files_sh);
/* report.json at path validates against reports/schema/report.schema.json (ts_assert_schema). */
void ts_assert_valid(const char *scratch, const char *report_json);
/* The report.json of the newest run folder in a reports folder (asserts one exists). */
cJSON *ts_report(const char *reports_dir);
/* Numeric member by dotted path ("totals.sources.cache"); asserts it exists. */
double ts_num(const cJSON *root, const char *dotted);
/* The result record (file, clip, mode) of a report; NULL when absent. */
const cJSON *ts_result(const cJSON *report, const char *file, int clip, const char *mode);

/* The corpus's .dat names, sorted (malloc'd array of malloc'd strings). */
char **ts_dat_names(const char *dir, size_t *n);
/*
 * Clip and bone counts of a .dat read straight from its header (section 0
 * byte 0; section 2's u32 count); 0 clips for files without a model.
 */
unsigned ts_dat_clips(const char *path, unsigned *bones);
/* SHA-256 of a file, lower-case hex (OpenSSL EVP directly). */
void ts_sha256(const char *path, char out[65]);

/* Occurrences of needle in hay. */
size_t ts_count(const char *hay, const char *needle);

/*
 * Asserts n bytes are equal; on a difference, fails naming what and the
 * first differing byte, with a hex dump of both sides around it.
 */
/*
 * A 0x400-byte PE32 (i386) the tests build: one .text section at RVA
 * 0x1000 holding `xor eax,eax; ret`, image base 0x400000; with dll set,
 * the COFF header says IMAGE_FILE_DLL. No game code in it.
 */
#define TS_MINI_PE_SIZE 0x400
void ts_mini_pe(uint8_t pe[TS_MINI_PE_SIZE], int dll);

void ts_assert_mem(const void *actual, const void *expected, size_t n, const char *what);

#endif
