/*
 * harness/run/leaf.h: the leaf level: bitReader and the three value readers,
 * each called on both sides with the same cursor over generated buffers,
 * comparing AX (the low 16 bits of the result) and the cursor after the call.
 *
 * Cases are generated from (seed, routine, index) alone, so any subset of
 * them can run on any worker in any order with the same outcome:
 *   bitReader: n = 1..16 at bit offsets 0..7 over random and edge buffers;
 *   ReadPositionType / ReadRotationType / ReadBoneScale: every prefix of
 *   their type bits (2, 3 and 1 bits) at every bit offset, followed by edge
 *   and random payloads.
 */
#ifndef FF8_HARNESS_RUN_LEAF_H
#define FF8_HARNESS_RUN_LEAF_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/game.h"
#include "harness/core/results.h"

struct run_ctx;
struct run_unit;

#define LEAF_CHUNK 4096
/* The leaf level's routines: emu_leaf's, from ref/readlog.h's REF_ROUTINE_MAP. */
#define LEAF_ROUTINES EMU_LEAF__COUNT

/* Routine names, in emu_leaf order; "?" out of range. */
const char *leaf_routine_name(emu_leaf r);
/* Number of cases for a routine (bitreader_calls is the bitReader's). */
uint64_t leaf_case_count(emu_leaf r, uint64_t bitreader_calls);
/* Case number index of routine r (buffer, bit offset, width). */
void leaf_case_make(emu_leaf r, uint64_t seed, uint64_t index, leaf_case *c);
/*
 * The reference side of a case: fills c->ref_ax, ref_pos, ref_bit. Returns
 * -1 with err if the reference refuses the case.
 */
int leaf_case_ref(emu_leaf r, leaf_case *c, ff_error *err);

/* Run plumbing (harness/run*.c). */
int leaf_setup(struct run_ctx *ctx, size_t *nunits, ff_error *err);
void leaf_units(struct run_ctx *ctx, struct run_unit *units);
/* One chunk of cases on g, and under --engine both on g2 as well (NULL: no second engine). */
int leaf_run_unit(struct run_ctx *ctx, emu_game *g, emu_game *g2, const struct run_unit *u,
                  ff_error *err);

/*
 * What one chunk found, to merge into the run's (local.fault is unused: the
 * first fault is first_fault).
 */
typedef struct leaf_chunk {
    leaf_result local;
    int have_fault;
    emu_fault first_fault;
    uint64_t fault_index;
} leaf_chunk;
/* One engine's answer to one case of a chunk (a fault's kind, instruction and address). */
typedef struct leaf_answer {
    int64_t pos;
    int32_t bit;
    uint32_t eip, addr;
    int16_t ax;
    uint8_t faulted, kind;
} leaf_answer;
/*
 * One engine's answers to a chunk's cases, nothing compared: plain data, so
 * that an engine process sends them as bytes and its worker compares
 * (remote.h: an engine process sends no verdict).
 */
typedef struct leaf_answers {
    uint64_t n;           /* cases answered, from the chunk's first */
    int have_fault;
    uint64_t fault_index; /* the first faulting case's number (have_fault) */
    emu_fault first_fault;
    leaf_answer a[LEAF_CHUNK];
} leaf_answers;
/* leaf_run_unit's parts: the original's answers on g (no lock taken, nothing compared). */
void leaf_unit_answer(struct run_ctx *ctx, emu_game *g, const struct run_unit *u,
                      leaf_answers *out);
/*
 * Whether answers from an engine process are sound for unit u: one for each
 * of its chunk's cases, faults of known kinds, the first fault the first
 * faulting case's; strings ended. 1 when sound.
 */
int leaf_answers_sound(struct run_ctx *ctx, const struct run_unit *u, leaf_answers *a);
/*
 * The comparison of unit u: the reference against first's answers, and
 * under --engine both second's against first's (NULL: none). Returns 0, or
 * -1 with err.
 */
int leaf_unit_judge(struct run_ctx *ctx, const struct run_unit *u, const leaf_answers *first,
                    const leaf_answers *second, leaf_chunk *out, ff_error *err);
/* The chunk's merge into the run's. */
int leaf_unit_merge(struct run_ctx *ctx, const struct run_unit *u, const leaf_chunk *c,
                    ff_error *err);
/* The chunk of a unit whose engine process died (why): every case a fault of that kind. */
void leaf_unit_lost(struct run_ctx *ctx, const struct run_unit *u, const char *why,
                    leaf_chunk *out);

#endif
