/*
 * harness/core/cells.h: every differing value of a mismatching clip (a
 * "cell": tick, field, bone, both values), classed by what it can do to
 * the pose a viewer draws:
 *
 *   whole_turns  a rotation off by a non-zero multiple of 4096 (whole
 *                turns, 16-bit wraps included: 65536 is 16 turns): the
 *                angle's sine and cosine are the same, so no pose effect
 *                beyond trig rounding;
 *   pose         anything else the pose is made of: root translation,
 *                the mode bit, another rotation difference, a scale
 *                (a wrapped scale is a pose difference: scales are not
 *                periodic), a matrix cell or translation;
 *   state        what the decoder keeps between calls (AnimCmd, the
 *                call's result): no pose of its own.
 *
 * A class never changes a verdict: the clip stays a mismatch (the values
 * differ) and every cell is counted. Whole-turn cells may also be checked
 * against the bone matrices of their tick (cell_check_fn): whether the
 * matrices actually differed there.
 *
 * Nothing here allocates, prints or knows where the traces came from.
 */
#ifndef FF8_HARNESS_CORE_CELLS_H
#define FF8_HARNESS_CORE_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "harness/core/fields.h"
#include "harness/core/trace.h"

/* id, JSON name, what it means for the pose */
#define CELL_CLASS_MAP(XX)                                                                         \
    XX(WHOLE_TURNS, "whole_turns", "whole turns: no pose effect beyond trig rounding")             \
    XX(POSE, "pose", "a pose difference")                                                          \
    XX(STATE, "state", "decoder state: no pose of its own")

typedef enum cell_class {
#define CELL_CLASS_ENUM(id, name, text) CELL_##id,
    CELL_CLASS_MAP(CELL_CLASS_ENUM)
#undef CELL_CLASS_ENUM
        CELL__COUNT
} cell_class;

/* "whole_turns", ...; "?" out of range. */
const char *cell_class_name(cell_class c);
/* The sentence a report shows for the class; "?" out of range. */
const char *cell_class_text(cell_class c);
/* Looks a JSON name up; -1 when unknown. */
int cell_class_from_name(const char *name);

/* The class of a differing value of f (ref != orig; 64-bit difference, no overflow). */
cell_class cell_classify(field_id f, int32_t ref, int32_t orig);

/* Whether a whole-turn cell's bone matrices differed at its tick. */
typedef enum cell_mat { CELL_MAT_UNKNOWN = -1, CELL_MAT_EQUAL = 0, CELL_MAT_DIFFER = 1 } cell_mat;

/* Where the candidate's matrices came from, for the whole clip. */
typedef enum cell_mat_from {
    CELL_MAT_FROM_NONE = 0,  /* not compared: no pose level */
    CELL_MAT_FROM_CANDIDATE, /* the candidate's own "mat" */
    CELL_MAT_FROM_COMPUTED   /* built by the reference's pose from the candidate's values */
} cell_mat_from;
/* "candidate", "computed"; NULL for NONE. */
const char *cell_mat_from_name(cell_mat_from m);

/* Cells listed per clip: every class is counted in full, the first ones listed. */
#define CELLS_LISTED_TURNS 64 /* whole turns: each is one a viewer cannot see */
#define CELLS_LISTED_OTHER 8  /* pose and state: the first divergence says the rest */

typedef struct cell_value {
    uint32_t tick;
    uint16_t field; /* field_id */
    uint16_t bone;
    int32_t ref, orig;
    uint8_t cls; /* cell_class */
    int8_t mat;  /* cell_mat (whole turns only; UNKNOWN otherwise) */
} cell_value;

typedef struct cell_list {
    uint64_t count[CELL__COUNT];
    uint64_t turns_equal, turns_differ; /* whole-turn cells by their matrices */
    uint8_t mat_from;                   /* cell_mat_from */
    uint32_t n;                         /* listed, in comparison order */
    cell_value cell[CELLS_LISTED_TURNS + 2 * CELLS_LISTED_OTHER];
} cell_list;

/*
 * Answers whether bone's matrices differed at tick (*out), for a
 * whole-turn cell; sets *from once it knows where the candidate's came
 * from. Returns 0, or -1 with err (memory).
 */
typedef int (*cell_check_fn)(void *arg, size_t tick, unsigned bone, cell_mat *out,
                             cell_mat_from *from, ff_error *err);

/*
 * Collects into *out (zeroed first) every differing common value of ref
 * and orig from tick `from` to the end of the shorter trace (harness/core/
 * compare.h's walk, comparison order), classed; check (may be NULL: not
 * compared) answers for every whole-turn cell. Returns 0, or -1 with err
 * when check fails.
 */
int cell_collect(const trace *ref, const trace *orig, size_t from, cell_check_fn check, void *arg,
                 cell_list *out, ff_error *err);

#endif
