/*
 * tests/hostile/test_hostile_memory.c: small inputs that ask for a lot of
 * memory or never end, through the built ff8diff in a child process whose
 * address space is limited (setrlimit RLIMIT_AS): a run that needed memory
 * in proportion to what the input announces would fail inside the limit,
 * so the limit is the assertion, never a timing.
 *
 *   - an LZ4 bomb: 4 archive records pointing at one 8.4 MB LZ4 block that
 *     announces 2 GiB - 2 bytes each (refused by the 64 MiB entry limit, from
 *     the index, in `run` and in `corpus list`);
 *   - 40 records of 60 MiB each (under the entry limit, 2.4 GB in all):
 *     `run` holds one at a time;
 *   - a trace line of 100 MB inside a 400 KB .jsonl.lz4 (an error naming the
 *     file and the line: the frame inflates past 16 times what the model's
 *     traces can need, before the line reaches the 64 MiB line limit); a
 *     trace that is a link to /dev/zero; a trace line holding a key twice;
 *   - identify on a 2 GB sparse file and on a FIFO (refused at once);
 *   - a 2 GB sparse .dat in a corpus folder.
 *
 * Limits: 1.5 GiB for `run` (Unicorn reserves about 1.1 GiB of address
 * space for its code buffer, --jobs 1), 384 MiB for commands without an
 * emulator. Disabled in sanitizer builds, which reserve terabytes.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <lz4frame.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/le.h"
#include "tests/hostile/hs.h"

#define RUN_AS (1536ull << 20)
#define PLAIN_AS (384ull << 20)

static char *scratch, *cache, *logs;

static void setup(void)
{
    scratch = ts_tempdir();
    cache = ts_path(scratch, "cache");
    logs = ts_path(scratch, "logs");
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p '%s' '%s'", cache, logs);
    ts_out_free(&o);
}

static void cleanup(void)
{
    free(cache);
    free(logs);
    ts_rmtree(scratch);
}

/*
 * One raw LZ4 block decoding to `size` zero bytes: a literal zero, then one
 * match at offset 1 as long as needed (its length in 0xFF bytes: about
 * size / 255 of them), then the five literals a block must end with.
 */
static uint8_t *lz4_zeros(uint32_t size, size_t *len)
{
    uint64_t extra = (uint64_t)size - 6 - 4 - 15;
    size_t n = 4 + (size_t)(extra / 255) + 1 + 6;
    uint8_t *b = malloc(n), *p = b;
    cr_assert(b);
    *p++ = (1 << 4) | 15;
    *p++ = 0x00;
    *p++ = 0x01;
    *p++ = 0x00;
    memset(p, 0xFF, (size_t)(extra / 255));
    p += extra / 255;
    *p++ = (uint8_t)(extra % 255);
    *p++ = 5 << 4;
    memset(p, 0, 5);
    p += 5;
    *len = (size_t)(p - b);
    return b;
}

/* battle.fi/fl/fs in dir: n records of `size` bytes, all pointing at one LZ4 block of zeros. */
static void zero_archive(const char *dir, unsigned n, uint32_t size)
{
    size_t blen;
    uint8_t *block = lz4_zeros(size, &blen);
    uint8_t *fs = malloc(blen + 4), *fi = malloc(12u * n);
    le_put32(fs, (uint32_t)blen);
    memcpy(fs + 4, block, blen);
    char *fl = malloc(40u * n + 1);
    size_t fln = 0;
    for (unsigned i = 0; i < n; i++) {
        le_put32(fi + 12 * i, size);
        le_put32(fi + 12 * i + 4, 0);
        le_put32(fi + 12 * i + 8, 2);
        fln += (size_t)sprintf(fl + fln, "c:\\ff8\\battle\\c0m%03u.dat\r\n", i);
    }
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p '%s'", dir);
    ts_out_free(&o);
    hs_write(dir, "battle.fs", fs, blen + 4);
    hs_write(dir, "battle.fi", fi, 12u * n);
    hs_write(dir, "battle.fl", fl, fln);
    free(block);
    free(fs);
    free(fi);
    free(fl);
}

/* Every manifest entry is bad, with an error of `kind` whose reason holds `has`. */
static void all_bad(const cJSON *report, unsigned n, const char *kind, const char *has)
{
    const cJSON *m, *man = cJSON_GetObjectItem(report, "manifest");
    cr_assert_eq(cJSON_GetArraySize(man), (int)n);
    cJSON_ArrayForEach(m, man)
    {
        const cJSON *e = cJSON_GetObjectItem(m, "error");
        cr_assert_str_eq(hs_str(m, "status"), "bad_input");
        cr_assert_str_eq(hs_str(e, "kind"), kind, "%s: %s", hs_str(m, "name"),
                         hs_str(e, "message"));
        cr_assert(strstr(hs_str(e, "reason"), has), "%s: %s", hs_str(m, "name"),
                  hs_str(e, "reason"));
    }
}

Test(memory, lz4_bomb_is_refused_from_the_index, .init = setup, .fini = cleanup, .timeout = 300,
     .disabled = HS_SANITIZED)
{
    char *arc = ts_path(scratch, "bomb"), *out = ts_path(scratch, "reports");
    zero_archive(arc, 4, 0x7FFFFFFEu);
    const char *run[] = {hs_cli(), "run", "-q", "--no-cache", "--jobs", "1", "--corpus", arc,
                         "--out", out, NULL};
    int st = hs_run_limited(run, cache, logs, RUN_AS, 0);
    char *err = hs_log(logs, "stderr");
    cr_assert_eq(st, 2, "bad input only: exit 2, not %d (%s)", st, err);
    free(err);
    cJSON *r = hs_report(out);
    all_bad(r, 4, "range", "above the limit of 64 MiB");
    cJSON_Delete(r);
    /* The listing reads the index only: sizes and the same refusals, in a small space. */
    const char *list[] = {hs_cli(), "corpus", "list", arc, NULL};
    st = hs_run_limited(list, cache, logs, PLAIN_AS, 0);
    char *text = hs_log(logs, "stdout");
    cr_assert_eq(st, 2, "%s", text);
    cr_assert_eq(ts_count(text, "ERROR: entry"), 4, "%s", text);
    cr_assert_eq(ts_count(text, "above the limit of 64 MiB"), 4, "%s", text);
    free(text);
    free(arc);
    free(out);
}

Test(memory, run_holds_one_entry_at_a_time, .init = setup, .fini = cleanup, .timeout = 600,
     .disabled = HS_SANITIZED)
{
    /* 27 x 60 MiB = 1,620 MiB announced: more than the whole limit (RUN_AS, 1,536 MiB), so
     * the run holds no two at once. Zeros do not parse. */
    _Static_assert(27ull * (60ull << 20) > RUN_AS, "the entries together exceed the limit");
    char *arc = ts_path(scratch, "wide"), *out = ts_path(scratch, "reports");
    zero_archive(arc, 27, 60u << 20);
    const char *run[] = {hs_cli(), "run", "-q", "--no-cache", "--jobs", "1", "--corpus", arc,
                         "--out", out, NULL};
    int st = hs_run_limited(run, cache, logs, RUN_AS, 0);
    char *err = hs_log(logs, "stderr");
    cr_assert_eq(st, 2, "bad input only: exit 2, not %d (%s)", st, err);
    free(err);
    cJSON *r = hs_report(out);
    /* Each entry loaded, found not a .dat (zeros: 0 sections), let go: none ran out of memory. */
    all_bad(r, 27, "unsupported", "section count 0");
    cJSON_Delete(r);
    free(arc);
    free(out);
}

/* A one-file corpus (3 clips) for check, and its traces folder. */
static void one_file(char **corpus, char **traces)
{
    static const uint8_t frames[3] = {4, 3, 5};
    size_t n;
    uint8_t *dat = hs_monster(6, 3, frames, 77, &n);
    *corpus = ts_path(scratch, "corpus");
    *traces = ts_path(scratch, "traces");
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p '%s' '%s'", *corpus, *traces);
    ts_out_free(&o);
    hs_write(*corpus, "c0m000.dat", dat, n);
    free(dat);
}

/* check --modes normal over the one-file corpus; every clip must be bad input holding `has`. */
static void check_refuses(const char *corpus, const char *traces, const char *has)
{
    char *out = ts_path(scratch, "reports");
    const char *check[] = {hs_cli(), "check",  "-q",     "--traces", traces, "--corpus",
                           corpus,   "--modes", "normal", "--out",    out,    NULL};
    int st = hs_run_limited(check, cache, logs, PLAIN_AS, 0);
    char *err = hs_log(logs, "stderr");
    cr_assert_eq(st, 2, "exit %d: %s", st, err);
    cr_assert(strstr(err, has), "stderr lacks '%s': %s", has, err);
    free(err);
    cJSON *r = hs_report(out);
    cr_assert_eq(ts_num(r, "totals.bad_input"), 3);
    const cJSON *res = hs_result(r, "c0m000.dat", 2, "normal");
    cr_assert(res);
    const char *reason = hs_str(cJSON_GetObjectItem(res, "error"), "reason");
    cr_assert(strstr(reason, has), "%s", reason);
    cJSON_Delete(r);
    ts_out o;
    ts_sh(scratch, &o, "rm -rf '%s'", out);
    ts_out_free(&o);
    free(out);
}

Test(memory, a_100_mb_trace_line_is_an_error_naming_it, .init = setup, .fini = cleanup,
     .timeout = 300, .disabled = HS_SANITIZED)
{
    char *corpus, *traces;
    one_file(&corpus, &traces);
    /* One line of 100 MB, about 400 KB once compressed. */
    size_t n = 100u << 20;
    char *plain = malloc(n);
    memset(plain, '7', n);
    plain[0] = '[';
    size_t cap = LZ4F_compressFrameBound(n, NULL);
    char *packed = malloc(cap);
    size_t k = LZ4F_compressFrame(packed, cap, plain, n, NULL);
    cr_assert(!LZ4F_isError(k));
    cr_assert(k < (1u << 20), "the frame is small: %zu bytes", k);
    free(plain);
    hs_write(traces, "c0m000.dat.normal.jsonl.lz4", packed, k);
    free(packed);
    check_refuses(corpus, traces, "line 1: the LZ4 frame inflates past");
    free(corpus);
    free(traces);
}

Test(memory, a_trace_that_never_ends_or_repeats_a_key, .init = setup, .fini = cleanup,
     .timeout = 120, .disabled = HS_SANITIZED)
{
    char *corpus, *traces;
    one_file(&corpus, &traces);
    char *link = ts_path(traces, "c0m000.dat.normal.jsonl");
    cr_assert_eq(symlink("/dev/zero", link), 0);
    check_refuses(corpus, traces, "not a regular file");
    /* A line holding "tick" twice: malformed, not read as either value. */
    cr_assert_eq(unlink(link), 0);
    static const char line[] =
        "{\"v\":1,\"file\":\"c0m000.dat\",\"model\":\"monster\",\"anim\":0,\"mode\":\"normal\","
        "\"tick\":0,\"tick\":1,\"ret\":0}\n";
    hs_write(traces, "c0m000.dat.normal.jsonl", line, sizeof line - 1);
    check_refuses(corpus, traces, "line 1: key \"tick\" appears twice");
    free(link);
    free(corpus);
    free(traces);
}

Test(memory, identify_refuses_a_huge_file_and_a_fifo_at_once, .init = setup, .fini = cleanup,
     .timeout = 60, .disabled = HS_SANITIZED)
{
    char *big = ts_path(scratch, "big.exe"), *fifo = ts_path(scratch, "pipe.exe");
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    cr_assert_eq(ftruncate(fd, (off_t)2 << 30), 0);
    close(fd);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    const char *a[] = {hs_cli(), "identify", big, NULL};
    int st = hs_run_limited(a, cache, logs, PLAIN_AS, 0);
    char *err = hs_log(logs, "stderr");
    cr_assert_eq(st, 2, "%s", err);
    cr_assert(strstr(err, "above the limit of 512 MiB"), "refused from its size: %s", err);
    free(err);
    const char *b[] = {hs_cli(), "identify", fifo, NULL};
    st = hs_run_limited(b, cache, logs, PLAIN_AS, 0);
    err = hs_log(logs, "stderr");
    cr_assert_eq(st, 2, "%s", err);
    cr_assert(strstr(err, "not a regular file"), "%s", err);
    free(err);
    /* A 2 GB sparse .dat in a corpus folder: bad input, from its size. */
    char *dir = ts_path(scratch, "sparse"), *out = ts_path(scratch, "reports");
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p '%s' && mv '%s' '%s/c0m000.dat'", dir, big, dir);
    cr_assert_eq(o.status, 0);
    ts_out_free(&o);
    const char *run[] = {hs_cli(), "run",  "-q", "--no-cache", "--jobs", "1", "--corpus", dir,
                         "--out",  out, NULL};
    st = hs_run_limited(run, cache, logs, RUN_AS, 0);
    cr_assert_eq(st, 2);
    cJSON *r = hs_report(out);
    all_bad(r, 1, "range", "above the limit of 64 MiB");
    cJSON_Delete(r);
    free(dir);
    free(out);
    free(big);
    free(fifo);
}
