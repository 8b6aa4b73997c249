/*
 * harness/run/run_plan.c: before any emulation: load, describe and parse
 * every model file (one a thread, on as many threads as the run has jobs:
 * the bytes go to the run's file store, run_files.c), lay out one result slot per (file, mode,
 * clip), cut the work into units, and find identical clips so the original runs each only once.
 *
 * Identity of a clip for the original: its mode flags, its index, the
 * skeleton section's bytes and the clip's bytes as the file lays them out
 * (from its start to the next clip's start, or to the end of the animation
 * section). Nothing is decoded to find it: no reader is trusted to say how
 * far the original reads. The workers check after emulating that the
 * members' bytes equal the leader's as far as the original's own cursor
 * reached (run_unit.c, same_reach), which is what makes sharing exact; a
 * clip that reads on past its bytes (SLOW+FAST) is shared only when what
 * follows is the same too.
 */
#define _GNU_SOURCE
#include <openssl/evp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "harness/run/leaf.h"
#include "harness/run/leaf_pose.h"
#include "harness/run/refside.h"
#include "harness/run/run_entity.h"
#include "harness/run/context.h"
#include "common/sha256.h"
#include "corpus/manifest.h"

/* What the plan keeps of a parsed file: its clip count and each clip's frame byte. */
static int note_clips(run_fslot *slot, const dat_file *dat, ff_error *err)
{
    if (!dat_kind_has_model(dat->kind)) return 0;
    slot->frames = malloc(dat->clips ? dat->clips : 1);
    if (!slot->frames) return ff_error_set(err, FF_E_NOMEM, dat->name, -1, "out of memory");
    slot->clips = dat->clips;
    for (uint32_t c = 0; c < dat->clips; c++) slot->frames[c] = (uint8_t)dat_clip_frames(dat, c);
    return 0;
}

/*
 * Loads entry (file k of the run) once, describes it, and hands its bytes to
 * the store (which keeps them warm or frees them): one file in memory at a
 * time on each thread here, whatever the corpus holds.
 */
static int load_one(run_ctx *ctx, size_t entry, uint32_t k, ff_error *err)
{
    run_file *f = &ctx->res->files[k];
    const char *name = corpus_name(ctx->corpus, entry);
    ctx->fslots[k].entry = entry;
    uint8_t *data = NULL;
    size_t size = 0;
    ff_error e;
    ff_error_clear(&e);
    if (corpus_load(ctx->corpus, entry, &data, &size, &e) < 0) {
        /* A file that cannot be loaded is that file's result, not the run's end. */
        memset(f, 0, sizeof *f);
        f->name = strdup(name);
        f->bad = 1;
        f->error = e;
        if (!f->name) return ff_error_set(err, FF_E_NOMEM, name, -1, "out of memory");
        return manifest_set_origin(f, ctx->corpus, entry, err);
    }
    dat_file dat;
    int rc = manifest_analyze(name, data, size, f, err);
    if (rc == 0) rc = manifest_set_origin(f, ctx->corpus, entry, err);
    if (rc == 0 && f->parsed) rc = dat_parse(data, size, f->name, &dat, err);
    if (rc == 0 && f->parsed) rc = note_clips(&ctx->fslots[k], &dat, err);
    if (rc < 0 || !f->parsed || !dat_kind_has_model(dat.kind)) {
        free(data); /* never needed again */
        return rc;
    }
    run_files_keep(ctx, k, data, size, &dat);
    return 0;
}

/* The files of the plan shared out among threads: the next to take, the first error. */
typedef struct load_share {
    run_ctx *ctx;
    const size_t *entry; /* corpus entry of file k */
    size_t n;
    atomic_size_t next;
    atomic_int failed;
    pthread_mutex_t lock;
    ff_error err; /* the first failure's, under lock */
} load_share;

static void *load_some(void *p)
{
    load_share *s = p;
    for (size_t k; !atomic_load(&s->failed) && (k = atomic_fetch_add(&s->next, 1)) < s->n;) {
        ff_error e;
        if (load_one(s->ctx, s->entry[k], (uint32_t)k, &e) == 0) continue;
        pthread_mutex_lock(&s->lock);
        if (!atomic_load(&s->failed)) s->err = e;
        atomic_store(&s->failed, 1);
        pthread_mutex_unlock(&s->lock);
    }
    return NULL;
}

int plan_load_files(run_ctx *ctx, unsigned threads, ff_error *err)
{
    size_t n = corpus_count(ctx->corpus), ndat = 0;
    for (size_t i = 0; i < n; i++) ndat += corpus_is_dat(ctx->corpus, i) != 0;
    run_results *res = ctx->res;
    res->files = calloc(ndat ? ndat : 1, sizeof *res->files);
    ctx->fslots = calloc(ndat ? ndat : 1, sizeof *ctx->fslots);
    load_share s = {.ctx = ctx, .n = ndat};
    size_t *entry = calloc(ndat ? ndat : 1, sizeof *entry);
    if (!res->files || !ctx->fslots || !entry) {
        free(entry);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory listing the corpus");
    }
    for (size_t i = 0; i < n; i++)
        if (corpus_is_dat(ctx->corpus, i)) entry[res->nfiles++] = i;
    s.entry = entry;
    pthread_mutex_init(&s.lock, NULL);
    /* Files are independent: each thread loads, hashes and describes the next one
     * (results land at each file's own index, so the plan is the same for any count). */
    if (threads > ndat) threads = ndat ? (unsigned)ndat : 1;
    pthread_t th[RUN_PLAN_THREADS];
    unsigned started = 1;
    for (; started < threads && started < RUN_PLAN_THREADS; started++)
        if (pthread_create(&th[started], NULL, load_some, &s) != 0) break;
    load_some(&s);
    for (unsigned i = 1; i < started; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&s.lock);
    free(entry);
    if (atomic_load(&s.failed)) {
        *err = s.err;
        return -1;
    }
    return 0;
}

static int has_clips(const run_file *f)
{
    return f->parsed && dat_kind_has_model(f->kind);
}

/*
 * Zeroed room for n results in a mapping of its own that engine processes
 * (remote.h) do not inherit (MADV_DONTFORK): only the run's threads write
 * results, and while a child shared its pages each first write to one was a
 * copy-on-write fault with a TLB shootdown of the other core. *mapped: the
 * mapping's bytes (0: from the heap, where madvise is refused).
 */
static clip_result *results_alloc(size_t n, size_t *mapped)
{
    size_t bytes = (n ? n : 1) * sizeof(clip_result);
    *mapped = 0;
    if (bytes / sizeof(clip_result) != (n ? n : 1)) return NULL;
    /* Populated at once: layout_results writes every page, one fault a page otherwise. */
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
                   -1, 0);
    if (p == MAP_FAILED) return calloc(n ? n : 1, sizeof(clip_result));
    if (madvise(p, bytes, MADV_DONTFORK) != 0) {
        munmap(p, bytes);
        return calloc(n ? n : 1, sizeof(clip_result));
    }
    *mapped = bytes;
    return p;
}

void run_results_release(run_results *r)
{
    if (r->results_mapped) munmap(r->results, r->results_mapped);
    else free(r->results);
    r->results = NULL;
    r->results_mapped = 0;
}

/* Clip c of file f in mode m's record before it is run (results are laid out so). */
static void plan_result_blank(const run_ctx *ctx, uint32_t f, mode_id m, uint32_t c,
                              clip_result *r)
{
    memset(r, 0, sizeof *r);
    r->file = f;
    r->clip = (int32_t)c;
    r->mode = m;
    r->status = RES_NOT_RUN;
    r->group = -1;
    r->frames = ctx->fslots[f].frames[c];
}

/* One result per (file, mode, clip); a bad file gets one per mode. */
static int layout_results(run_ctx *ctx, ff_error *err)
{
    run_results *res = ctx->res;
    unsigned modes = mode_count(ctx->cfg->modes);
    size_t total = 0;
    for (size_t f = 0; f < res->nfiles; f++) {
        const run_file *rf = &res->files[f];
        if (has_clips(rf)) total += (size_t)rf->clips * modes;
        else if (!rf->parsed) total += modes;
    }
    res->results = results_alloc(total, &res->results_mapped);
    ctx->slot_of = malloc((total ? total : 1) * sizeof *ctx->slot_of);
    if (!res->results || !ctx->slot_of)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for %zu results", total);
    size_t k = 0;
    for (size_t f = 0; f < res->nfiles; f++) {
        const run_file *rf = &res->files[f];
        for (int m = 0; m < MODE__COUNT; m++) {
            if (!(ctx->cfg->modes & (1u << m))) continue;
            if (!rf->parsed) {
                clip_result *r = &res->results[k++];
                r->file = (uint32_t)f;
                r->clip = -1;
                r->mode = (mode_id)m;
                r->status = RES_BAD_INPUT;
                r->group = -1;
                r->error = malloc(sizeof *r->error);
                if (!r->error) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
                *r->error = rf->error;
                continue;
            }
            if (!has_clips(rf)) continue;
            for (uint32_t c = 0; c < rf->clips; c++)
                plan_result_blank(ctx, (uint32_t)f, (mode_id)m, c, &res->results[k++]);
        }
    }
    res->nresults = total;
    for (size_t i = 0; i < total; i++) ctx->slot_of[i] = -1;
    return 0;
}

int plan_units(run_ctx *ctx, ff_error *err)
{
    const run_config *cfg = ctx->cfg;
    run_results *res = ctx->res;
    if (layout_results(ctx, err) < 0) return -1;
    size_t nframe = 0, nleaf_units = 0, npose_units = 0;
    if (cfg->frame_level)
        for (size_t f = 0; f < res->nfiles; f++)
            if (has_clips(&res->files[f])) nframe += mode_count(cfg->modes);
    if (cfg->leaf_level && leaf_setup(ctx, &nleaf_units, err) < 0) return -1;
    /* The pose helpers' leaf level: with the leaf and pose levels, on an executable. */
    if (cfg->leaf_level && cfg->pose_level && cfg->image) leaf_pose_setup(ctx, &npose_units);
    size_t nentity_units = 0;
    if (cfg->entity_level && run_entity_plan(ctx, &nentity_units, err) < 0) return -1;
    ctx->units =
        calloc(nframe + nleaf_units + npose_units + nentity_units + 1, sizeof *ctx->units);
    if (!ctx->units) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    size_t u = 0, k = 0;
    for (size_t f = 0; f < res->nfiles; f++) {
        const run_file *rf = &res->files[f];
        for (int m = 0; m < MODE__COUNT; m++) {
            if (!(cfg->modes & (1u << m))) continue;
            if (!rf->parsed) {
                k++;
                continue;
            }
            if (!has_clips(rf)) continue;
            if (cfg->frame_level) {
                run_unit *un = &ctx->units[u++];
                un->kind = UNIT_FRAME;
                un->file = (uint32_t)f;
                un->mode = (mode_id)m;
                un->first = k;
                /* Until the plan knows ticks: frames x bones, SLOW twice. */
                un->cost = (rf->frames + 1) * (rf->bones + 4) * ((m & 1) ? 2 : 1);
            }
            k += rf->clips;
        }
    }
    if (cfg->leaf_level) leaf_units(ctx, ctx->units + u);
    if (npose_units) leaf_pose_units(ctx, ctx->units + u + nleaf_units);
    if (cfg->entity_level) run_entity_units(ctx, ctx->units + u + nleaf_units + npose_units);
    ctx->nunits = u + nleaf_units + npose_units + nentity_units;
    if (!cfg->frame_level) {
        /* Frame results stay not_run when only the leaf level runs. */
        res->nresults = 0;
    }
    return 0;
}

/* Union-find over units, for chains. */
static size_t root_of(size_t *parent, size_t u)
{
    while (parent[u] != u) u = parent[u] = parent[parent[u]];
    return u;
}

typedef struct order_key {
    uint64_t chain_cost;
    size_t chain, unit;
} order_key;

static int cmp_order(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    if (x->chain_cost != y->chain_cost) return x->chain_cost > y->chain_cost ? -1 : 1;
    if (x->chain != y->chain) return x->chain < y->chain ? -1 : 1;
    return x->unit < y->unit ? -1 : x->unit > y->unit;
}

int plan_order(run_ctx *ctx, ff_error *err)
{
    size_t n = ctx->nunits, nres = ctx->res->nresults;
    size_t *parent = malloc((n ? n : 1) * sizeof *parent);
    size_t *unit_of = malloc((nres ? nres : 1) * sizeof *unit_of);
    size_t *slot_unit = malloc((ctx->nslots ? ctx->nslots : 1) * sizeof *slot_unit);
    uint64_t *cost = calloc(n ? n : 1, sizeof *cost);
    order_key *keys = malloc((n ? n : 1) * sizeof *keys);
    run_unit *sorted = malloc((n ? n : 1) * sizeof *sorted);
    ctx->chain_start = malloc((n + 1) * sizeof *ctx->chain_start);
    int rc = 0;
    if (!parent || !unit_of || !slot_unit || !cost || !keys || !sorted || !ctx->chain_start) {
        rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory ordering the work");
        goto done;
    }
    for (size_t u = 0; u < n; u++) {
        parent[u] = u;
        const run_unit *un = &ctx->units[u];
        if (un->kind != UNIT_FRAME) continue;
        for (uint32_t c = 0; c < ctx->fslots[un->file].clips; c++) unit_of[un->first + c] = u;
    }
    /* Units holding members of one slot become one chain. */
    for (size_t s = 0; s < ctx->nslots; s++) slot_unit[s] = SIZE_MAX;
    for (size_t r = 0; r < nres && ctx->nslots; r++) {
        int32_t s = ctx->slot_of[r];
        if (s < 0) continue;
        if (slot_unit[s] == SIZE_MAX) slot_unit[s] = unit_of[r];
        else parent[root_of(parent, unit_of[r])] = root_of(parent, slot_unit[s]);
    }
    /*
     * The pose level: a file's modes are one chain, in mode order, so that
     * the worker's pose memo answers FAST from normal's states (a FAST
     * tick is a normal frame). SLOW+FAST states are seldom SLOW states and
     * seldom hit.
     */
    for (size_t u = 1; ctx->pose && u < n; u++) {
        const run_unit *a = &ctx->units[u - 1], *b = &ctx->units[u];
        if (a->kind == UNIT_FRAME && b->kind == UNIT_FRAME && a->file == b->file)
            parent[root_of(parent, u)] = root_of(parent, u - 1);
    }
    /*
     * The frame level without the pose: a file's modes join one chain too while it stays
     * under a sixteenth of the run's cost, so that a worker loads the file once for all its
     * modes (each load remaps the engine's file area; natively with 2 jobs each unmapping
     * interrupts the other core). The cap keeps a clip many files share from making one
     * chain of most of the run. Deterministic: the plan does not depend on --jobs.
     */
    uint64_t total = 0;
    for (size_t u = 0; u < n; u++)
        total += ctx->units[u].cost;
    for (size_t u = 0; u < n; u++)
        cost[root_of(parent, u)] += ctx->units[u].cost;
    for (size_t u = 1; !ctx->pose && u < n; u++) {
        const run_unit *a = &ctx->units[u - 1], *b = &ctx->units[u];
        if (a->kind != UNIT_FRAME || b->kind != UNIT_FRAME || a->file != b->file) continue;
        size_t ra = root_of(parent, u - 1), rb = root_of(parent, u);
        if (ra == rb || cost[ra] + cost[rb] > total / 16) continue;
        parent[rb] = ra;
        cost[ra] += cost[rb];
        cost[rb] = 0;
    }
    memset(cost, 0, n * sizeof *cost);
    /* Entity units sharing a leader's emulations (run_entity.h) are one chain too. */
    for (size_t u = 0; u < n; u++) {
        const run_unit *un = &ctx->units[u];
        if (un->kind != UNIT_ENTITY || un->eslot < 0) continue;
        for (size_t v = 0; v < u; v++)
            if (ctx->units[v].kind == UNIT_ENTITY && ctx->units[v].eslot == un->eslot) {
                parent[root_of(parent, u)] = root_of(parent, v);
                break;
            }
    }
    for (size_t u = 0; u < n; u++) cost[root_of(parent, u)] += ctx->units[u].cost;
    for (size_t u = 0; u < n; u++) {
        size_t root = root_of(parent, u);
        keys[u] = (order_key){cost[root], root, u};
    }
    /* Costliest chains first, for balance at the end; a chain's units together. */
    qsort(keys, n, sizeof *keys, cmp_order);
    ctx->nchains = 0;
    for (size_t i = 0; i < n; i++) {
        sorted[i] = ctx->units[keys[i].unit];
        sorted[i].chain = keys[i].chain;
        if (i == 0 || keys[i].chain != keys[i - 1].chain) ctx->chain_start[ctx->nchains++] = i;
    }
    ctx->chain_start[ctx->nchains] = n;
    memcpy(ctx->units, sorted, n * sizeof *sorted);
done:
    free(parent);
    free(unit_of);
    free(slot_unit);
    free(cost);
    free(keys);
    free(sorted);
    return rc;
}

/* A clip in a mode: its digest (clip_digest) and the mode's flags. */
typedef struct keyed {
    uint8_t key[32];
    uint8_t flags;
    size_t result;
} keyed;

static int same_key(const keyed *x, const keyed *y)
{
    return x->flags == y->flags && memcmp(x->key, y->key, sizeof x->key) == 0;
}

static int cmp_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = memcmp(x->key, y->key, sizeof x->key);
    if (c) return c;
    if (x->flags != y->flags) return x->flags < y->flags ? -1 : 1;
    return x->result < y->result ? -1 : x->result > y->result;
}

/* Where clip c's bytes end: the next clip's start, or the animation section's end. */
static uint64_t clip_end(const dat_file *d, uint32_t start)
{
    uint64_t end = (uint64_t)d->anim_off + d->anim_size;
    for (uint32_t k = 0; k < d->clips; k++) {
        uint32_t o;
        if (dat_clip_offset(d, k, &o, NULL) == 0 && o > start && o < end) end = o;
    }
    return end;
}

/*
 * The digest of what the original reads of clip c whatever the mode: its
 * index, the skeleton section and the clip's bytes. Returns 0, or -1 (the
 * clip is then emulated alone).
 */
static int clip_digest(const dat_file *d, uint32_t clip, uint8_t out[32])
{
    uint32_t start;
    if (clip > REFSIDE_MAX_CLIP || dat_clip_offset(d, clip, &start, NULL) < 0) return -1;
    uint64_t end = clip_end(d, start);
    uint8_t head[4 + 4];
    memcpy(head, &clip, 4);
    memcpy(head + 4, &d->skel_size, 4);
    sha256_part parts[] = {{head, sizeof head},
                           {d->data + d->skel_off, d->skel_size},
                           {d->data + start, end > start ? (size_t)(end - start) : 0}};
    ff_error e;
    return sha256_parts(parts, 3, out, &e);
}

typedef struct skel_digest {
    uint8_t d[32];
    uint32_t file;
} skel_digest;

static int cmp_digest(const void *a, const void *b)
{
    return memcmp(((const skel_digest *)a)->d, ((const skel_digest *)b)->d, 32);
}

/*
 * shared[f] = 1 when file f's skeleton bytes are those of another file of
 * the run. A clip's key holds its file's skeleton bytes, so a clip of a file
 * whose skeleton no other file has can share with nothing: the plan need not
 * hash its clips. Files that cannot be read stay 0 (their units say why).
 */
static int mark_shared_skeletons(run_ctx *ctx, uint8_t *shared, ff_error *err)
{
    size_t nfiles = ctx->res->nfiles, n = 0;
    skel_digest *dg = malloc((nfiles ? nfiles : 1) * sizeof *dg);
    if (!dg) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory planning");
    for (size_t u = 0; u < ctx->nunits; u++) {
        const run_unit *un = &ctx->units[u];
        if (un->kind != UNIT_FRAME || un->cached || (n && dg[n - 1].file == un->file)) continue;
        const dat_file *d;
        ff_error e;
        if (run_file_get(ctx, un->file, &d, &e) < 0) {
            if (e.kind != FF_E_NOMEM) continue;
            free(dg);
            *err = e;
            return -1;
        }
        sha256_part part = {d->data + d->skel_off, d->skel_size};
        int rc = sha256_parts(&part, 1, dg[n].d, &e);
        run_file_put(ctx, un->file);
        if (rc < 0) continue; /* no digest: its clips are decoded, as before */
        dg[n++].file = un->file;
    }
    qsort(dg, n, sizeof *dg, cmp_digest);
    for (size_t i = 0; i < n; i++)
        if ((i > 0 && !memcmp(dg[i].d, dg[i - 1].d, 32)) ||
            (i + 1 < n && !memcmp(dg[i].d, dg[i + 1].d, 32)))
            shared[dg[i].file] = 1;
    free(dg);
    return 0;
}

int plan_dedup(run_ctx *ctx, ff_error *err)
{
    run_results *res = ctx->res;
    keyed *keys = malloc((res->nresults ? res->nresults : 1) * sizeof *keys);
    uint8_t *shared = calloc(res->nfiles ? res->nfiles : 1, 1);
    int rc = keys && shared ? mark_shared_skeletons(ctx, shared, err)
                            : ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory planning");
    if (rc < 0) {
        free(keys);
        free(shared);
        return -1;
    }
    size_t nkeys = 0;
    /* Digests of the current file's clips (units of a file are consecutive), 0: none. */
    uint8_t (*digest)[32] = NULL;
    uint8_t *have = NULL;
    int64_t digested = -1;
    uint32_t nclips = 0;
    for (size_t u = 0; u < ctx->nunits && rc == 0; u++) {
        run_unit *un = &ctx->units[u];
        /* A cached unit is not emulated: no key. Nor has a file whose clips can share with none. */
        if (un->kind != UNIT_FRAME || un->cached || !shared[un->file]) continue;
        if (digested != (int64_t)un->file) {
            const dat_file *d;
            ff_error e;
            /* A file that cannot be read again gets no keys: its unit says why when it runs. */
            if (run_file_get(ctx, un->file, &d, &e) < 0) {
                if (e.kind != FF_E_NOMEM) continue;
                *err = e;
                rc = -1;
                break;
            }
            free(digest);
            free(have);
            digest = malloc((d->clips ? d->clips : 1) * sizeof *digest);
            have = malloc(d->clips ? d->clips : 1);
            if (!digest || !have) {
                run_file_put(ctx, un->file);
                rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory planning");
                break;
            }
            nclips = d->clips;
            for (uint32_t c = 0; c < nclips; c++) have[c] = clip_digest(d, c, digest[c]) == 0;
            run_file_put(ctx, un->file);
            digested = un->file;
        }
        for (uint32_t c = 0; c < nclips; c++) {
            if (!have[c]) continue;
            keyed *k = &keys[nkeys++];
            memcpy(k->key, digest[c], sizeof k->key);
            k->flags = mode_flags(un->mode);
            k->result = un->first + c;
        }
    }
    free(digest);
    free(have);
    if (rc < 0) {
        free(keys);
        free(shared);
        return -1;
    }
    qsort(keys, nkeys, sizeof *keys, cmp_key);
    size_t nslots = 0;
    for (size_t i = 0; i < nkeys;) {
        size_t j = i + 1;
        while (j < nkeys && same_key(&keys[j], &keys[i]))
            j++;
        nslots += j - i > 1;
        i = j;
    }
    ctx->slots = calloc(nslots ? nslots : 1, sizeof *ctx->slots);
    if (!ctx->slots) {
        free(keys);
        free(shared);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory planning");
    }
    size_t s = 0;
    for (size_t i = 0; i < nkeys;) {
        size_t j = i + 1;
        while (j < nkeys && same_key(&keys[j], &keys[i]))
            j++;
        if (j - i > 1) {
            ctx->slots[s].refs = (unsigned)(j - i);
            for (size_t q = i; q < j; q++) ctx->slot_of[keys[q].result] = (int32_t)s;
            s++;
        }
        i = j;
    }
    ctx->nslots = nslots;
    free(keys);
    free(shared);
    return 0;
}
