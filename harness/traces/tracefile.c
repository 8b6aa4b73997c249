/*
 * harness/traces/tracefile.c: reading one trace file clip by clip. The
 * contracts are in tracefile.h; a file found broken keeps its error in
 * tf->err and gives it to every later clip (tf->failed).
 */
#include "harness/traces/tracefile.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/path.h"
#include "harness/traces/trace_fields.h"

/* The trace file names tried for (name, m): per mode, then frames (normal mode only). */
static int candidate_name(char *buf, size_t n, const char *name, mode_id m, int k, int frames_ok)
{
    if (k < 2) {
        tj_file_name(buf, n, name, m, k);
        return 1;
    }
    if (!frames_ok || m != MODE_NORMAL || k > 3) return 0;
    snprintf(buf, n, "%s.frames.jsonl%s", name, k == 3 ? ".lz4" : "");
    return 1;
}

/*
 * The candidate's file for (name, m) in a folder no manifest lists: the one
 * of its possible names that is there. Two of them there is an error naming
 * both (which one is the decoder's?); none, tf->absent.
 */
static void open_unlisted(trace_file *tf, const char *dir, const char *name, mode_id m,
                          int frames_ok)
{
    char file[512], found[512] = "";
    for (int k = 0; candidate_name(file, sizeof file, name, m, k, frames_ok); k++) {
        char path[sizeof tf->path];
        struct stat st;
        if (path_join(path, sizeof path, dir, file, &tf->err) < 0) return;
        if (lstat(path, &st) != 0) continue;
        if (found[0]) {
            ff_error_set(&tf->err, FF_E_FORMAT, dir, -1,
                         "two trace files for %s in %s mode: %s and %s (remove one)", name,
                         mode_name(m), found, file);
            return;
        }
        snprintf(found, sizeof found, "%s", file);
        snprintf(tf->path, sizeof tf->path, "%s", path);
    }
    if (found[0]) {
        /* A file that is there but refused (not a regular file...) is the error. */
        tf->r = tj_open(tf->path, &tf->err);
        return;
    }
    ff_error_set(&tf->err, FF_E_IO, dir, -1, "no trace file for %s in %s mode%s", name,
                 mode_name(m), frames_ok && m == MODE_NORMAL ? " (nor frames)" : "");
    tf->absent = 1;
}

void tf_open(trace_file *tf, const char *dir, const tset *set, const run_file *f, mode_id m,
             int frames_ok)
{
    memset(tf, 0, sizeof *tf);
    trace_init(&tf->t);
    tf->name = f->name;
    tf->mode = m;
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
    } else if (sf) {
        if (path_join(tf->path, sizeof tf->path, dir, sf->trace[m], &tf->err) == 0)
            tf->r = tj_open(tf->path, &tf->err);
    } else {
        open_unlisted(tf, dir, f->name, m, frames_ok);
    }
    tf->failed = tf->r == NULL;
}

uint64_t tf_text_need(const dat_file *d)
{
    /* Measured on the synthetic corpora: under 520 bytes a bone at the pose level. */
    uint64_t per_tick = 1024 + (uint64_t)d->bones * 640, ticks = 0;
    for (uint32_t c = 0; c < d->clips; c++) ticks += 2 * (uint64_t)dat_clip_frames(d, c) + 2;
    return ticks * per_tick + (1u << 20);
}

int tf_is_frames(const trace_file *tf)
{
    return tf->r && tj_reader_format(tf->r) == TJ_FORMAT_FRAMES;
}


/* Marks the rest of the file broken: "line N: why". */
static int tf_break(trace_file *tf, ff_error *err, const char *why)
{
    tf->failed = 1;
    ff_error_set(&tf->err, FF_E_FORMAT, tf->path, -1, "line %lu: %s", tf->clip.line, why);
    *err = tf->err;
    return -1;
}

int tf_take(trace_file *tf, uint32_t clip, unsigned bones, trace *out, ff_error *err)
{
    tf->taken_stop = NULL;
    for (;;) {
        if (tf->failed) {
            *err = tf->err;
            return tf->absent ? 1 : -1;
        }
        if (!tf->have) {
            int rc = tj_next_clip(tf->r, &tf->clip, &tf->t, &tf->err);
            if (rc < 0) {
                tf->failed = 1;
                continue;
            }
            tf->have = rc;
        }
        if (!tf->have) {
            ff_error_set(err, FF_E_FORMAT, tf->path, -1,
                         "no trace for anim %u: the file ends before it", clip);
            return 1;
        }
        char why[TJ_NAME_MAX + 200];
        if (tf->clip.mode != tf->mode) {
            snprintf(why, sizeof why, "mode \"%s\" in the %s-mode trace file",
                     mode_name(tf->clip.mode), mode_name(tf->mode));
            return tf_break(tf, err, why);
        }
        if (strcmp(path_base(tf->clip.file), tf->name) != 0) {
            snprintf(why, sizeof why, "file \"%s\" in a trace file of %s", tf->clip.file,
                     tf->name);
            return tf_break(tf, err, why);
        }
        if (tf->clip.anim >= clip) break;
        /* An anim already passed (given again, or out of order): its clip was answered. */
        tf_lines_late(&tf->lines, tf->clip.anim, tf->clip.line);
        tf->have = 0;
    }
    if (tf->clip.anim != clip) {
        ff_error_set(err, FF_E_FORMAT, tf->path, -1,
                     "line %lu: no trace for anim %u (anim %u comes next)", tf->clip.line, clip,
                     tf->clip.anim);
        return 1;
    }
    tf->have = 0;
    tf_lines_given(&tf->lines, clip, tf->clip.line);
    if (tf->clip.bad) {
        *err = tf->clip.error;
        return -1;
    }
    if (tf->clip.stopped) tf->taken_stop = tf->clip.stop;
    if (tf->clip.stopped && tf->t.n == 0) {
        /* The decoder gave up before its first frame: an empty trace of the frames' fields. */
        field_set have = tjf_frames_fields();
        trace_clear(out, &have, bones);
        return 0;
    }
    if (tf->t.lay.bones != bones)
        return ff_error_set(err, FF_E_FORMAT, tf->path, -1,
                            "line %lu: anim %u has %u bones, the model has %u", tf->clip.line, clip,
                            tf->t.lay.bones, bones);
    return trace_copy(out, &tf->t, err);
}

void tf_rest(trace_file *tf, uint32_t nclips)
{
    while (!tf->failed) {
        if (!tf->have) {
            int rc = tj_next_clip(tf->r, &tf->clip, &tf->t, &tf->err);
            if (rc <= 0) {
                tf->failed = tf->lines.rest_failed = rc < 0;
                return;
            }
        }
        tf->have = 0;
        const tj_clip *c = &tf->clip;
        const char *why = c->mode != tf->mode                             ? "of another mode"
                          : strcmp(path_base(c->file), tf->name) != 0 ? "of another file"
                                                                          : NULL;
        if (why) {
            ff_error_set(&tf->err, FF_E_FORMAT, tf->path, -1,
                         "line %lu: a clip %s after the last clip", c->line, why);
            tf->failed = tf->lines.rest_failed = 1;
            return;
        }
        tf_lines_rest(&tf->lines, c->anim, c->line, nclips);
    }
}

void tf_lines_rest(tf_lines *l, unsigned anim, unsigned long line, uint32_t nclips)
{
    if (anim < nclips) {
        tf_lines_late(l, anim, line);
    } else if (!l->extra_at) {
        l->extra_at = line;
        l->extra_anim = anim;
    }
}

int tf_lines_problem(const tf_lines *l, const char *path, const ff_error *broken,
                     const char *owner, uint32_t clip, uint32_t nclips, ff_error *e)
{
    if (clip < 256 && l->late_at[clip]) {
        if (l->given_at[clip])
            ff_error_set(e, FF_E_FORMAT, path, -1,
                         "line %lu: anim %u given again (its lines from line %lu were compared; "
                         "which is the decoder's?)",
                         l->late_at[clip], clip, l->given_at[clip]);
        else
            ff_error_set(e, FF_E_FORMAT, path, -1,
                         "line %lu: anim %u out of order (after a later anim: clips go in "
                         "ascending order)",
                         l->late_at[clip], clip);
        return 1;
    }
    if (clip + 1 != nclips) return 0;
    if (l->extra_at) {
        ff_error_set(e, FF_E_FORMAT, path, -1,
                     "line %lu: anim %u, past the %s's last clip (it has %u: anim 0 to %u)",
                     l->extra_at, l->extra_anim, owner, nclips, nclips - 1);
        return 1;
    }
    if (l->rest_failed) {
        *e = *broken;
        return 1;
    }
    return 0;
}

int tf_problem(const trace_file *tf, uint32_t clip, uint32_t nclips, ff_error *e)
{
    return tf_lines_problem(&tf->lines, tf->path, &tf->err, "model", clip, nclips, e);
}

void tf_close(trace_file *tf)
{
    tj_close(tf->r);
    trace_free(&tf->t);
}

int tf_recorded(trace_file *tf, const tset_file *sf, uint32_t clip, unsigned bones,
                const field_set *have, orig_outcome *o, ff_error *err)
{
    const tset_fault *ft = sf ? tset_fault_of(sf, tf->mode, clip) : NULL;
    o->faulted = 0;
    o->extent = 0;
    if (ft && ft->ticks == 0 && !tf->failed)
        trace_clear(&o->t, have, bones);
    else if (tf_take(tf, clip, bones, &o->t, err) != 0)
        return -1; /* a clip the authority lacks is its input's fault */
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

/* 1 when name ends with ".<what>.jsonl" or ".<what>.jsonl.lz4". */
static int names_kind(const char *name, const char *what)
{
    char tail[64];
    size_t n = strlen(name);
    for (int lz4 = 0; lz4 < 2; lz4++) {
        snprintf(tail, sizeof tail, ".%s.jsonl%s", what, lz4 ? ".lz4" : "");
        size_t k = strlen(tail);
        if (n > k && strcmp(name + n - k, tail) == 0) return 1;
    }
    return 0;
}

int tf_modes_in(const char *dir, unsigned *modes, ff_error *err)
{
    *modes = 0;
    DIR *d = opendir(dir);
    if (!d) return ff_error_set(err, FF_E_IO, dir, -1, "cannot list: %s", strerror(errno));
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        for (int m = 0; m < MODE__COUNT; m++)
            if (names_kind(e->d_name, mode_name((mode_id)m))) *modes |= 1u << m;
        if (names_kind(e->d_name, "frames")) *modes |= 1u << MODE_NORMAL;
    }
    closedir(d);
    return 0;
}
