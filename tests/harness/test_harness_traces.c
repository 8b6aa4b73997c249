/*
 * tests/harness/test_harness_traces.c: the trace reader against hostile
 * files. Lines split at every chunk boundary read back whole; a line longer
 * than TJ_LINE_MAX is an error naming the file and the line, plain or in an
 * LZ4 frame that expands to it; a key written twice in one object is an
 * error (in a trace line and in a trace-set manifest), since other readers
 * take the last one where cJSON takes the first; a trace path that is a
 * FIFO or a link to /dev/zero is refused at once.
 */
#include <criterion/criterion.h>
#include <lz4frame.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/traces/json_keys.h"
#include "harness/traces/trace_json.h"
#include "harness/traces/traceset.h"
#include "tests/support/ts.h"

static char *scratch;

static void setup(void)
{
    scratch = ts_tempdir();
}

static void teardown(void)
{
    ts_rmtree(scratch);
}

/* One tick of a 1-bone clip, anim a, tick k, root x = v. */
static int tick_line(char *buf, size_t n, unsigned a, unsigned k, int v, const char *eol)
{
    return snprintf(buf, n,
                    "{\"v\":1,\"file\":\"a.dat\",\"model\":\"monster\",\"anim\":%u,"
                    "\"mode\":\"normal\",\"tick\":%u,\"ret\":0,\"cmd\":{\"frame\":1,\"total\":2,"
                    "\"flags\":0,\"off\":3,\"bit\":1},\"skel_flag\":0,\"root\":[%d,0,0],"
                    "\"rot\":[[1,2,3]],\"scale\":[[1024,1024,1024]]}%s",
                    a, k, v, eol);
}

/* Reads every clip of text; returns -1 with err, or the number of clips. */
static int read_all(const char *text, size_t len, ff_error *err, size_t *ticks)
{
    tj_reader *r = tj_open_mem(text, len, "mem.jsonl", err);
    cr_assert_not_null(r);
    trace t;
    trace_init(&t);
    tj_clip c;
    int rc, clips = 0;
    *ticks = 0;
    while ((rc = tj_next_clip(r, &c, &t, err)) == 1) {
        if (c.bad) {
            /* a malformed line spoils its clip: that is the error looked for here */
            *err = c.error;
            rc = -1;
            break;
        }
        for (size_t i = 0; i < t.n; i++)
            cr_assert_eq(trace_value(&t, i, FIELD_ROOT_X, 0), (int16_t)(c.anim * 500 + i),
                         "anim %u tick %zu read back wrong", c.anim, i);
        *ticks += t.n;
        clips++;
    }
    trace_free(&t);
    tj_close(r);
    return rc < 0 ? -1 : clips;
}

Test(trace_reader, lines_across_chunk_boundaries, .init = setup, .fini = teardown)
{
    /* 40 clips of 100 ticks, CRLF and LF mixed: about 1 MB, many 64 KiB chunks. */
    size_t cap = 4u << 20, len = 0;
    char *text = malloc(cap);
    for (unsigned a = 0; a < 40; a++)
        for (unsigned k = 0; k < 100; k++)
            len += (size_t)tick_line(text + len, cap - len, a, k, (int)(a * 500 + k),
                                     (a + k) % 3 ? "\n" : "\r\n");
    ff_error err;
    size_t ticks;
    cr_assert_eq(read_all(text, len, &err, &ticks), 40, "%s", err.reason);
    cr_assert_eq(ticks, 4000);
    /* Without the final newline, the last line still counts. */
    cr_assert_eq(read_all(text, len - 1, &err, &ticks), 40, "%s", err.reason);
    cr_assert_eq(ticks, 4000);
    free(text);
}

Test(trace_reader, a_line_over_the_limit_names_file_and_line, .init = setup, .fini = teardown)
{
    /* Line 2 is a JSON string one byte longer than TJ_LINE_MAX. */
    size_t big = (size_t)TJ_LINE_MAX + 1, len = 0;
    char *text = malloc(big + 4096);
    len += (size_t)tick_line(text, 4096, 0, 0, 0, "\n");
    memset(text + len, ' ', big);
    len += big;
    text[len++] = '\n';
    ff_error err;
    size_t ticks;
    cr_assert_eq(read_all(text, len, &err, &ticks), -1);
    cr_assert_str_eq(err.file, "mem.jsonl");
    cr_assert(strstr(err.reason, "line 2: longer than 64 MiB"), "%s", err.reason);
    /* Exactly at the limit, the line is read (and refused as JSON, not for its length). */
    size_t at = (size_t)tick_line(text, 4096, 0, 0, 0, "\n");
    memset(text + at, 'x', TJ_LINE_MAX);
    text[at + TJ_LINE_MAX] = '\n';
    cr_assert_eq(read_all(text, at + TJ_LINE_MAX + 1, &err, &ticks), -1);
    cr_assert(strstr(err.reason, "line 2: not valid JSON"), "%s", err.reason);
    free(text);
}

Test(trace_reader, an_lz4_frame_expanding_to_a_long_line, .init = setup, .fini = teardown)
{
    /* About 300 KB on disk, 80 MiB once decoded: one line. */
    size_t n = 80u << 20;
    char *plain = malloc(n);
    memset(plain, 'x', n);
    plain[0] = '"';
    size_t cap = LZ4F_compressFrameBound(n, NULL);
    char *packed = malloc(cap);
    size_t k = LZ4F_compressFrame(packed, cap, plain, n, NULL);
    cr_assert(!LZ4F_isError(k));
    free(plain);
    char *path = ts_path(scratch, "c0m000.dat.normal.jsonl.lz4");
    ts_write(path, packed, k);
    free(packed);
    ff_error err;
    tj_reader *r = tj_open(path, &err);
    cr_assert_not_null(r, "%s", err.reason);
    trace t;
    trace_init(&t);
    tj_clip c;
    cr_assert_eq(tj_next_clip(r, &c, &t, &err), -1);
    cr_assert_str_eq(err.file, path);
    cr_assert(strstr(err.reason, "line 1: longer than 64 MiB"), "%s", err.reason);
    trace_free(&t);
    tj_close(r);
    free(path);
}

Test(trace_reader, a_key_written_twice_is_malformed, .init = setup, .fini = teardown)
{
    char line[1024], text[4096];
    size_t len = (size_t)tick_line(text, sizeof text, 0, 0, 0, "\n");
    /* Line 2: "tick" twice (1, then 7). */
    tick_line(line, sizeof line, 0, 1, 1, "\n");
    char *p = strstr(line, "\"ret\"");
    memmove(p + 9, p, strlen(p) + 1);
    memcpy(p, "\"tick\":7,", 9);
    memcpy(text + len, line, strlen(line) + 1);
    ff_error err;
    size_t ticks;
    cr_assert_eq(read_all(text, strlen(text), &err, &ticks), -1);
    cr_assert(strstr(err.reason, "line 2: key \"tick\" appears twice"), "%s", err.reason);
    /* Nested: cmd.frame twice. */
    len = (size_t)tick_line(text, sizeof text, 0, 0, 0, "\n");
    p = strstr(text, "\"total\"");
    memmove(p + 10, p, strlen(p) + 1);
    memcpy(p, "\"frame\":9,", 10);
    cr_assert_eq(read_all(text, strlen(text), &err, &ticks), -1);
    cr_assert(strstr(err.reason, "line 1: key \"cmd.frame\" appears twice"), "%s", err.reason);
    (void)len;
}

Test(trace_reader, duplicate_keys_found_anywhere, .init = setup, .fini = teardown)
{
    static const struct {
        const char *json, *where;
    } cases[] = {
        {"{\"a\":1,\"b\":2}", NULL},
        {"{\"a\":1,\"a\":2}", "a"},
        {"{\"a\":{\"b\":1,\"c\":{\"d\":1,\"d\":1}}}", "a.c.d"},
        {"{\"files\":[{\"n\":1},{\"n\":1,\"n\":2}]}", "files[1].n"},
        {"[{\"x\":1},{\"y\":[{\"z\":0,\"z\":0}]}]", "[1].y[0].z"},
        {"{\"A\":1,\"a\":2}", NULL}, /* keys are compared byte for byte */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *j = cJSON_Parse(cases[i].json);
        cr_assert_not_null(j);
        char where[64];
        int dup = json_keys_duplicate(j, where, sizeof where);
        cr_assert_eq(dup, cases[i].where != NULL, "%s", cases[i].json);
        if (dup) cr_assert_str_eq(where, cases[i].where, "%s", cases[i].json);
        cJSON_Delete(j);
    }
    /* An object of 5000 members, the last repeating the 2500th: found by sorting. */
    strbuf b;
    sb_init(&b);
    sb_putc(&b, '{');
    for (int i = 0; i < 5000; i++) sb_printf(&b, "%s\"k%d\":%d", i ? "," : "", i, i);
    sb_puts(&b, ",\"k2500\":0}");
    cJSON *j = cJSON_Parse(b.s);
    char where[64];
    cr_assert_eq(json_keys_duplicate(j, where, sizeof where), 1);
    cr_assert_str_eq(where, "k2500");
    cJSON_Delete(j);
    sb_free(&b);
}

Test(trace_reader, a_manifest_with_a_key_written_twice_is_refused, .init = setup, .fini = teardown)
{
    char *path = ts_path(scratch, TSET_MANIFEST);
    const char *text = "{\"format\":\"ff8diff-traces/1\",\"tool\":{\"version\":\"0.1.0\"},"
                       "\"corpus\":{\"path\":\"/a\"},\"corpus\":{\"path\":\"/b\"}}";
    ts_write(path, text, strlen(text));
    tset *s = NULL;
    ff_error err;
    cr_assert_eq(tset_load(scratch, &s, &err), -1);
    cr_assert(strstr(err.reason, "\"corpus\" appears twice"), "%s", err.reason);
    cr_assert_null(s);
    free(path);
}

Test(trace_reader, only_regular_files_are_opened, .init = setup, .fini = teardown, .timeout = 20)
{
    char *zero = ts_path(scratch, "a.dat.normal.jsonl"), *pipe = ts_path(scratch, "b.jsonl");
    cr_assert_eq(symlink("/dev/zero", zero), 0);
    cr_assert_eq(mkfifo(pipe, 0600), 0);
    ff_error err;
    cr_assert_null(tj_open(zero, &err), "a link to /dev/zero would never end");
    cr_assert(strstr(err.reason, "not a regular file"), "%s", err.reason);
    cr_assert_null(tj_open(pipe, &err), "a FIFO would block");
    cr_assert(strstr(err.reason, "not a regular file"), "%s", err.reason);
    /* The same for a manifest. */
    char *man = ts_path(scratch, TSET_MANIFEST);
    cr_assert_eq(symlink("/dev/zero", man), 0);
    tset *s = NULL;
    cr_assert_eq(tset_load(scratch, &s, &err), -1);
    free(man);
    free(zero);
    free(pipe);
}
