/*
 * tests/hostile/test_hostile_checked.c: nothing false from a checked
 * decoder's files, nothing unbounded from any file, through the built
 * ff8diff (`check --traces GOLDEN --against CANDIDATE` on the small
 * synthetic corpus, golden traces recorded by the test):
 *
 *   - a clip's lines given again after the last clip (Trace JSON Lines and
 *     frames), lines for a clip the model does not have (one past the last,
 *     anim 200): bad input of the clip they concern, naming file and line;
 *   - two files for one model (frames beside normal, .jsonl beside
 *     .jsonl.lz4): bad input naming both;
 *   - bytes after the JSON object of a line (another object, NUL and
 *     garbage, byte FF): "not valid JSON at column C";
 *   - a 60 MB line holding 31 M numbers under an unknown key: refused for
 *     its values, inside an address-space limit, with --jobs 1 and 2; an
 *     allocation that fails while reading JSON is out of memory, never a
 *     syntax error (json_read in a child whose address space is limited);
 *   - an LZ4 candidate of three lines and 3 GiB of blank lines, or of
 *     lines far past what the model's traces can need: refused;
 *   - text from input (a decoder's "error" sentence holding ESC, CSI U+009B
 *     and bytes FF FE; a file name holding ESC) shown as \xNN on the
 *     terminal, in index.html and summary.md (\u001b in report.json), never
 *     raw. (A forged cache entry that inflates to 2 GiB: test_hostile_cache.)
 *
 * Every expected line, column and clip comes from the edit the test makes.
 * Address-space limits are disabled in sanitizer builds (HS_SANITIZED).
 */
#include <criterion/criterion.h>
#include <lz4frame.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/json_read.h"
#include "common/sha256.h"
#include "tests/hostile/hs.h"

#define FILE_ "c0m001.dat"
#define TRACE_ FILE_ ".normal.jsonl"
#define PLAIN_AS (640ull << 20) /* check without an emulator, a 60 MB line read */
#define RUN_AS (1536ull << 20)  /* Unicorn reserves about 1.1 GiB */

static char *scratch, *corpus, *golden, *cand, *rep, *cache, *logs;

static void setup(void)
{
    scratch = ts_tempdir();
    corpus = ts_corpus(scratch);
    golden = ts_path(scratch, "golden");
    cand = ts_path(scratch, "cand");
    rep = ts_path(scratch, "rep");
    cache = ts_path(scratch, "cache");
    logs = ts_path(scratch, "logs");
    ts_out o;
    ts_cli(scratch, &o, "record -q --corpus '%s' --out '%s' --modes normal", corpus, golden);
    cr_assert_eq(o.status, 0, "record: %s", o.err);
    ts_out_free(&o);
    /* A decoder's folder: the golden lines, no manifest. */
    ts_sh(scratch, &o, "mkdir -p '%s' '%s' && cp '%s'/*.jsonl '%s'/", cand, logs, golden, cand);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
}

static void cleanup(void)
{
    free(corpus);
    free(golden);
    free(cand);
    free(rep);
    free(cache);
    free(logs);
    ts_rmtree(scratch);
}

/* check against the candidate folder; asserts the exit status, returns report.json. */
static cJSON *check(int want, char **err)
{
    ts_out o;
    ts_cli(scratch, &o, "check -q --modes normal --corpus '%s' --traces '%s' --against '%s' --out '%s'",
           corpus, golden, cand, rep);
    cr_assert_eq(o.status, want, "check: exit %d, expected %d: %s", o.status, want, o.err);
    if (err) *err = strdup(o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(rep);
    ts_sh(scratch, &o, "rm -rf '%s'", rep);
    ts_out_free(&o);
    return r;
}

static const char *message_of(const cJSON *report, const char *file, int clip)
{
    const cJSON *res = ts_result(report, file, clip, "normal");
    cr_assert(res, "no result for %s anim %d", file, clip);
    cr_assert_str_eq(hs_str(res, "status"), "bad_input", "%s anim %d", file, clip);
    return hs_str(cJSON_GetObjectItem(res, "error"), "message");
}

/* Lines of anim in lines[0..n) (the Trace JSON Lines writer's "anim":N, form). */
static size_t anim_lines(char **lines, size_t n, int anim, size_t *first)
{
    char key[32];
    size_t k = 0;
    snprintf(key, sizeof key, "\"anim\":%d,", anim);
    for (size_t i = 0; i < n; i++)
        if (strstr(lines[i], key) && !k++) *first = i;
    return k;
}

/* Every line of the file with `"anim":from,` also appended with anim `to` and root.x + 1. */
static void append_again(const char *path, int from, int to, size_t *first_old, size_t *first_new)
{
    size_t n, first = 0;
    char **lines = ts_lines(path, &n);
    size_t k = anim_lines(lines, n, from, &first);
    cr_assert_gt(k, 0, "anim %d has lines", from);
    lines = realloc(lines, (n + k) * sizeof *lines);
    char key[32], key2[32];
    snprintf(key, sizeof key, "\"anim\":%d,", from);
    snprintf(key2, sizeof key2, "\"anim\":%d,", to);
    for (size_t i = 0; i < k; i++) {
        const char *src = lines[first + i], *at = strstr(src, key);
        char *root = strstr(src, "\"root\":[");
        cr_assert(at && root);
        char *line = malloc(strlen(src) + 64);
        int x = atoi(root + 8);
        /* Head up to the anim, the new anim, on to the root, root.x + 1, the rest. */
        size_t head = (size_t)(at - src);
        const char *after_anim = at + strlen(key), *after_x = root + 8;
        while (*after_x == '-' || (*after_x >= '0' && *after_x <= '9')) after_x++;
        sprintf(line, "%.*s%s%.*s%d%s", (int)head, src, key2, (int)(root + 8 - after_anim),
                after_anim, x + 1, after_x);
        lines[n + i] = line;
    }
    *first_old = first + 1;
    *first_new = n + 1;
    ts_put_lines(path, lines, n + k);
}

Test(checked, a_clip_given_again_after_the_last_is_bad_input, .init = setup, .fini = cleanup,
     .timeout = 300)
{
    cJSON_Delete(check(0, NULL));
    char *path = ts_path(cand, TRACE_);
    size_t old_line, new_line;
    append_again(path, 1, 1, &old_line, &new_line);
    char *err;
    cJSON *r = check(2, &err);
    char want[128];
    snprintf(want, sizeof want, "line %zu: anim 1 given again (its lines from line %zu", new_line,
             old_line);
    cr_assert(strstr(message_of(r, FILE_, 1), want), "%s", message_of(r, FILE_, 1));
    cr_assert(strstr(err, want), "the terminal names it too: %s", err);
    cr_assert(strstr(message_of(r, FILE_, 1), path), "names the file");
    cr_assert_eq(ts_num(r, "totals.bad_input"), 1);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0);
    cJSON_Delete(r);
    free(err);
    free(path);
}

/* The candidate folder made by one of the examples' frames decoders (its path in the tree). */
static void frames_candidate(const char *example)
{
    ts_out o;
    char *ex = ts_source(example);
    ts_sh(scratch, &o, "rm -f '%s'/*.jsonl && '%s' '%s' '%s' '%s'/*.dat", cand, ts_python(), ex,
          cand, corpus);
    cr_assert_eq(o.status, 0, "%s: %s", example, o.err);
    ts_out_free(&o);
    free(ex);
}

Test(checked, a_frames_clip_given_again_is_bad_input, .init = setup, .fini = cleanup,
     .timeout = 300)
{
    /* A frames decoder that passes (examples/frames_no_scale.py), then one clip again. */
    frames_candidate("examples/frames_no_scale.py");
    cJSON_Delete(check(0, NULL));
    char *path = ts_path(cand, FILE_ ".frames.jsonl");
    size_t n, first = 0;
    char **lines = ts_lines(path, &n);
    size_t k = anim_lines(lines, n, 2, &first);
    cr_assert_gt(k, 0);
    lines = realloc(lines, (n + k) * sizeof *lines);
    for (size_t i = 0; i < k; i++) lines[n + i] = strdup(lines[first + i]);
    ts_put_lines(path, lines, n + k);
    cJSON *r = check(2, NULL);
    char want[96];
    snprintf(want, sizeof want, "line %zu: anim 2 given again", n + 1);
    cr_assert(strstr(message_of(r, FILE_, 2), want), "%s", message_of(r, FILE_, 2));
    cr_assert_eq(ts_num(r, "totals.bad_input"), 1);
    cJSON_Delete(r);
    free(path);
}

Test(checked, lines_for_a_clip_the_model_lacks_are_bad_input, .init = setup, .fini = cleanup,
     .timeout = 300)
{
    unsigned bones;
    char *dat = ts_path(corpus, FILE_), *path = ts_path(cand, TRACE_);
    unsigned clips = ts_dat_clips(dat, &bones);
    cr_assert_gt(clips, 1);
    const int extra[2] = {(int)clips, 200};
    for (int i = 0; i < 2; i++) {
        ts_out o;
        ts_sh(scratch, &o, "cp '%s/%s' '%s'", golden, TRACE_, path);
        ts_out_free(&o);
        size_t old_line, new_line;
        append_again(path, 0, extra[i], &old_line, &new_line);
        cJSON *r = check(2, NULL);
        char want[128];
        snprintf(want, sizeof want, "line %zu: anim %d, past the model's last clip (it has %u",
                 new_line, extra[i], clips);
        const char *msg = message_of(r, FILE_, (int)clips - 1);
        cr_assert(strstr(msg, want), "anim %d: %s", extra[i], msg);
        cr_assert_eq(ts_num(r, "totals.bad_input"), 1);
        cJSON_Delete(r);
    }
    free(dat);
    free(path);
}

/* path compressed as one LZ4 frame into path + ".lz4". */
static void lz4_copy(const char *path)
{
    size_t n;
    char *text = ts_read(path, &n), out[4200];
    size_t cap = LZ4F_compressFrameBound(n, NULL);
    char *packed = malloc(cap);
    size_t k = LZ4F_compressFrame(packed, cap, text, n, NULL);
    cr_assert(!LZ4F_isError(k));
    snprintf(out, sizeof out, "%s.lz4", path);
    ts_write(out, packed, k);
    free(packed);
    free(text);
}

Test(checked, two_files_for_one_model_are_bad_input_naming_both, .init = setup, .fini = cleanup,
     .timeout = 300)
{
    char *path = ts_path(cand, TRACE_), *frames = ts_path(cand, FILE_ ".frames.jsonl");
    ts_out o;
    ts_sh(scratch, &o, "cp '%s' '%s'", path, frames);
    ts_out_free(&o);
    cJSON *r = check(2, NULL);
    const char *msg = message_of(r, FILE_, 0);
    cr_assert(strstr(msg, FILE_ ".normal.jsonl and " FILE_ ".frames.jsonl"), "%s", msg);
    message_of(r, FILE_, 1); /* every clip of the file */
    cJSON_Delete(r);
    cr_assert_eq(unlink(frames), 0);
    lz4_copy(path);
    r = check(2, NULL);
    msg = message_of(r, FILE_, 0);
    cr_assert(strstr(msg, FILE_ ".normal.jsonl and " FILE_ ".normal.jsonl.lz4"), "%s", msg);
    cJSON_Delete(r);
    free(frames);
    free(path);
}

Test(checked, bytes_after_the_object_are_not_valid_json, .init = setup, .fini = cleanup,
     .timeout = 300)
{
    static const struct {
        const char *tail;
        size_t len, column_after; /* the garbage's column, counted after the object */
    } tails[] = {
        {" {\"root\":[1,2,3]}", 17, 2},
        {"\0garbage", 8, 1},
        {"\xff", 1, 1},
    };
    char *path = ts_path(cand, TRACE_);
    for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
        ts_out o;
        ts_sh(scratch, &o, "cp '%s/%s' '%s'", golden, TRACE_, path);
        ts_out_free(&o);
        size_t size;
        char *text = ts_read(path, &size);
        /* Line 3 (anim 0 or later): the tail after its closing brace. */
        char *l3 = text;
        for (int i = 0; i < 2; i++) l3 = strchr(l3, '\n') + 1;
        size_t len3 = (size_t)(strchr(l3, '\n') - l3), at = (size_t)(l3 - text) + len3;
        char *edited = malloc(size + tails[t].len);
        memcpy(edited, text, at);
        memcpy(edited + at, tails[t].tail, tails[t].len);
        memcpy(edited + at + tails[t].len, text + at, size - at);
        ts_write(path, edited, size + tails[t].len);
        int anim = atoi(strstr(l3, "\"anim\":") + 7);
        free(edited);
        free(text);
        char *err;
        cJSON *r = check(2, &err);
        char want[96];
        snprintf(want, sizeof want, "line 3: not valid JSON at column %zu", len3 + tails[t].column_after);
        const char *msg = message_of(r, FILE_, anim);
        cr_assert(strstr(msg, want), "tail %zu: %s", t, msg);
        cr_assert_eq(ts_num(r, "totals.bad_input"), 1, "tail %zu", t);
        cr_assert_null(strchr(err, '\xff'), "the terminal gets no raw byte FF");
        cJSON_Delete(r);
        free(err);
    }
    free(path);
}

/* Line 1 of the candidate with ,"extra":[1,1,...] (count numbers) before its closing brace. */
static void widen_first_line(size_t count)
{
    char *path = ts_path(cand, TRACE_);
    size_t size;
    char *text = ts_read(path, &size);
    size_t brace = (size_t)(strchr(text, '\n') - text) - 1;
    cr_assert_eq(text[brace], '}');
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    fwrite(text, 1, brace, f);
    fputs(",\"extra\":[", f);
    for (size_t i = 0; i < count; i++) fputs(i ? ",1" : "1", f);
    fputc(']', f);
    fwrite(text + brace, 1, size - brace, f);
    cr_assert_eq(fclose(f), 0);
    free(text);
    free(path);
}

Test(checked, a_line_of_31_million_numbers_is_refused_within_bounded_memory, .init = setup,
     .fini = cleanup, .timeout = 600, .disabled = HS_SANITIZED)
{
    /* 30 M numbers of 2 bytes each: a 60 MB line, under the 64 MiB line limit. */
    ts_out o;
    widen_first_line(30000000);
    for (int jobs = 1; jobs <= 2; jobs++) {
        char j[4];
        snprintf(j, sizeof j, "%d", jobs);
        const char *argv[] = {hs_cli(), "check",  "-q",    "--jobs", j,      "--modes",
                              "normal", "--corpus", corpus, "--traces", golden, "--against",
                              cand,     "--out",    rep,    NULL};
        int st = hs_run_limited(argv, cache, logs, PLAIN_AS, 0);
        char *err = hs_log(logs, "stderr");
        cr_assert_eq(st, 2, "--jobs %d: bad input, exit 2, not %d: %s", jobs, st, err);
        cr_assert(strstr(err, "line 1: refused at column"), "%s", err);
        cr_assert(strstr(err, "holds more than 1048576 values"), "%s", err);
        cr_assert_null(strstr(err, "not valid JSON"), "%s", err);
        free(err);
        ts_sh(scratch, &o, "rm -rf '%s'", rep);
        ts_out_free(&o);
    }
}

/*
 * json_read in a child whose address space leaves 2 MiB: text it cannot
 * hold is out of memory, never a syntax error. Exits 0 when it said so.
 */
static int read_starved(const char *text, size_t len)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        long pages = 0, page = sysconf(_SC_PAGESIZE);
        FILE *f = fopen("/proc/self/statm", "r");
        if (!f || fscanf(f, "%ld", &pages) != 1) _exit(10);
        fclose(f);
        struct rlimit rl = {(rlim_t)pages * (rlim_t)page + (2u << 20),
                            (rlim_t)pages * (rlim_t)page + (2u << 20)};
        if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(11);
        json_read_limits lim = {1u << 28, 8};
        json_read_error e;
        cJSON *out;
        int rc = json_read(text, len, &lim, &out, &e);
        _exit(rc == 0 ? 12 : e.kind == JSON_READ_NOMEM ? 0 : 13);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

Test(checked, an_allocation_that_fails_is_out_of_memory_not_bad_json, .timeout = 120,
     .disabled = HS_SANITIZED)
{
    /*
     * Sixteen million numbers (a tree of about 1.2 GiB), then a string of 80 M escapes
     * (yajl's decoding buffer, 80 MiB: past the 64 MiB a thread's malloc arena may hold
     * reserved already).
     */
    size_t n = 80u << 20, len = 0;
    char *text = malloc(2 * n + 2);
    text[len++] = '[';
    for (size_t i = 0; i < (16u << 20); i++) {
        if (i) text[len++] = ',';
        text[len++] = '7';
    }
    text[len++] = ']';
    int st = read_starved(text, len);
    cr_assert_eq(st, 0, "numbers: not out of memory (%d)", st);
    len = 0;
    text[len++] = '"';
    while (len + 3 < 2 * n) {
        text[len++] = '\\';
        text[len++] = 'n';
    }
    text[len++] = '"';
    st = read_starved(text, len);
    cr_assert_eq(st, 0, "escaped string: not out of memory (%d)", st);
    free(text);
}

/* An LZ4 frame of head then `repeat` copies of unit, streamed (never held whole). */
static void lz4_stream(const char *path, const char *head, const char *unit, uint64_t repeat)
{
    LZ4F_cctx *cx;
    cr_assert(!LZ4F_isError(LZ4F_createCompressionContext(&cx, LZ4F_VERSION)));
    size_t chunk = 1u << 20, cap = LZ4F_compressBound(chunk, NULL) + 64;
    char *in = malloc(chunk), *out = malloc(cap);
    size_t ul = strlen(unit), per = chunk / ul;
    for (size_t i = 0; i < per; i++) memcpy(in + i * ul, unit, ul);
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    size_t k = LZ4F_compressBegin(cx, out, cap, NULL);
    fwrite(out, 1, k, f);
    k = LZ4F_compressUpdate(cx, out, cap, head, strlen(head), NULL);
    fwrite(out, 1, k, f);
    for (uint64_t done = 0; done < repeat; done += per) {
        size_t m = repeat - done < per ? (size_t)(repeat - done) : per;
        k = LZ4F_compressUpdate(cx, out, cap, in, m * ul, NULL);
        cr_assert(!LZ4F_isError(k));
        fwrite(out, 1, k, f);
    }
    k = LZ4F_compressEnd(cx, out, cap, NULL);
    fwrite(out, 1, k, f);
    cr_assert_eq(fclose(f), 0);
    LZ4F_freeCompressionContext(cx);
    free(in);
    free(out);
}

/* The first three lines of the golden trace (anim 0's first calls), malloc'd. */
static char *three_lines(void)
{
    char *path = ts_path(golden, TRACE_);
    size_t size;
    char *text = ts_read(path, &size), *p = text;
    for (int i = 0; i < 3; i++) p = strchr(p, '\n') + 1;
    *p = '\0';
    free(path);
    return text;
}

Test(checked, an_lz4_candidate_of_blank_lines_or_bulk_is_refused, .init = setup, .fini = cleanup,
     .timeout = 600)
{
    char *head = three_lines(), *path = ts_path(cand, TRACE_), *lz = ts_path(cand, TRACE_ ".lz4");
    cr_assert_eq(unlink(path), 0);
    lz4_stream(lz, head, "\n", 3ull << 30); /* 3 GiB of blank lines */
    cJSON *r = check(2, NULL);
    const char *msg = message_of(r, FILE_, 0);
    cr_assert(strstr(msg, "line 4100: more than 4096 blank lines in a row"), "%s", msg);
    cJSON_Delete(r);
    /* Far past what the model's traces can need: 1 GiB of 60 KB lines that are no clip's. */
    static char bulk[60001];
    memset(bulk, 'x', sizeof bulk - 2);
    memcpy(bulk, "{\"pad\":\"", 8);
    memcpy(bulk + sizeof bulk - 4, "\"}\n", 3);
    lz4_stream(lz, head, bulk, (1ull << 30) / sizeof bulk);
    r = check(2, NULL);
    char *dat = ts_path(corpus, FILE_);
    unsigned bones, clips = ts_dat_clips(dat, &bones);
    free(dat);
    msg = message_of(r, FILE_, (int)clips - 1);
    cr_assert(strstr(msg, "the LZ4 frame inflates past"), "%s", msg);
    cJSON_Delete(r);
    free(head);
    free(path);
    free(lz);
}

/* 1 when the n bytes at p hold ESC, a C1 control (C2 80..9F) or a byte that starts no UTF-8. */
static int raw_control(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == 0x1B || c == 0xFF || c == 0xFE) return 1;
        if (c == 0xC2 && i + 1 < n && (unsigned char)p[i + 1] < 0xA0) return 1;
    }
    return 0;
}

static void expect_escaped(const char *path, const char *esc)
{
    size_t n;
    char *text = ts_read(path, &n);
    cr_assert_not(raw_control(text, n), "%s holds a raw control or non-UTF-8 byte", path);
    cr_assert(strstr(text, esc), "%s shows ESC as %s", path, esc);
    cr_assert(strstr(text, "xc2"), "%s shows CSI's bytes as \\xc2\\x9b", path);
    free(text);
}

Test(checked, text_from_input_is_escaped_everywhere, .init = setup, .fini = cleanup,
     .timeout = 300)
{
    /* A frames decoder's "error" sentence holding ESC, CSI (U+009B) and bytes FF FE, in the
     * first file with one but c0m000 (which gets a bad file name below): its rows come
     * early, before summary.md folds the table. */
    frames_candidate("examples/frames_give_up.py");
    ts_out o;
    ts_sh(scratch, &o,
          "cd '%s' && f=$(grep -l '\"error\"' *.frames.jsonl | grep -v c0m000 | head -1) && "
          "sed -i '0,/\"error\":\"/s//\"error\":\"\\\\u001b[31m\\xc2\\x9b2J\\xff\\xfe /' \"$f\" && "
          "grep -c $(printf '\\377') \"$f\"",
          cand);
    cr_assert_eq(o.status, 0, "the sentence was planted: %s", o.err);
    ts_out_free(&o);
    /* And a line naming a file whose name holds ESC: its error reaches the terminal. */
    char *path = ts_path(cand, "c0m000.dat.frames.jsonl");
    size_t n;
    char **lines = ts_lines(path, &n);
    char *bad = malloc(strlen(lines[0]) + 16);
    char *at = strstr(lines[0], "c0m000.dat");
    cr_assert(at);
    sprintf(bad, "%.*sc0m000\\u001b[31m.dat%s", (int)(at - lines[0]), lines[0], at + 10);
    free(lines[0]);
    lines[0] = bad;
    ts_put_lines(path, lines, n);
    free(path);
    ts_cli(scratch, &o, "check --modes normal --corpus '%s' --traces '%s' --against '%s' --out '%s'",
           corpus, golden, cand, rep);
    /* Clips not decoded (the decoder gives up) outrank the bad input: exit 1. */
    cr_assert_eq(o.status, 1, "exit %d: %s", o.status, o.err);
    cr_assert_not(raw_control(o.err, strlen(o.err)), "the terminal got a raw control: %s", o.err);
    cr_assert(strstr(o.err, "c0m000\\x1b[31m.dat"), "%s", o.err);
    ts_out_free(&o);
    ts_sh(scratch, &o, "ls -d '%s'/*/", rep);
    char *run_dir = strdup(strtok(o.out, "\n"));
    ts_out_free(&o);
    /* JSON writes ESC its own way, \u001b; a reader of it meets the escape the others show. */
    static const char *const outputs[] = {"index.html", "summary.md", "report.json"};
    static const char *const escs[] = {"\\x1b", "\\x1b", "\\u001b"};
    for (int i = 0; i < 3; i++) {
        char *p = ts_path(run_dir, outputs[i]);
        expect_escaped(p, escs[i]);
        free(p);
    }
    free(run_dir);
}

/* The entity level reads its files the same way: a clip's lines again are bad input. */
Test(checked, an_entity_clip_given_again_is_bad_input, .init = setup, .fini = cleanup,
     .timeout = 300)
{
    ts_out o;
    char *eg = ts_path(scratch, "entity-golden"), *ec = ts_path(scratch, "entity-cand");
    ts_cli(scratch, &o, "record -q --corpus '%s' --out '%s' --modes normal --levels entity", corpus,
           eg);
    cr_assert_eq(o.status, 0, "record: %s", o.err);
    ts_out_free(&o);
    ts_sh(scratch, &o, "mkdir -p '%s' && cp '%s'/*.entity.*.jsonl '%s'/ && ls '%s' | grep + | head -1",
          ec, eg, ec, ec);
    cr_assert_eq(o.status, 0, "%s", o.err);
    char name[512];
    snprintf(name, sizeof name, "%s", strtok(o.out, "\n"));
    ts_out_free(&o);
    char *path = ts_path(ec, name);
    size_t old_line, new_line;
    append_again(path, 1, 1, &old_line, &new_line);
    ts_cli(scratch, &o,
           "check --modes normal --levels entity --corpus '%s' --traces '%s' --against '%s' "
           "--out '%s'",
           corpus, eg, ec, rep);
    cr_assert_eq(o.status, 2, "exit %d: %s%s", o.status, o.out, o.err);
    char want[160];
    snprintf(want, sizeof want, "line %zu: anim 1 given again (its lines from line %zu", new_line,
             old_line);
    cr_assert(strstr(o.err, want), "%s", o.err);
    cr_assert(strstr(o.out, "1 bad input"), "%s", o.out);
    ts_out_free(&o);
    free(path);
    free(eg);
    free(ec);
}
