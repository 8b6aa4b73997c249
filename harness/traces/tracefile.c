/*
 * harness/traces/tracefile.c: reading one trace file clip by clip (tracefile.h).
 */
#include "harness/traces/tracefile.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>


/*
 * Opens the traces of (f, m) in dir: the file the manifest names when there
 * is one (after checking it was recorded from these very bytes), else
 * <name>.<mode>.jsonl or .jsonl.lz4. A failure is kept and given as every
 * clip's error.
 */
void tf_open(trace_file *tf, const char *dir, const tset *set, const run_file *f, mode_id m)
{
    memset(tf, 0, sizeof *tf);
    trace_init(&tf->t);
    tf->name = f->name;
    tf->mode = m;
    char file[512];
    const tset_file *sf = set ? tset_find(set, f->name) : NULL;
    if (set && !sf) {
        ff_error_set(&tf->err, FF_E_FORMAT, f->name, -1,
                     "no traces recorded for this file (not in %s/%s)", dir, TSET_MANIFEST);
    } else if (sf && strcmp(sf->sha256, f->sha256) != 0) {
        ff_error_set(&tf->err, FF_E_FORMAT, f->name, -1,
                     "traces recorded from a different file (SHA-256 %.16s..., this file "
                     "%.16s...)",
                     sf->sha256, f->sha256);
    } else if (sf && !sf->trace[m]) {
        ff_error_set(&tf->err, FF_E_FORMAT, f->name, -1, "no %s-mode traces recorded in %s",
                     mode_name(m), dir);
    } else {
        for (int lz4 = 0; lz4 < 2 && !tf->r; lz4++) {
            if (sf)
                snprintf(file, sizeof file, "%s", sf->trace[m]);
            else
                tj_file_name(file, sizeof file, f->name, m, lz4);
            snprintf(tf->path, sizeof tf->path, "%s/%s", dir, file);
            ff_error e;
            tf->r = tj_open(tf->path, &e);
            /* A file that is there but refused (not a regular file...) is the error. */
            int there = !tf->r && access(tf->path, F_OK) == 0;
            if ((sf || there) && !tf->r) tf->err = e;
            if (sf || there) break;
        }
        if (!tf->r && !sf && tf->err.kind == FF_E_OK)
            ff_error_set(&tf->err, FF_E_IO, dir, -1, "no trace file for %s in %s mode", f->name,
                         mode_name(m));
    }
    tf->failed = tf->r == NULL;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Marks the rest of the file broken: "line N: why". */
static int tf_break(trace_file *tf, ff_error *err, const char *why)
{
    tf->failed = 1;
    ff_error_set(&tf->err, FF_E_FORMAT, tf->path, -1, "line %lu: %s", tf->clip.line, why);
    *err = tf->err;
    return -1;
}

/* Takes clip's trace into out: 0 found, -1 with err (missing or malformed). */
int tf_take(trace_file *tf, uint32_t clip, unsigned bones, trace *out, ff_error *err)
{
    if (tf->failed) {
        *err = tf->err;
        return -1;
    }
    if (!tf->have) {
        int rc = tj_next_clip(tf->r, &tf->clip, &tf->t, &tf->err);
        if (rc < 0) {
            tf->failed = 1;
            *err = tf->err;
            return -1;
        }
        tf->have = rc;
    }
    if (!tf->have)
        return ff_error_set(err, FF_E_FORMAT, tf->path, -1,
                            "no trace for anim %u: the file "
                            "ends before it",
                            clip);
    char why[TJ_NAME_MAX + 200];
    if (tf->clip.mode != tf->mode) {
        snprintf(why, sizeof why, "mode \"%s\" in the %s-mode trace file", mode_name(tf->clip.mode),
                 mode_name(tf->mode));
        return tf_break(tf, err, why);
    }
    if (strcmp(base_name(tf->clip.file), tf->name) != 0) {
        snprintf(why, sizeof why, "file \"%s\" in a trace file of %s", tf->clip.file, tf->name);
        return tf_break(tf, err, why);
    }
    if (tf->clip.anim < clip) {
        snprintf(why, sizeof why,
                 "anim %u out of order (each anim comes once, in increasing "
                 "order)",
                 tf->clip.anim);
        return tf_break(tf, err, why);
    }
    if (tf->clip.anim != clip)
        return ff_error_set(err, FF_E_FORMAT, tf->path, -1,
                            "line %lu: no trace for anim %u (anim %u comes next)", tf->clip.line,
                            clip, tf->clip.anim);
    tf->have = 0;
    if (tf->t.bones != bones)
        return ff_error_set(err, FF_E_FORMAT, tf->path, -1,
                            "line %lu: anim %u has %u bones, the model has %u", tf->clip.line, clip,
                            tf->t.bones, bones);
    return trace_copy(out, &tf->t, err);
}

void tf_close(trace_file *tf)
{
    tj_close(tf->r);
    trace_free(&tf->t);
}

/*
 * A clip from recorded traces, with the fault the manifest records for it
 * (the trace file then holds the calls made before the fault, maybe none).
 * Returns 0, or -1 with err.
 */
int tf_recorded(trace_file *tf, const tset_file *sf, uint32_t clip, unsigned bones, orig_outcome *o,
                ff_error *err)
{
    const tset_fault *ft = sf ? tset_fault_of(sf, tf->mode, clip) : NULL;
    o->faulted = 0;
    o->extent = 0;
    if (ft && ft->ticks == 0 && !tf->failed)
        trace_clear(&o->t, bones);
    else if (tf_take(tf, clip, bones, &o->t, err) < 0)
        return -1;
    if (!ft) return 0;
    if (o->t.n != ft->ticks)
        return ff_error_set(err, FF_E_FORMAT, tf->path, -1,
                            "line %lu: anim %u has %zu calls, the manifest records %u before "
                            "its fault",
                            tf->clip.line, clip, o->t.n, ft->ticks);
    o->faulted = 1;
    o->fault = ft->fault;
    return 0;
}
