/*
 * harness/core/run_meta.h: what a run was asked to do and with what (its
 * command, id, times, executable, corpus, options and sides), as
 * report.json's "run" and the trace-set manifest both describe it; the run
 * id and the UTC time they are stamped with. Holds no result and decides
 * nothing.
 */
#ifndef FF8_HARNESS_CORE_RUN_META_H
#define FF8_HARNESS_CORE_RUN_META_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/emu.h"

#define RUN_META_MAX_NOTES 4

/* What the run was asked to do and with what, for the report's "run". */
typedef struct run_meta {
    const char *command;      /* "run", "check", "record" */
    const char *run_id;
    const char *started;      /* ISO 8601 UTC */
    const char *finished;
    /* executable identity ("none" verdict when no executable) */
    const char *exe_path, *exe_sha256, *profile, *profile_source;
    const char *exe_verdict;  /* "known", "unknown_build", "none" */
    const char *exe_warning;  /* "" when none */
    /* a profile the locator wrote (ff8diff identify --locate): NULL when not located */
    const char *located_from, *located_exe, *located_patterns, *located_tool;
    /* corpus */
    const char *corpus_path, *corpus_kind, *corpus_description;
    /* provenance: release ("2013", "remaster", "folder", "file"; NULL: none told),
     * archive, zzz entry (NULL: none) and its offset, language folder */
    const char *corpus_release, *corpus_archive, *corpus_zzz_entry, *corpus_lang;
    uint64_t corpus_zzz_offset;
    const char *synthetic_preset; /* NULL unless generated */
    uint64_t synthetic_seed;
    /* options */
    unsigned modes;
    int frame_level, leaf_level, pose_level;
    int entity_level;
    unsigned jobs;
    uint64_t leaf_calls, seed;
    int keep_matrices, dedup;
    const char *explain;      /* "none", "groups" (NULL), "all" */
    int coverage;
    const char *cache_dir;    /* NULL: no cache */
    const char *traces_dir, *against_dir;
    uint64_t emulated_calls;
    /*
     * The two sides: what each is called in the report ("reference" or
     * "candidate"; "original" or "golden"), where it came from, and the
     * candidate's format ("engine", "trace-jsonl", "frames", or both joined
     * by "+"). NULL: the defaults of `run` (reference engine vs emulation).
     */
    const char *cand_label, *cand_source, *cand_format;
    const char *auth_label, *auth_source;
    /* Sentences every report shows before its results ("compared normal only"). */
    const char *notes[RUN_META_MAX_NOTES];
    unsigned nnotes;
    /* The engine the original ran on, with what its probe found; NULL when
     * nothing was run (a check against traces). */
    const emu_engine_info *engine;
} run_meta;

/* A run id sortable by time: "20261130-004512-1a2b". */
void run_meta_make_id(char *buf, size_t n);
/* Current UTC time as ISO 8601 ("2026-11-30T00:45:12Z"). */
void run_meta_now_iso(char *buf, size_t n);

#endif
