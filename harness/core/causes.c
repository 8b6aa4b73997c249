/*
 * harness/core/causes.c: explained mismatches merged into causes
 * (harness/core/causes.h) with a union-find over their signatures.
 */
#include "harness/core/causes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/causes_internal.h"
#include "harness/core/fields.h"

#define SIG_MAX 192

/* One explained mismatch: a frame group, a clip result, or a leaf group. */
typedef struct item {
    int group;               /* its group (-1: none) */
    int64_t result;          /* its clip result (-1: a whole group, or leaf) */
    const res_explain *expl; /* NULL for leaf items */
    char sig[2][SIG_MAX];
    int parent;
} item;

static int find(item *it, int i)
{
    while (it[i].parent != i) {
        it[i].parent = it[it[i].parent].parent;
        i = it[i].parent;
    }
    return i;
}

void causes_relation(int32_t ref, int32_t orig, int32_t before, int bits, char *out, size_t n)
{
    int64_t d = (int64_t)orig - ref, a = d < 0 ? -d : d;
    out[0] = '\0';
    if (bits || d == 0) return;
    if (d == -1)
        snprintf(out, n, "orig_lower_by_1");
    else if (d == 1)
        snprintf(out, n, "orig_higher_by_1");
    else if (a >= 8 && !(a & (a - 1))) {
        int k = 0;
        while (a > 1)
            a >>= 1, k++;
        snprintf(out, n, "differs_by_2^%d", k);
    } else if (before != 0 && d == before)
        snprintf(out, n, "kept_previous");
}

/* Who answers for a first differing read: the read itself (a value or an advance). */
static int own_read(const readcmp_first *f)
{
    return f->diff == READCMP_VALUE || f->diff == READCMP_ADVANCE;
}

/*
 * The read signature of a first differing read: the original's instruction behind it.
 * A value or an advance comes out of the routine read (its own code); a bit count, a
 * cursor or another call is the caller's call instruction, named by its routine and
 * offset (stable across builds of the same code); a call the original never makes has
 * no instruction, so it is known by the call the reference makes there.
 */
static void read_sig(const res_explain *e, char *out)
{
    const readcmp_first *f = &e->first;
    if (own_read(f))
        snprintf(out, SIG_MAX, "read|%s|%s", f->routine, readcmp_diff_name(f->diff));
    else if (e->call_eip && e->call_routine[0] && e->call_in_profile)
        snprintf(out, SIG_MAX, "read|%s+0x%x|%s", e->call_routine, e->call_offset,
                 readcmp_diff_name(f->diff));
    else if (e->call_eip && e->call_routine[0]) /* a routine the profile does not list */
        snprintf(out, SIG_MAX, "read|0x%x+0x%x|%s", e->call_eip - e->call_offset, e->call_offset,
                 readcmp_diff_name(f->diff));
    else if (e->call_eip)
        snprintf(out, SIG_MAX, "read|0x%x|%s", e->call_eip, readcmp_diff_name(f->diff));
    else if (f->diff == READCMP_SEQUENCE && f->have_orig)
        snprintf(out, SIG_MAX, "read|%s|sequence|original calls %s", f->caller,
                 ref_routine_name((ref_routine)f->orig.routine));
    else if (f->diff == READCMP_SEQUENCE)
        snprintf(out, SIG_MAX, "read|%s|sequence|original omits %s", f->caller,
                 ref_routine_name((ref_routine)f->ref.routine));
    else
        snprintf(out, SIG_MAX, "read|%s|%s|%s", f->caller, readcmp_diff_name(f->diff), f->routine);
}

static void frame_sigs(const res_explain *e, field_id field, item *it)
{
    if (e->state == RES_EXPL_READ) {
        read_sig(e, it->sig[0]);
        return;
    }
    const emu_writer *w = &e->writer;
    /* One store writing several fields of one kind (a loop over a matrix's cells, a
     * vector's components) is one cause: the field's group, not the field, goes with it. */
    const field_def *d = field_def_of(field);
    if (e->have_writer && w->writes)
        snprintf(it->sig[0], SIG_MAX, "write|0x%x|%s", w->eip, d ? d->json_key : "?");
    else
        snprintf(it->sig[0], SIG_MAX, "write|none|%s", field_kind_name(field));
    if (e->have_writer && w->writes && w->routine[0] && e->relation[0] &&
        strcmp(e->relation, "kept_previous") != 0)
        snprintf(it->sig[1], SIG_MAX, "arith|%s|%s", w->routine, e->relation);
}

/*
 * The read signature of a leaf group: its routine, called alone, answers for what it
 * returns or how far it moves the cursor (the frame level's key of such a read).
 */
static void leaf_sig(const leaf_result *l, char *out)
{
    const leaf_case *c = &l->first;
    snprintf(out, SIG_MAX, "read|%s|%s", l->routine, c->ref_ax != c->orig_ax ? "value" : "advance");
}

/* Items of the run; *n set. NULL when memory runs out (or none: *n == 0). */
static item *gather(const run_results *res, size_t *n)
{
    size_t cap = res->ngroups + (res->explained_all ? res->nresults : 0) + 1;
    item *it = calloc(cap, sizeof *it);
    *n = 0;
    if (!it) return NULL;
    for (size_t g = 0; g < res->ngroups; g++) {
        const res_group *grp = &res->groups[g];
        if (!strcmp(grp->level, "leaf")) {
            if (grp->example < 0 || (size_t)grp->example >= res->nleaf) continue;
            item *x = &it[(*n)++];
            x->group = (int)g;
            x->result = -1;
            leaf_sig(&res->leaf[grp->example], x->sig[0]);
            continue;
        }
        if (res->explained_all || grp->example < 0) continue;
        if (grp->expl.state != RES_EXPL_READ && grp->expl.state != RES_EXPL_COMBINE) continue;
        item *x = &it[(*n)++];
        x->group = (int)g;
        x->result = -1;
        x->expl = &grp->expl;
        frame_sigs(&grp->expl, res->results[grp->example].div.field, x);
    }
    for (size_t i = 0; res->explained_all && i < res->nresults; i++) {
        const clip_result *r = &res->results[i];
        if (r->status != RES_MISMATCH || !r->expl) continue;
        if (r->expl->state != RES_EXPL_READ && r->expl->state != RES_EXPL_COMBINE) continue;
        item *x = &it[(*n)++];
        x->group = r->group;
        x->result = (int64_t)i;
        x->expl = r->expl;
        frame_sigs(r->expl, r->div.field, x);
    }
    return it;
}

/* Joins items sharing a signature. -1 when memory runs out. */
static int join(item *it, size_t n)
{
    const char **seen = malloc((2 * n + 1) * sizeof *seen);
    int *owner = malloc((2 * n + 1) * sizeof *owner);
    size_t ns = 0;
    if (!seen || !owner) {
        free(seen);
        free(owner);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        it[i].parent = (int)i;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            if (!it[i].sig[k][0]) continue;
            size_t s = 0;
            while (s < ns && strcmp(seen[s], it[i].sig[k]))
                s++;
            if (s == ns) {
                seen[ns] = it[i].sig[k];
                owner[ns++] = (int)i;
                continue;
            }
            int a = find(it, (int)i), b = find(it, owner[s]);
            if (a != b) it[a > b ? a : b].parent = a > b ? b : a;
        }
    free(seen);
    free(owner);
    return 0;
}

void causes_free(run_results *res)
{
    for (size_t c = 0; c < res->ncauses; c++)
        free(res->causes[c].groups);
    free(res->causes);
    res->causes = NULL;
    res->ncauses = 0;
}

/* The clip result an item stands for: its own, or its group's example. */
static const clip_result *item_result(const run_results *res, const item *x)
{
    if (x->result >= 0) return &res->results[x->result];
    if (x->group < 0 || !x->expl) return NULL;
    int64_t e = res->groups[x->group].example;
    return e >= 0 && (size_t)e < res->nresults ? &res->results[e] : NULL;
}

/* Routine, instruction and statement of cause c from its example item. */
static void describe(const run_results *res, const item *x, res_cause *c)
{
    if (!x->expl) {
        const leaf_result *l = &res->leaf[res->groups[x->group].example];
        causes_put(c->kind, sizeof c->kind, "read");
        causes_put(c->routine, sizeof c->routine, "%s", l->routine);
        causes_put(c->statement, sizeof c->statement,
                   "%s differs on generated cursors: case %llu, reference AX %d, original AX %d, "
                   "cursor %lld.%d vs %lld.%d",
                   l->routine, (unsigned long long)l->first.index, l->first.ref_ax,
                   l->first.orig_ax, (long long)l->first.ref_pos, l->first.ref_bit,
                   (long long)l->first.orig_pos, l->first.orig_bit);
        return;
    }
    const res_explain *e = x->expl;
    if (e->state == RES_EXPL_READ) {
        causes_put(c->kind, sizeof c->kind, "read");
        causes_put(c->routine, sizeof c->routine, "%s", e->first.responsible);
        causes_read_statement(e, c->statement, sizeof c->statement);
        if (e->call_eip) {
            c->have_insn = 1;
            c->eip = e->call_eip;
            causes_put(c->insn, sizeof c->insn, "%s", e->call_insn);
            causes_put(c->insn_routine, sizeof c->insn_routine, "%s", e->call_routine);
            c->insn_in_profile = e->call_in_profile;
            c->insn_offset = e->call_offset;
        }
        return;
    }
    causes_put(c->kind, sizeof c->kind, "combine");
    const emu_writer *w = &e->writer;
    causes_put(c->routine, sizeof c->routine, "%s", e->have_writer && w->writes ? w->routine : "");
    if (e->have_writer && w->writes) {
        c->have_insn = 1;
        c->eip = w->eip;
        causes_put(c->insn, sizeof c->insn, "%s", w->insn);
        causes_put(c->insn_routine, sizeof c->insn_routine, "%s", w->routine);
        c->insn_in_profile = w->routine_in_profile;
        c->insn_offset = w->routine_offset;
    }
    const clip_result *r = item_result(res, x);
    if (r) causes_combine_statement(e, r, c->statement, sizeof c->statement);
}

/* Adds item x's value difference to cause k unless its class is listed already. */
static void add_value(const run_results *res, const item *x, res_cause *k)
{
    char v[sizeof k->values[0]];
    size_t cls_len = 0;
    const leaf_result *l = x->expl ? NULL : &res->leaf[res->groups[x->group].example];
    causes_value_text(x->expl, l, x->expl ? item_result(res, x) : NULL, v, sizeof v, &cls_len);
    if (v[0]) causes_add_value(k, v, cls_len);
}

/* Causes of groups and results from the items' causes. */
static void assign(run_results *res, const item *it, size_t n, const int *cause_of)
{
    for (size_t i = 0; i < n; i++) {
        if (it[i].result >= 0)
            res->results[it[i].result].cause = cause_of[i];
        else if (it[i].group >= 0)
            res->groups[it[i].group].cause = cause_of[i];
    }
    if (res->explained_all) {
        /* A group takes the cause of its example, else of its first explained clip. */
        for (size_t i = 0; i < res->nresults; i++) {
            const clip_result *r = &res->results[i];
            if (r->status != RES_MISMATCH || r->group < 0 || r->cause < 0) continue;
            res_group *g = &res->groups[r->group];
            if (g->example == (int64_t)i || g->cause < 0) g->cause = r->cause;
        }
        return;
    }
    for (size_t i = 0; i < res->nresults; i++) {
        clip_result *r = &res->results[i];
        if (r->status == RES_MISMATCH && r->group >= 0) r->cause = res->groups[r->group].cause;
    }
}

/* Counts and the groups of cause c. -1 when memory runs out. */
static int count(run_results *res, size_t c, uint8_t *file_seen)
{
    res_cause *k = &res->causes[c];
    memset(file_seen, 0, res->nfiles ? res->nfiles : 1);
    for (size_t i = 0; i < res->nresults; i++) {
        const clip_result *r = &res->results[i];
        if (r->cause != (int)c) continue;
        k->clips++;
        k->modes |= 1u << r->mode;
        if (r->file < res->nfiles && !file_seen[r->file]) {
            file_seen[r->file] = 1;
            k->files++;
        }
    }
    for (size_t g = 0; g < res->ngroups; g++) {
        int in = res->groups[g].cause == (int)c;
        for (size_t i = 0; !in && res->explained_all && i < res->nresults; i++)
            in = res->results[i].cause == (int)c && res->results[i].group == (int)g;
        if (!in) continue;
        int *gs = realloc(k->groups, (k->ngroups + 1) * sizeof *gs);
        if (!gs) return -1;
        k->groups = gs;
        k->groups[k->ngroups++] = (int)g;
        if (!strcmp(res->groups[g].level, "leaf")) k->leaf_calls += res->groups[g].count;
    }
    return 0;
}

static int fill_causes(run_results *res, const item *it, size_t n, const int *cause_of)
{
    assign(res, it, n, cause_of);
    uint8_t *file_seen = malloc(res->nfiles ? res->nfiles : 1);
    if (!file_seen) return -1;
    for (size_t c = 0; c < res->ncauses; c++) {
        /* The example: a frame item of the lowest group, its group's own example first. */
        const item *best = NULL;
        for (size_t i = 0; i < n; i++) {
            if (cause_of[i] != (int)c) continue;
            int own = it[i].result < 0 ||
                      (it[i].group >= 0 && res->groups[it[i].group].example == it[i].result);
            int best_own =
                best && (best->result < 0 ||
                         (best->group >= 0 && res->groups[best->group].example == best->result));
            /* A frame example (with its read logs) before a leaf one. */
            int frame = it[i].expl != NULL, best_frame = best && best->expl != NULL;
            if (!best || frame > best_frame ||
                (frame == best_frame &&
                 (it[i].group < best->group || (it[i].group == best->group && own && !best_own))))
                best = &it[i];
        }
        res_cause *k = &res->causes[c];
        k->example = best->group;
        causes_put(k->signature, sizeof k->signature, "%s%s%s", best->sig[0],
                   best->sig[1][0] ? " + " : "", best->sig[1]);
        describe(res, best, k);
        add_value(res, best, k);
        for (size_t i = 0; i < n; i++)
            if (cause_of[i] == (int)c) add_value(res, &it[i], k);
        if (count(res, c, file_seen) < 0) {
            free(file_seen);
            return -1;
        }
    }
    free(file_seen);
    return 0;
}

static int before_cause(const res_cause *x, const res_cause *y)
{
    uint64_t cx = x->clips + x->leaf_calls + x->entity_clips;
    uint64_t cy = y->clips + y->leaf_calls + y->entity_clips;
    if (cx != cy) return cx > cy;
    if ((x->example < 0) != (y->example < 0)) return y->example < 0; /* a cause without a group last */
    return x->example < y->example;
}

/* Orders causes by what they explain and renumbers every reference to them. */
static void sort_causes(run_results *res)
{
    size_t n = res->ncauses;
    if (n < 2) return;
    res_cause *sorted = malloc(n * sizeof *sorted);
    int *order = malloc(n * sizeof *order), *old_to_new = malloc(n * sizeof *old_to_new);
    if (!sorted || !order || !old_to_new) {
        free(sorted);
        free(order);
        free(old_to_new);
        return; /* unsorted causes are still right */
    }
    /* Insertion sort of indexes (a few causes; stable). */
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        while (j && before_cause(&res->causes[i], &res->causes[order[j - 1]])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = (int)i;
    }
    for (size_t i = 0; i < n; i++) {
        sorted[i] = res->causes[order[i]];
        old_to_new[order[i]] = (int)i;
    }
    for (size_t g = 0; g < res->ngroups; g++)
        if (res->groups[g].cause >= 0) res->groups[g].cause = old_to_new[res->groups[g].cause];
    for (size_t i = 0; i < res->nresults; i++)
        if (res->results[i].cause >= 0) res->results[i].cause = old_to_new[res->results[i].cause];
    for (size_t i = 0; i < res->nentity_results; i++) {
        clip_result *r = &res->entity_results[i].r;
        if (r->cause >= 0) r->cause = old_to_new[r->cause];
    }
    memcpy(res->causes, sorted, n * sizeof *sorted);
    free(sorted);
    free(order);
    free(old_to_new);
}

int causes_build(run_results *res)
{
    causes_free(res);
    for (size_t g = 0; g < res->ngroups; g++)
        res->groups[g].cause = -1;
    for (size_t i = 0; i < res->nresults; i++)
        res->results[i].cause = -1;
    for (size_t i = 0; i < res->nentity_results; i++)
        res->entity_results[i].r.cause = -1;
    size_t n;
    item *it = gather(res, &n);
    if (!it) return -1;
    if (join(it, n) < 0) {
        free(it);
        return -1;
    }
    /* One cause per root, numbered in item order, then filled and sorted. */
    int *cause_of = malloc((n + 1) * sizeof *cause_of);
    res->causes = calloc(n + 1, sizeof *res->causes);
    if (!cause_of || !res->causes) {
        free(cause_of);
        free(it);
        causes_free(res);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        int root = find(it, (int)i);
        if (root == (int)i) cause_of[i] = (int)res->ncauses++;
    }
    for (size_t i = 0; i < n; i++)
        cause_of[i] = cause_of[find(it, (int)i)];
    int rc = fill_causes(res, it, n, cause_of);
    free(cause_of);
    free(it);
    if (rc == 0) rc = causes_add_entity(res);
    if (rc == 0) rc = causes_add_quirk(res);
    if (rc < 0) {
        causes_free(res);
        return -1;
    }
    sort_causes(res);
    return 0;
}
