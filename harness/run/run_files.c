/*
 * harness/run/run_files.c: the corpus files of a run in memory, one at a
 * time when a unit needs one. A file is loaded (decompressed) on demand,
 * checked against the SHA-256 the plan recorded, parsed, and kept while a
 * unit holds it; files no unit holds stay loaded only while the loaded total
 * is under RUN_FILES_WARM, least recently used out first. So a run's memory
 * depends on the largest entries and the number of workers, never on the
 * corpus's total size or on what an archive's index announces.
 *
 * Must not print or exit; the store's lock is never held while a file is
 * read or decompressed.
 */
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"
#include "harness/run/context.h"

void run_files_init(run_ctx *ctx)
{
    pthread_mutex_init(&ctx->files_lock, NULL);
}

/* Frees the bytes of unheld files, least recently used first, until under the budget. */
static void trim(run_ctx *ctx)
{
    while (ctx->loaded_bytes > RUN_FILES_WARM) {
        run_fslot *old = NULL;
        for (size_t i = 0; i < ctx->res->nfiles; i++) {
            run_fslot *s = &ctx->fslots[i];
            if (s->data && !s->refs && (!old || s->used < old->used)) old = s;
        }
        if (!old) return;
        ctx->loaded_bytes -= old->size;
        free(old->data);
        old->data = NULL;
    }
}

/* Puts a loaded file in slot f (lock held); takes ownership of data. */
static void install(run_ctx *ctx, uint32_t f, uint8_t *data, size_t size, const dat_file *dat)
{
    run_fslot *s = &ctx->fslots[f];
    if (s->data) { /* another worker loaded it meanwhile */
        free(data);
        return;
    }
    s->data = data;
    s->size = size;
    s->dat = *dat;
    ctx->loaded_bytes += size;
}

void run_files_keep(run_ctx *ctx, uint32_t f, uint8_t *data, size_t size, const dat_file *dat)
{
    pthread_mutex_lock(&ctx->files_lock);
    install(ctx, f, data, size, dat);
    ctx->fslots[f].used = ++ctx->files_clock;
    trim(ctx);
    pthread_mutex_unlock(&ctx->files_lock);
}

/* Reads file f again: the same bytes as when the plan looked at it, parsed. */
static int load(run_ctx *ctx, uint32_t f, uint8_t **data, size_t *size, dat_file *dat,
                ff_error *err)
{
    const run_file *rf = &ctx->res->files[f];
    if (ctx->file_fetch ? ctx->file_fetch(ctx->file_fetch_arg, f, data, size, err) < 0
                        : corpus_load(ctx->corpus, ctx->fslots[f].entry, data, size, err) < 0)
        return -1;
    char sha[SHA256_HEX];
    int rc = sha256_hex(*data, *size, sha, err);
    if (rc == 0 && strcmp(sha, rf->sha256) != 0)
        rc = ff_error_set(err, FF_E_IO, rf->name, -1,
                          "the file changed while the run was going on (SHA-256 %.16s..., "
                          "%.16s... when the run began)",
                          sha, rf->sha256);
    if (rc == 0) rc = dat_parse(*data, *size, rf->name, dat, err);
    if (rc < 0) {
        free(*data);
        *data = NULL;
    }
    return rc;
}

int run_file_get(run_ctx *ctx, uint32_t f, const dat_file **dat, ff_error *err)
{
    run_fslot *s = &ctx->fslots[f];
    pthread_mutex_lock(&ctx->files_lock);
    if (!s->data) {
        pthread_mutex_unlock(&ctx->files_lock);
        uint8_t *data;
        size_t size;
        dat_file d;
        if (load(ctx, f, &data, &size, &d, err) < 0) return -1;
        pthread_mutex_lock(&ctx->files_lock);
        install(ctx, f, data, size, &d);
    }
    s->refs++;
    s->used = ++ctx->files_clock;
    *dat = &s->dat;
    pthread_mutex_unlock(&ctx->files_lock);
    return 0;
}

void run_file_put(run_ctx *ctx, uint32_t f)
{
    pthread_mutex_lock(&ctx->files_lock);
    run_fslot *s = &ctx->fslots[f];
    if (s->refs) s->refs--;
    trim(ctx);
    pthread_mutex_unlock(&ctx->files_lock);
}

void run_files_free(run_ctx *ctx)
{
    for (size_t i = 0; ctx->fslots && i < ctx->res->nfiles; i++) {
        free(ctx->fslots[i].data);
        free(ctx->fslots[i].frames);
    }
    free(ctx->fslots);
    ctx->fslots = NULL;
    pthread_mutex_destroy(&ctx->files_lock);
}
