/*
 * harness/traces/tracefile.h: the traces of one corpus file in one mode read back
 * clip by clip, for `check`: the authority's recorded traces (with the
 * faults their manifest records) or a candidate's traces (an outside
 * decoder's, as Trace JSON Lines or as frames). Every problem is that
 * clip's error and names the trace file and line: a malformed line spoils
 * its own clip only; a file of another corpus file or mode, or one that
 * cannot be read on, fails every clip after the problem. No line is
 * dropped: a clip given twice or out of order, a clip the model does not
 * have and lines after the last clip are found (tf_rest, tf_problem) and
 * made the error of a clip. Two files that could both be the candidate's
 * for one model and mode are an error naming both.
 * Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_TRACES_TRACEFILE_H
#define FF8_HARNESS_TRACES_TRACEFILE_H

#include <stdint.h>

#include "harness/core/modes.h"
#include "harness/core/outcome.h"
#include "harness/core/results.h"
#include "harness/core/trace.h"
#include "harness/traces/trace_json.h"
#include "harness/traces/traceset.h"
#include "ref/dat.h"

/*
 * Every line of a trace file accounted for, by whoever reads it clip by
 * clip (trace_file here, the entity level's reader in harness/run/): where
 * each anim's clip was taken, where lines of an anim came after its clip
 * was answered (given again, or out of order), the first clip past the
 * owner's last, and whether the file broke after the last clip taken.
 */
typedef struct tf_lines {
    unsigned long given_at[256], late_at[256]; /* line numbers; 0: none */
    unsigned long extra_at;
    unsigned extra_anim;
    int rest_failed;
} tf_lines;

/* Clip anim taken from line (its first: an entity's weapon lines come before its body's). */
static inline void tf_lines_given(tf_lines *l, unsigned anim, unsigned long line)
{
    if (anim < 256 && !l->given_at[anim]) l->given_at[anim] = line;
}
/* Lines of anim met after its clip was answered. */
static inline void tf_lines_late(tf_lines *l, unsigned anim, unsigned long line)
{
    if (anim < 256 && !l->late_at[anim]) l->late_at[anim] = line;
}
/* A clip found after the last one taken (owner of nclips clips). */
void tf_lines_rest(tf_lines *l, unsigned anim, unsigned long line, uint32_t nclips);
/*
 * 1 with e when the lines make clip's answer untrustworthy: lines of its anim
 * after it was answered; for the last clip (nclips - 1) also a clip past the
 * owner's ("model", "entity") and, when rest_failed, broken (that error).
 * path names the file. 0 when none.
 */
int tf_lines_problem(const tf_lines *l, const char *path, const ff_error *broken,
                     const char *owner, uint32_t clip, uint32_t nclips, ff_error *e);

typedef struct trace_file {
    tj_reader *r;
    char path[4700];
    const char *name; /* the corpus file's name */
    mode_id mode;
    int have;   /* a clip read ahead */
    int failed; /* the file is broken from here on */
    int absent; /* ... because there is no such file (no manifest names it) */
    const char *taken_stop; /* the last clip taken ended with this "error" line; NULL: none */
    ff_error err;
    tj_clip clip;
    trace t;
    tf_lines lines; /* every line accounted for (tf_rest, tf_problem) */
} trace_file;

/*
 * Opens the traces of (f, m) in dir: the file the manifest set names when
 * there is one (after checking it was recorded from these very bytes), else
 * <name>.<mode>.jsonl or .jsonl.lz4, else, when frames_ok and m is normal,
 * <name>.frames.jsonl or .frames.jsonl.lz4. A failure is kept and given as
 * every clip's error.
 */
void tf_open(trace_file *tf, const char *dir, const tset *set, const run_file *f, mode_id m,
             int frames_ok);
/*
 * The most text the traces of model d (the sum for an entity's two) may
 * inflate to from an LZ4 file: TF_INFLATION times what its clips can need
 * (every tick of the longest mode, SLOW, at the pose level's widest line).
 */
#define TF_INFLATION 16u
uint64_t tf_text_need(const dat_file *d);
static inline void tf_limit(trace_file *tf, uint64_t need)
{
    if (tf->r) tj_limit(tf->r, TF_INFLATION * need);
}
/* 1 when the file read holds frames (decoded poses), not engine calls. */
int tf_is_frames(const trace_file *tf);

/*
 * The modes a folder of traces has files for (bit i = mode_id i): any
 * <name>.<mode>.jsonl[.lz4]; <name>.frames.jsonl[.lz4] counts as normal.
 * Returns -1 with err when the folder cannot be listed.
 */
int tf_modes_in(const char *dir, unsigned *modes, ff_error *err);
/*
 * Takes clip's trace into out. Returns 0 found (a clip that is only its
 * decoder's "error" line comes back with no tick, laid out with the frames'
 * fields), 1 when the file has no lines for clip, or there is no trace file
 * at all and no manifest (err says which: the candidate did not decode it),
 * -1 with err when the clip or the file cannot be read (malformed, another
 * file's or mode's, a manifest that does not name the file, bone count).
 * After 0, tf_stopped gives the clip's "error" line.
 */
int tf_take(trace_file *tf, uint32_t clip, unsigned bones, trace *out, ff_error *err);
/* The decoder's "error" line of the clip tf_take last gave, NULL when none. */
static inline const char *tf_stopped(const trace_file *tf)
{
    return tf->taken_stop;
}
/*
 * A clip from recorded traces into o, with the fault the manifest's file
 * entry sf records for it (the trace then holds the calls made before the
 * fault, maybe none; an empty trace is laid out with the fields of have).
 * Returns 0, or -1 with err.
 */
int tf_recorded(trace_file *tf, const tset_file *sf, uint32_t clip, unsigned bones,
                const field_set *have, orig_outcome *o, ff_error *err);
/*
 * Reads what is left after the last clip taken (a model of nclips clips):
 * any clip found there is given again, out of order or past the model's
 * clips, and lines that cannot be read are the file's fault (tf_problem
 * says so per clip). Does nothing on a file already failed.
 */
void tf_rest(trace_file *tf, uint32_t nclips);
/*
 * 1 with e when lines of the file make clip's answer untrustworthy though
 * tf_take gave it: lines of this anim after its clip was answered; for
 * the model's last clip (nclips - 1) also a clip past the model's and
 * lines after the last clip that cannot be read. 0 when none.
 */
int tf_problem(const trace_file *tf, uint32_t clip, uint32_t nclips, ff_error *e);
void tf_close(trace_file *tf);

#endif
