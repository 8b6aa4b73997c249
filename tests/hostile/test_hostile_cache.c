/*
 * tests/hostile/test_hostile_cache.c: the results cache may never turn into
 * a verdict, through the built ff8diff:
 *   - one flipped byte in every entry: the next run rejects them all,
 *     emulates, matches as before (no false mismatch), counts the
 *     rejections, and the run after it reads the rewritten entries;
 *   - a clean build's entry copied over a mutant build's entry (the
 *     "misfiled" entry): the mutant's real mismatches are still found
 *     (no false match);
 *   - a cache that cannot be written: one warning, the run goes on;
 *   - an entry forged with a recomputed checksum whose payload inflates to
 *     2 GiB, declaring that size or not: refused without being inflated
 *     whole (inside an address-space limit), the run emulates and passes;
 *   - a matching clip is kept as a digest (a clean entry a fraction of a
 *     mutant's), a mismatching clip keeps its rows: the mutant's second run,
 *     from the cache, reports every mismatch with the same detail;
 *   - a digest the reference does not give (as when the reference changed),
 *     checksum recomputed: that clip is emulated again, never taken as the
 *     original's, and the entry stored again.
 * Entries are found on disk (<cache>/results/<2 hex>/<64 hex>.bin); what an
 * entry belongs to is learnt by which run wrote it, never from the key code.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <lz4frame.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "common/sha256.h"
#include "tests/hostile/hs.h"
#include "tests/support/ts_engine.h"

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

/* The entries of clip units in the cache, sorted (malloc'd paths): a pose run's convention
 * search also remembers its result (key file=pose-search), which these tests leave out. */
static char **entries(size_t *n)
{
    ts_out o;
    ts_sh(scratch, &o,
          "find '%s/results' -name '*.bin' -type f | sort | "
          "while read f; do grep -q 'file=pose-search|' \"$f\" || echo \"$f\"; done",
          cache);
    cr_assert_eq(o.status, 0);
    size_t cap = 16, k = 0;
    char **v = malloc(cap * sizeof *v);
    for (char *line = strtok(o.out, "\n"); line; line = strtok(NULL, "\n")) {
        if (k == cap) v = realloc(v, (cap *= 2) * sizeof *v);
        v[k++] = strdup(line);
    }
    ts_out_free(&o);
    *n = k;
    return v;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* Runs ff8diff (argv after the program), returns the exit status; the report is in out. */
/* A folder holding one file of the synthetic corpus (scratch/one/c0m002.dat): one file
 * in one mode writes one entry a level. */
static char *one_file_corpus(void)
{
    char *corpus = ts_corpus(scratch), *one = ts_path(scratch, "one");
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p '%s' && cp '%s/c0m002.dat' '%s/'", one, corpus, one);
    cr_assert_eq(o.status, 0);
    ts_out_free(&o);
    free(corpus);
    return one;
}

static int run(const char *out, const char *const *args)
{
    const char *argv[24] = {hs_cli()};
    size_t n = 1;
    for (; args[n - 1]; n++) argv[n] = args[n - 1];
    argv[n++] = "--out";
    argv[n++] = out;
    argv[n] = NULL;
    return hs_run(argv, cache, logs);
}

Test(cache_hostile, a_flipped_byte_in_every_entry_is_no_verdict, .init = setup, .fini = cleanup,
     .timeout = 300)
{
    char *corpus = ts_corpus(scratch);
    char *r1 = ts_path(scratch, "r1"), *r2 = ts_path(scratch, "r2"), *r3 = ts_path(scratch, "r3");
    const char *args[] = {"run", "-q", "--corpus", corpus, "--modes", "normal,slow", NULL};
    cr_assert_eq(run(r1, args), 0, "the clean run matches");
    cJSON *r = ts_report(r1);
    double comparisons = ts_num(r, "totals.comparisons");
    cJSON_Delete(r);
    size_t n;
    char **e = entries(&n);
    cr_assert(n >= 10, "one entry per file and mode: %zu", n);
    for (size_t i = 0; i < n; i++) {
        size_t size;
        char *bytes = ts_read(e[i], &size);
        /* Each entry at another place: the header, the key, the payload, the last byte. */
        size_t at = (i % 4 == 0) ? 20 : (i % 4 == 1) ? 70 : (i % 4 == 2) ? size / 2 : size - 1;
        bytes[at] ^= 0x10;
        ts_write(e[i], bytes, size);
        free(bytes);
    }
    int st = run(r2, args);
    char *err = hs_log(logs, "stderr");
    cr_assert_eq(st, 0, "a damaged cache turned a clean run into exit %d: %s", st, err);
    cr_assert_eq(ts_count(err, "refused and emulated again"), 1, "one warning: %s", err);
    free(err);
    r = ts_report(r2);
    cr_assert_eq(ts_num(r, "totals.match"), comparisons, "no false mismatch");
    cr_assert_eq(ts_num(r, "totals.cache_rejected"), (double)n, "every entry rejected");
    cr_assert_eq(ts_num(r, "totals.sources.cache"), 0, "no clip from a damaged entry");
    cJSON_Delete(r);
    /* The rejected entries were stored again: the third run reads them all. */
    cr_assert_eq(run(r3, args), 0);
    r = ts_report(r3);
    cr_assert_eq(ts_num(r, "totals.sources.cache"), comparisons);
    cr_assert_eq(ts_num(r, "totals.cache_rejected"), 0);
    cJSON_Delete(r);
    free_list(e, n);
    free(r1);
    free(r2);
    free(r3);
    free(corpus);
}

Test(cache_hostile, a_clean_entry_over_a_mutant_entry_is_no_match, .init = setup,
     .fini = cleanup, .timeout = 300)
{
    /* One file, one mode: each executable writes exactly one entry. */
    char *one = one_file_corpus();
    char *mutant = hs_standin("standin_mut_a.exe");
    char *r0 = ts_path(scratch, "r0"), *r1 = ts_path(scratch, "r1"), *r2 = ts_path(scratch, "r2"),
         *r3 = ts_path(scratch, "r3");
    const char *nocache[] = {"run", "-q", "--no-cache", "--exe", mutant, "--profile", "standin",
                             "--corpus", one, "--modes", "normal", NULL};
    cr_assert_eq(run(r0, nocache), 1, "the mutant mismatches");
    cJSON *r = ts_report(r0);
    double mismatches = ts_num(r, "totals.mismatch");
    cr_assert(mismatches > 0);
    cJSON_Delete(r);
    const char *clean[] = {"run", "-q", "--corpus", one, "--modes", "normal", NULL};
    cr_assert_eq(run(r1, clean), 0);
    size_t n1, n2;
    char **e1 = entries(&n1);
    cr_assert_eq(n1, 1);
    const char *mut[] = {"run", "-q", "--exe", mutant, "--profile", "standin", "--corpus", one,
                         "--modes", "normal", NULL};
    cr_assert_eq(run(r2, mut), 1);
    char **e2 = entries(&n2);
    cr_assert_eq(n2, 2);
    const char *mutant_entry = strcmp(e2[0], e1[0]) == 0 ? e2[1] : e2[0];
    /* The clean build's result, copied over the mutant's name. */
    size_t size;
    char *bytes = ts_read(e1[0], &size);
    ts_write(mutant_entry, bytes, size);
    free(bytes);
    int st = run(r3, mut);
    cr_assert_eq(st, 1, "a misfiled entry turned real mismatches into exit %d", st);
    r = ts_report(r3);
    cr_assert_eq(ts_num(r, "totals.mismatch"), mismatches, "every real mismatch is found");
    cr_assert_eq(ts_num(r, "totals.cache_rejected"), 1);
    cr_assert_eq(ts_num(r, "totals.sources.cache"), 0);
    cJSON_Delete(r);
    free_list(e1, n1);
    free_list(e2, n2);
    free(r0);
    free(r1);
    free(r2);
    free(r3);
    free(mutant);
    free(one);
}

Test(cache_hostile, a_cache_that_cannot_be_written_is_one_warning, .init = setup, .fini = cleanup,
     .timeout = 300)
{
    /* Every entry folder name taken by a plain file: no entry can be stored. */
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p '%s/results' && cd '%s/results' && for a in 0 1 2 3 4 5 6 7 8 9 "
          "a b c d e f; do for b in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do : > $a$b; done; done",
          cache, cache);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    char *corpus = ts_corpus(scratch), *out = ts_path(scratch, "r");
    const char *args[] = {"run", "-q", "--corpus", corpus, "--modes", "fast", NULL};
    int st = run(out, args);
    char *err = hs_log(logs, "stderr");
    cr_assert_eq(st, 0, "the run goes on: exit %d (%s)", st, err);
    cr_assert_eq(ts_count(err, "warning: the results cache could not be written"), 1,
                 "one warning: %s", err);
    free(err);
    cJSON *r = ts_report(out);
    const cJSON *w = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "warnings");
    /* One warning about the cache (on a slow Unicorn, its own warning besides). */
    int cache_warnings = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, w)
    {
        if (strstr(it->valuestring, "could not be written")) cache_warnings++;
        else cr_assert(strstr(it->valuestring, "slow path"), "%s", it->valuestring);
    }
    cr_assert_eq(cache_warnings, 1);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0);
    cr_assert(ts_num(r, "totals.match") > 0);
    cJSON_Delete(r);
    free(out);
    free(corpus);
}

/*
 * Entry e's payload replaced by an LZ4 frame of the outcome blob's 20-byte
 * header (taken from its own payload) and 2 GiB of zeros, streamed, with
 * its content size declared or not; the checksum recomputed, as a forger
 * who can write the cache folder would.
 */
static void forge_bomb(const char *e, int declare)
{
    size_t size;
    uint8_t *entry = (uint8_t *)ts_read(e, &size);
    uint32_t klen = le_u32(entry + 12);
    uint8_t *payload = entry + 56 + klen;
    size_t plen = size - 56 - klen;
    char head[20];
    LZ4F_dctx *dx;
    cr_assert(!LZ4F_isError(LZ4F_createDecompressionContext(&dx, LZ4F_VERSION)));
    size_t hn = sizeof head, in = plen;
    LZ4F_decompress(dx, head, &hn, payload, &in, NULL);
    LZ4F_freeDecompressionContext(dx);
    cr_assert_eq(hn, sizeof head, "the blob's header");
    LZ4F_cctx *cx;
    cr_assert(!LZ4F_isError(LZ4F_createCompressionContext(&cx, LZ4F_VERSION)));
    LZ4F_preferences_t prefs;
    memset(&prefs, 0, sizeof prefs);
    uint64_t total = sizeof head + (2ull << 30);
    if (declare) prefs.frameInfo.contentSize = total;
    size_t chunk = 1u << 20, cap = LZ4F_compressBound(chunk, &prefs) + 64, used = 0;
    char *zeros = calloc(1, chunk);
    uint8_t *out = malloc(16u << 20), *tmp = malloc(cap);
    used += LZ4F_compressBegin(cx, out, cap, &prefs);
    used += LZ4F_compressUpdate(cx, out + used, cap, head, sizeof head, NULL);
    for (uint64_t done = 0; done < (2ull << 30); done += chunk) {
        size_t k = LZ4F_compressUpdate(cx, tmp, cap, zeros, chunk, NULL);
        cr_assert(!LZ4F_isError(k) && used + k < (16u << 20), "the bomb stays small");
        memcpy(out + used, tmp, k);
        used += k;
    }
    used += LZ4F_compressEnd(cx, out + used, cap, NULL);
    LZ4F_freeCompressionContext(cx);
    uint8_t *forged = malloc(56 + klen + used);
    memcpy(forged, entry, 56 + klen);
    le_put32(forged + 16, (uint32_t)used);
    le_put32(forged + 20, (uint32_t)((uint64_t)used >> 32));
    memcpy(forged + 56 + klen, out, used);
    sha256_part parts[2] = {{forged + 56, klen}, {out, used}};
    ff_error err;
    cr_assert_eq(sha256_parts(parts, 2, forged + 24, &err), 0);
    ts_write(e, forged, 56 + klen + used);
    free(forged);
    free(out);
    free(tmp);
    free(zeros);
    free(entry);
}

Test(cache_hostile, a_forged_entry_inflating_to_2_gib_is_refused_unread, .init = setup,
     .fini = cleanup, .timeout = 600, .disabled = HS_SANITIZED)
{
    char *corpus = ts_corpus(scratch), *out = ts_path(scratch, "r");
    const char *args[] = {"run", "-q", "--jobs", "1", "--corpus", corpus, "--modes", "normal", NULL};
    cr_assert_eq(run(out, args), 0);
    size_t n;
    char **e = entries(&n);
    cr_assert_gt(n, 1);
    static const char *const said[2] = {"inflates past", "refused before inflating"};
    for (int declare = 0; declare < 2; declare++) {
        forge_bomb(e[declare], declare);
        const char *argv[] = {hs_cli(), "run",  "-q",   "--jobs", "1",  "--corpus", corpus,
                              "--modes", "normal", "--out", out,    NULL};
        int st = hs_run_limited(argv, cache, logs, 1536ull << 20, 0);
        char *err = hs_log(logs, "stderr");
        cr_assert_eq(st, 0, "declared %d: exit %d: %s", declare, st, err);
        cr_assert(strstr(err, "refused and emulated again"), "%s", err);
        cr_assert(strstr(err, said[declare]), "declared %d: %s", declare, err);
        free(err);
    }
    free_list(e, n);
    free(out);
    free(corpus);
}

/* Results equal record by record, the source aside; the groups too. */
static void same_results(const cJSON *a, const cJSON *b)
{
    const cJSON *ra = cJSON_GetObjectItem(a, "results"), *rb = cJSON_GetObjectItem(b, "results");
    cr_assert_eq(cJSON_GetArraySize(ra), cJSON_GetArraySize(rb));
    for (int i = 0; i < cJSON_GetArraySize(ra); i++) {
        cJSON *x = cJSON_Duplicate(cJSON_GetArrayItem(ra, i), 1);
        cJSON *y = cJSON_Duplicate(cJSON_GetArrayItem(rb, i), 1);
        cJSON_DeleteItemFromObject(x, "source");
        cJSON_DeleteItemFromObject(y, "source");
        char *tx = cJSON_PrintUnformatted(x), *ty = cJSON_PrintUnformatted(y);
        cr_assert(cJSON_Compare(x, y, 1), "result %d differs:\n%s\n%s", i, tx, ty);
        free(tx);
        free(ty);
        cJSON_Delete(x);
        cJSON_Delete(y);
    }
    cr_assert(cJSON_Compare(cJSON_GetObjectItem(a, "groups"), cJSON_GetObjectItem(b, "groups"), 1));
}

static size_t file_size(const char *path)
{
    size_t n;
    free(ts_read(path, &n));
    return n;
}

Test(cache_hostile, a_mismatching_clip_keeps_its_detail_a_matching_one_is_a_digest, .init = setup,
     .fini = cleanup, .timeout = 300)
{
    char *one = one_file_corpus();
    char *mutant = hs_standin("standin_mut_a.exe");
    char *r1 = ts_path(scratch, "r1"), *r2 = ts_path(scratch, "r2"), *r3 = ts_path(scratch, "r3");
    const char *clean[] = {"run", "-q", "--corpus", one, "--modes", "normal", "--levels",
                           "frame,pose", NULL};
    cr_assert_eq(run(r1, clean), 0);
    size_t n1, n2;
    char **e1 = entries(&n1);
    cr_assert_eq(n1, 1);
    const char *mut[] = {"run", "-q", "--exe", mutant, "--profile", "standin", "--corpus", one,
                         "--modes", "normal", "--levels", "frame,pose", NULL};
    cr_assert_eq(run(r2, mut), 1, "the mutant mismatches");
    char **e2 = entries(&n2);
    cr_assert_eq(n2, 2);
    const char *mutant_entry = strcmp(e2[0], e1[0]) == 0 ? e2[1] : e2[0];
    cJSON *first = ts_report(r2);
    double mismatches = ts_num(first, "totals.mismatch"), comparisons =
                                                              ts_num(first, "totals.comparisons");
    cr_assert(mismatches > 0);
    /* Every clean clip is a 72-byte record; the mutant's mismatching clips keep their rows. */
    size_t clean_size = file_size(e1[0]), mutant_size = file_size(mutant_entry);
    cr_assert_lt(clean_size, 4096, "a clean entry of %zu bytes", clean_size);
    cr_assert_gt(mutant_size, 4 * clean_size, "the mutant's entry (%zu bytes, %g mismatches) vs "
                 "the clean one's %zu", mutant_size, mismatches, clean_size);
    cr_assert_eq(run(r3, mut), 1);
    cJSON *second = ts_report(r3);
    cr_assert_eq(ts_num(second, "run.emulated_calls"), 0, "the mutant's second run emulated");
    cr_assert_eq(ts_num(second, "totals.sources.cache"), comparisons);
    cr_assert_eq(ts_num(second, "totals.mismatch"), mismatches);
    same_results(first, second);
    cJSON_Delete(first);
    cJSON_Delete(second);
    free_list(e1, n1);
    free_list(e2, n2);
    free(r1);
    free(r2);
    free(r3);
    free(mutant);
    free(one);
}

/* The outcome blob of entry bytes (size), inflated (caller frees), and its key's length. */
static uint8_t *entry_blob(const uint8_t *entry, size_t size, size_t *blob_len, uint32_t *klen)
{
    *klen = le_u32(entry + 12);
    const uint8_t *payload = entry + 56 + *klen;
    size_t plen = size - 56 - *klen, cap = 64u << 20;
    uint8_t *blob = malloc(cap);
    LZ4F_dctx *dx;
    cr_assert(!LZ4F_isError(LZ4F_createDecompressionContext(&dx, LZ4F_VERSION)));
    size_t out = cap, in = plen;
    size_t rc = LZ4F_decompress(dx, blob, &out, payload, &in, NULL);
    LZ4F_freeDecompressionContext(dx);
    cr_assert(rc == 0 && in == plen, "the entry's payload inflates whole");
    *blob_len = out;
    return blob;
}

/* Entry e made of its own key and blob, the checksum recomputed as a forger would. */
static void entry_rewrite(const char *e, const uint8_t *entry, uint32_t klen, const uint8_t *blob,
                          size_t blob_len)
{
    LZ4F_preferences_t prefs;
    memset(&prefs, 0, sizeof prefs);
    size_t cap = LZ4F_compressFrameBound(blob_len, &prefs);
    uint8_t *forged = malloc(56 + klen + cap);
    memcpy(forged, entry, 56 + klen);
    size_t used = LZ4F_compressFrame(forged + 56 + klen, cap, blob, blob_len, &prefs);
    cr_assert(!LZ4F_isError(used));
    le_put32(forged + 16, (uint32_t)used);
    le_put32(forged + 20, (uint32_t)((uint64_t)used >> 32));
    sha256_part parts[2] = {{forged + 56, klen}, {forged + 56 + klen, used}};
    ff_error err;
    cr_assert_eq(sha256_parts(parts, 2, forged + 24, &err), 0);
    ts_write(e, forged, 56 + klen + used);
    free(forged);
}

Test(cache_hostile, a_digest_the_reference_does_not_give_is_emulated_again, .init = setup,
     .fini = cleanup, .timeout = 300)
{
    char *one = one_file_corpus();
    char *r1 = ts_path(scratch, "r1"), *r2 = ts_path(scratch, "r2"), *r3 = ts_path(scratch, "r3");
    for (int procs = 0; procs < 2; procs++) {
        /* In-process, a clip is emulated again; with engine processes, the whole unit. */
        const char *args[] = {"run", "-q", "--corpus", one, "--modes", "normal", "--levels",
                              "frame,pose", procs ? "--engine-processes" : "--jobs",
                              procs ? "--jobs" : "1", procs ? "1" : NULL, NULL};
        cr_assert_eq(run(r1, args), 0);
        cJSON *r = ts_report(r1);
        double comparisons = ts_num(r, "totals.comparisons");
        cJSON_Delete(r);
        size_t n, size, blob_len;
        char **e = entries(&n);
        cr_assert_eq(n, 1);
        uint8_t *entry = (uint8_t *)ts_read(e[0], &size);
        uint32_t klen;
        uint8_t *blob = entry_blob(entry, size, &blob_len, &klen);
        /* The first record (clip 0, after the 20-byte head) is a digest: change it. */
        cr_assert_gt(blob_len, 20 + 40 + 32);
        cr_assert_eq(blob[20 + 5], 2, "clip 0 of a clean run is kept as a digest");
        blob[20 + 40] ^= 0x01;
        entry_rewrite(e[0], entry, klen, blob, blob_len);
        free(blob);
        free(entry);
        int st = run(r2, args);
        char *err = hs_log(logs, "stderr");
        cr_assert_eq(st, 0, "exit %d: %s", st, err);
        cr_assert_eq(ts_count(err, "no longer gives the original's digested trace of anim 0"), 1,
                     "%s", err);
        free(err);
        r = ts_report(r2);
        cr_assert_eq(ts_num(r, "totals.match"), comparisons, "no false mismatch");
        cr_assert_eq(ts_num(r, "totals.cache_rejected"), 1);
        cr_assert_gt(ts_num(r, "run.emulated_calls"), 0, "the clip was not emulated again");
        cr_assert_geq(ts_num(r, "totals.sources.emulated") + ts_num(r, "totals.sources.deduplicated"),
                      1);
        /* Natively every engine is an engine process: the whole unit again there too. */
        if (!procs && !ts_engine_native())
            cr_assert_eq(ts_num(r, "totals.sources.cache"), comparisons - 1,
                         "only the changed clip is emulated");
        cJSON_Delete(r);
        /* Stored again: the next run reads it all. */
        cr_assert_eq(run(r3, args), 0);
        r = ts_report(r3);
        cr_assert_eq(ts_num(r, "totals.sources.cache"), comparisons);
        cr_assert_eq(ts_num(r, "totals.cache_rejected"), 0);
        cr_assert_eq(ts_num(r, "run.emulated_calls"), 0);
        cJSON_Delete(r);
        free_list(e, n);
        ts_out o;
        ts_sh(scratch, &o, "rm -rf '%s/results'", cache);
        ts_out_free(&o);
    }
    free(r1);
    free(r2);
    free(r3);
    free(one);
}
