/*
 * harness/run/both.c: one clip on two engines compared (see both.h): the
 * faults first (kind and place), then the traces field by field; every
 * differing value is walked to tell pose cells off by one from anything
 * else.
 */
#include "harness/run/both.h"

#include <string.h>

typedef struct walk {
    uint64_t cells;
    int other; /* a difference that is not a pose cell off by one */
} walk;

static int on_diff(void *arg, field_id f, unsigned bone, int32_t a, int32_t b)
{
    walk *w = arg;
    (void)bone;
    const field_def *d = field_def_of(f);
    int64_t diff = (int64_t)a - b;
    w->cells++;
    if (!d || d->level != FIELD_LEVEL_POSE || f == FIELD_BUILD_RET || diff > 1 || diff < -1)
        w->other = 1;
    return 0;
}

void both_compare(const orig_outcome *first, const orig_outcome *second, res_both *out)
{
    memset(out, 0, sizeof *out);
    out->fault_first = first->faulted ? (int)first->fault.kind : (int)EMU_FAULT_NONE;
    out->fault_second = second->faulted ? (int)second->fault.kind : (int)EMU_FAULT_NONE;
    out->eip_first = first->faulted ? first->fault.eip : 0;
    out->eip_second = second->faulted ? second->fault.eip : 0;
    int faults_differ = out->fault_first != out->fault_second ||
                        (first->faulted && (first->fault.eip != second->fault.eip ||
                                            first->fault.addr != second->fault.addr));
    int traces_differ = cmp_traces(&first->t, &second->t, &out->div);
    if (!faults_differ && !traces_differ) {
        out->state = RES_ENG_AGREE;
        return;
    }
    walk w = {0, faults_differ || first->t.n != second->t.n};
    size_t n = first->t.n < second->t.n ? first->t.n : second->t.n;
    for (size_t i = 0; i < n; i++)
        cmp_each_differing(&first->t, &second->t, i, on_diff, &w);
    out->cells = w.cells;
    out->state = w.other ? RES_ENG_DISAGREE : RES_ENG_X87;
}
