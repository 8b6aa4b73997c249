/*
 * harness/core/cells.c: the differing values of a clip, classed by their
 * effect on the pose, counted in full and the first ones of each class
 * listed.
 */
#include "harness/core/cells.h"

#include <string.h>

#include "harness/core/compare.h"

static const char *const class_names[CELL__COUNT] = {
#define CELL_CLASS_NAME(id, name, text) name,
    CELL_CLASS_MAP(CELL_CLASS_NAME)
#undef CELL_CLASS_NAME
};
static const char *const class_texts[CELL__COUNT] = {
#define CELL_CLASS_TEXT(id, name, text) text,
    CELL_CLASS_MAP(CELL_CLASS_TEXT)
#undef CELL_CLASS_TEXT
};

const char *cell_class_name(cell_class c)
{
    return (unsigned)c < CELL__COUNT ? class_names[c] : "?";
}

const char *cell_class_text(cell_class c)
{
    return (unsigned)c < CELL__COUNT ? class_texts[c] : "?";
}

int cell_class_from_name(const char *name)
{
    for (int c = 0; name && c < CELL__COUNT; c++)
        if (strcmp(class_names[c], name) == 0) return c;
    return -1;
}

const char *cell_mat_from_name(cell_mat_from m)
{
    return m == CELL_MAT_FROM_CANDIDATE  ? "candidate"
           : m == CELL_MAT_FROM_COMPUTED ? "computed"
                                         : NULL;
}

/* 4096 = 360 degrees (docs/engine.md section 3). */
#define CELL_TURN 4096

cell_class cell_classify(field_id f, int32_t ref, int32_t orig)
{
    const field_def *d = field_def_of(f);
    if (!d || d->area == FIELD_AREA_CMD || d->area == FIELD_AREA_RET ||
        d->area == FIELD_AREA_BUILD_RET)
        return CELL_STATE;
    int64_t diff = (int64_t)ref - (int64_t)orig;
    int rotation = f == FIELD_ROT_X || f == FIELD_ROT_Y || f == FIELD_ROT_Z;
    if (rotation && diff != 0 && diff % CELL_TURN == 0) return CELL_WHOLE_TURNS;
    return CELL_POSE;
}

typedef struct collect {
    cell_list *out;
    size_t tick;
    cell_check_fn check;
    void *arg;
    ff_error *err;
    unsigned listed[CELL__COUNT];
} collect;

static int one(void *arg, field_id f, unsigned bone, int32_t ref, int32_t orig)
{
    collect *c = arg;
    cell_list *o = c->out;
    cell_class k = cell_classify(f, ref, orig);
    o->count[k]++;
    cell_mat mat = CELL_MAT_UNKNOWN;
    if (k == CELL_WHOLE_TURNS && c->check) {
        cell_mat_from from = (cell_mat_from)o->mat_from;
        if (c->check(c->arg, c->tick, bone, &mat, &from, c->err) < 0) return -1;
        o->mat_from = (uint8_t)from;
        o->turns_equal += mat == CELL_MAT_EQUAL;
        o->turns_differ += mat == CELL_MAT_DIFFER;
    }
    unsigned cap = k == CELL_WHOLE_TURNS ? CELLS_LISTED_TURNS : CELLS_LISTED_OTHER;
    if (c->listed[k] < cap) {
        c->listed[k]++;
        o->cell[o->n++] = (cell_value){(uint32_t)c->tick, (uint16_t)f, (uint16_t)bone, ref, orig,
                                       (uint8_t)k,        (int8_t)mat};
    }
    return 0;
}

int cell_collect(const trace *ref, const trace *orig, size_t from, cell_check_fn check, void *arg,
                 cell_list *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    collect c = {out, 0, check, arg, err, {0}};
    size_t common = ref->n < orig->n ? ref->n : orig->n;
    if (ref->lay.bones != orig->lay.bones) return 0; /* no cell lines up: the divergence says it */
    for (size_t i = from; i < common; i++) {
        c.tick = i;
        if (cmp_each_differing(ref, orig, i, one, &c) < 0) return -1;
    }
    return 0;
}
