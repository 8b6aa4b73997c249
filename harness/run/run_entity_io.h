/*
 * harness/run/run_entity_io.h: an entity clip's original side as data (its
 * two traces, or the fault that stopped it with the calls before it), its
 * records in an outcome blob (the cache's form, also what a leader leaves
 * its followers), and an entity unit's trace files: the candidate's
 * (check --against), the authority's (check --traces) and the ones a
 * recording writes. Not for use outside harness/run/.
 *
 * Blob records of one clip: the weapon's (when armed, never faulted) then
 * the body's, which holds the fault, both with the clip's number, in
 * outcome.h's record form.
 *
 * Trace files of an entity in one mode: <body>+<weapon>.entity.<mode>.jsonl
 * (<body>.entity.<mode>.jsonl without a weapon slot), .lz4 when
 * compressed; per clip its weapon lines ("model":"weapon", no "ret"), then
 * its body lines ("model":"body"), every line naming the pair in
 * "entity":{"body":..,"weapon":..|null} (docs/guide.md).
 */
#ifndef FF8_HARNESS_RUN_RUN_ENTITY_IO_H
#define FF8_HARNESS_RUN_RUN_ENTITY_IO_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/fault.h"
#include "harness/core/entity.h"
#include "harness/core/strbuf.h"
#include "harness/run/context.h"
#include "harness/traces/trace_json.h"
#include "harness/traces/tracefile.h"

typedef struct ent_outcome {
    int faulted;
    emu_fault fault; /* when faulted */
    ent_trace t;     /* the calls made (before the fault, if any) */
} ent_outcome;

void ent_outcome_init(ent_outcome *o);
/*
 * --engine both: one entity clip on two engines (a: the run's, b: the
 * second) into *out, as both_compare does a model's: the body (with the
 * fault) first, then the weapon; the first difference is the body's, else
 * the weapon's (div.model says which).
 */
void ent_both_compare(const ent_outcome *a, const ent_outcome *b, res_both *out);
void ent_outcome_free(ent_outcome *o);
/* Appends clip's records of o to a raw blob under construction. */
void ent_outcome_append(strbuf *raw, uint32_t clip, const ent_outcome *o);
/*
 * As ent_outcome_append, in the cache's form (outcome_append_cached): the
 * rows as tick-to-tick differences in byte planes, never a digest (the
 * entity level keeps its rows).
 */
void ent_outcome_append_packed(strbuf *raw, uint32_t clip, const ent_outcome *o);
/*
 * Reads clip's records at *pos into o (armed: a weapon record first).
 * Returns 1, or 0 (err) when the next records are not this clip's, the
 * blob ends or is damaged: the caller then emulates the rest.
 */
int ent_outcome_next(const uint8_t *raw, size_t len, size_t *pos, uint32_t clip, int armed,
                     ent_outcome *o, ff_error *err);

/* "d4c009.dat+d4w023.dat" (or the body's name alone) into buf. Returns buf. */
char *ent_files_pair_name(const run_results *r, const res_entity *en, char *buf, size_t n);

/* One trace file read clip by clip, with one clip read ahead. */
typedef struct ent_reader {
    tj_reader *r;
    char path[4200];
    int failed; /* broken from here on: every later clip gets err */
    ff_error err;
    tj_clip clip;
    trace t;
    int have;
    tf_lines lines; /* every line accounted for (harness/traces/tracefile.h) */
} ent_reader;

/* The trace files of one entity unit. */
typedef struct ent_files {
    ent_reader cand, auth;
    mode_id mode;
    const struct tset_entity *cand_entry, *auth_entry; /* manifest entries, NULL: none */
} ent_files;

/* Opens the unit's candidate (against_dir) and authority (traces_dir) files as asked. */
void ent_files_open(ent_files *f, run_ctx *ctx, const run_unit *u);
void ent_files_close(ent_files *f);
/* The candidate's traces of clip into out. Returns 0, or -1 with err (this clip's error). */
int ent_files_candidate(ent_files *f, run_ctx *ctx, const res_entity *en, uint32_t clip,
                        ent_trace *out, ff_error *err);
/* The recorded original's side of clip (a fault from the manifest). 0 or -1 with err. */
int ent_files_authority(ent_files *f, run_ctx *ctx, const res_entity *en, uint32_t clip,
                        ent_outcome *o, ff_error *err);
/*
 * After the unit's last clip (an entity of nclips clips): reads what is left
 * of both files; then 1 with e when clip's answer cannot be trusted (lines
 * of its anim after it was answered; for the last clip also a clip past the
 * entity's or lines after it that cannot be read), as tracefile.h's
 * tf_rest and tf_problem.
 */
void ent_files_rest(ent_files *f, uint32_t nclips);
int ent_files_problem(const ent_files *f, uint32_t clip, uint32_t nclips, ff_error *e);
/* Appends the Trace JSON Lines of clip's calls t to b. */
void ent_files_write(strbuf *b, run_ctx *ctx, const run_unit *u, uint32_t clip, const ent_trace *t);
/* Writes b as the unit's trace file into the record folder. Returns 0, or -1 with err. */
int ent_files_record(run_ctx *ctx, const run_unit *u, const strbuf *b, ff_error *err);

#endif
