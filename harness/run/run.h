/*
 * harness/run/run.h: the differential run. Both sides are driven with the same
 * inputs over a whole corpus, every clip of every model file in every mode
 * asked for, compared field by field, tick by tick (frame level), and the
 * leaf routines over generated cursor cases (leaf level).
 *
 * At the entity level (entity_level), every body of the corpus with each of
 * its weapons, and every monster and unarmed body alone, is driven by
 * QueueAnimation then AdvanceBy1 on both sides and compared call by call
 * (harness/run/run_entity.h).
 *
 * The "authority" side is the original: emulated from an executable image
 * (one engine per worker thread, of the kind cfg->game.engine names), or
 * read from the on-disk cache of earlier emulations, or read from recorded
 * traces. The "candidate" side is
 * the reference engine, or another trace set (an outside decoder).
 *
 * Work is split into units (one file in one mode; one entity in one mode;
 * leaf chunks) taken by
 * --jobs workers; results land at fixed indexes, so they are identical for
 * any number of jobs. Identical clips (same skeleton bytes, same stream
 * bytes including what follows as far as the decoder reads, same mode and
 * index) are emulated once. Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_RUN_RUN_H
#define FF8_HARNESS_RUN_RUN_H

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

#include "emu/engine/game.h"
#include "ref/dat.h"
#include "ref/pose.h"
#include "harness/core/modes.h"
#include "harness/core/outcome.h"
#include "harness/core/results.h"
#include "common/error.h"

struct cache;
struct tset;

typedef struct run_progress {
    atomic_uint_fast64_t clips_total, clips_done;
    atomic_uint_fast64_t mismatches, faults, bad_input;
    atomic_uint_fast64_t leaf_total, leaf_done;
    atomic_uint_fast64_t emulated_calls;
} run_progress;

/* Which mismatches are explained by their first differing read (harness/run/explain.c). */
typedef enum run_explain_mode {
    RUN_EXPLAIN_NONE = 0,
    RUN_EXPLAIN_GROUPS, /* each group's example (default) */
    RUN_EXPLAIN_ALL     /* every mismatching clip */
} run_explain_mode;

/* One clip's original side, as a run hands it to a sink. */
typedef struct run_sink_clip {
    uint32_t file;              /* index into the run's files (run_results.files) */
    const dat_file *dat;        /* that file, parsed; valid during the call */
    mode_id mode;
    uint32_t clip;
    const orig_outcome *orig;   /* the calls made (faulted: up to the fault); NULL: see error */
    const ff_error *error;      /* why the clip has no original side (orig NULL) */
} run_sink_clip;

/*
 * A consumer of the original's side of the frame level (export), whatever
 * it came from (emulated, an identical clip's emulation, the cache,
 * recorded traces). Called on the workers' threads: clip for every clip of
 * a unit in clip order, then unit_done once per unit (file, mode), also
 * for a unit cut short by a cancel (complete 0) or whose file could not be
 * read again (no clip call, complete 0, why the reason; NULL otherwise). begin is called once, on the
 * run's thread, after the plan has read every file and chosen the pose
 * convention, before any unit. Each returns 0, or -1 with err to stop the
 * run (run_execute then fails with that error). Any may be NULL.
 */
typedef struct run_sink {
    void *arg;
    int (*begin)(void *arg, const run_results *res, const ref_pose_opts *pose, ff_error *err);
    int (*clip)(void *arg, const run_sink_clip *c, ff_error *err);
    int (*unit_done)(void *arg, uint32_t file, mode_id mode, int complete, const ff_error *why,
                     ff_error *err);
} run_sink;

typedef struct run_config {
    const char *corpus_path;
    const char *corpus_lang;  /* --lang: the language of an install or main.zzz (NULL: default) */
    const emu_image *image;   /* the original; NULL when traces_dir is the authority */
    emu_game_opts game;
    /* --engine both: every clip's original side also on this engine, compared with
     * game.engine's (harness/run/both.h); NULL: one engine. Dedup and the cache are
     * then off: every clip runs on both. */
    const emu_ops *second;
    /* 1: the original runs in engine processes whatever the engine (the native engine
     * always does; remote.h). */
    int engine_processes;
    unsigned modes;           /* bit i = mode_id i */
    int frame_level, leaf_level;
    int pose_level;           /* bone and world matrices too (implies the frame level) */
    ref_pose_opts pose_opts;  /* the reference's pose convention, unless pose_search */
    int pose_search;          /* 1: found by the search on the original (`auto`) */
    int pose_pinned;          /* pose_opts comes from the executable's profile */
    /* 1 (with pose_level and pose_search): the convention search alone, no unit runs; the
     * result's pose section holds the choice (export, check-gltf and decode ask for it) */
    int search_only;
    int entity_level;         /* QueueAnimation + AdvanceBy1 on every entity (run_entity.h) */
    unsigned jobs;            /* 0: one per online core */
    uint64_t leaf_calls;      /* bitReader cases at the leaf level (0: 100000) */
    uint64_t seed;
    int dedup;                /* emulate identical clips once (default 1) */
    run_explain_mode explain; /* default RUN_EXPLAIN_GROUPS */
    int coverage;             /* record which blocks of the original's routines run (default 1) */
    /* the quirk pass (harness/run/quirkside.h): per frame-level clip, the quirk-table rows
     * it exercises (default 1; --no-quirks) */
    int quirks;
    struct cache *cache;      /* the original's results by content; NULL: none */
    const char *cache_id;     /* executable SHA-256 + profile, part of cache keys */
    const char *traces_dir;   /* authority = recorded traces in this folder */
    const char *against_dir;  /* candidate = traces in this folder, not the reference */
    const struct tset *traces_set;  /* manifest of traces_dir (file hashes, faults); may be NULL */
    const struct tset *against_set; /* manifest of against_dir; may be NULL */
    /* field classes (harness/core/fields.h field_classes, bit k) the candidate
     * must supply where the authority carries them: a clip that leaves one
     * out is not decoded (check --require) */
    unsigned require;
    const char *record_dir;   /* also write the authority's traces here */
    int record_lz4;           /* ... as .jsonl.lz4 */
    volatile sig_atomic_t *cancel; /* set by the caller (to the signal's number) to stop early */
    run_progress *progress;   /* may be NULL */
    const run_sink *sink;     /* also hand the original's side to this (frame level); may be NULL */
} run_config;

/* Defaults: all modes, frame level, dedup on, 100000 leaf calls, seed 1, group examples
 * explained, coverage on. */
void run_config_init(run_config *cfg);

/*
 * Runs everything cfg asks for into *out (caller frees it with
 * run_results_free, also after a failure). Returns 0 when the run went
 * through (whatever it found: mismatches, faults and bad files are results),
 * -1 with err when it could not run at all (corpus unreadable, engine could
 * not start, out of memory). When cfg->cancel is set mid-run, returns 0 with
 * out->interrupted = 1 and the clips not reached marked not_run,
 * out->interrupt_signal the value *cfg->cancel held. Warnings the report
 * shows (entries renamed, results cache entries refused or not stored) go
 * to out->warnings: a results cache that cannot be written never stops a run.
 */
int run_execute(const run_config *cfg, run_results *out, ff_error *err);

/*
 * The engine's kind for cache keys, at every level: an entry names the
 * engine that made it, and a run on another engine never takes it (the
 * engines may differ: x87 code, and what a hostile executable does with
 * segments or the host, docs/engine.md section 9).
 */
const char *run_engine_key(const run_config *cfg);
/*
 * 1 when the original runs in engine processes (remote.h): on the native
 * engine always (its code never runs in ff8diff's own process), on any
 * engine with engine_processes.
 */
int run_engine_processes(const run_config *cfg);

/*
 * Adds a warning sentence (printf-style) to r->warnings, which the report
 * shows. Returns -1 when memory runs out (r unchanged).
 */
int run_warn(run_results *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
