/*
 * harness/traces/trace_json.h: Trace JSON Lines v1 (docs/design.md), the format
 * `ff8diff decode` prints, `ff8diff record` stores and outside decoders
 * emit. One object per call on one clip:
 *
 *   {"v":1,"file":"c0m001.dat","model":"body","anim":3,"mode":"slow","tick":0,
 *    "root":[0,-12,40],"skel_flag":0,"rot":[[x,y,z],...],"scale":[[x,y,z],...],
 *    "cmd":{"frame":1,"off":12,"bit":3,"flags":5,"total":57,"clip":3},"ret":0}
 *
 * At the entity level a line also names its pair, after "model":
 *   "entity":{"body":"d4c009.dat","weapon":"d4w023.dat"}
 * and one call gives a "weapon" line (no "ret") and a "body" line.
 *
 * The compared fields of a line (everything after "tick") come from the
 * field table (trace_fields.h): their keys, in the table's order, and which
 * of them a trace carries. The writer appends lines to a strbuf. The reader
 * takes lines one clip at a time from a plain or LZ4-frame (.lz4) regular
 * file and checks every key, shape, bone count and tick order, naming the
 * line of any error. It holds one line at a time, reads in time linear in
 * the input, refuses a line longer than TJ_LINE_MAX or holding more than
 * TJ_VALUES_MAX values, a line that is not one JSON object followed only by
 * whitespace, and an object holding one key twice.
 */
#ifndef FF8_HARNESS_TRACES_TRACE_JSON_H
#define FF8_HARNESS_TRACES_TRACE_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/modes.h"
#include "harness/core/strbuf.h"
#include "harness/core/trace.h"
#include "common/error.h"

#define TJ_NAME_MAX 256
#define TJ_STOP_MAX 512
/* Longest line read (a clip's tick of 255 bones takes about 25 KB). */
#define TJ_LINE_MAX (64u << 20)
/*
 * Most JSON values one line may hold (a line of 255 bones carrying every
 * field holds under 50,000): a line is refused past it before more is
 * built, so reading a line costs at most about 80 MiB beside its text.
 */
#define TJ_VALUES_MAX (1u << 20)
/* Most blank (empty or spaces-only) lines in a row before the input is refused. */
#define TJ_BLANK_RUN_MAX 4096u

/* Which clip a line belongs to. */
typedef struct tj_clip {
    char file[TJ_NAME_MAX];
    char model[32];     /* "" in the frames format */
    /*
     * A line of an entity run names its pair: "entity":{"body":..,"weapon":..}
     * (weapon null for a NULL weapon slot); "model" is then "body" or
     * "weapon", the weapon's lines carry no "ret" (the call's result is the
     * body's).
     */
    int entity;
    char ent_body[TJ_NAME_MAX];
    char ent_weapon[TJ_NAME_MAX]; /* "" without a weapon */
    unsigned anim;
    mode_id mode;       /* normal in the frames format */
    unsigned long line; /* reader: line of the clip's first tick */
    /*
     * Frames format: the decoder's "error" line, {"file":..,"anim":N,
     * "error":"why"}, after the last frame it could decode (maybe none):
     * the clip ends there. stopped set, stop the text (cut to fit).
     */
    int stopped;
    char stop[TJ_STOP_MAX];
    int bad;            /* reader: the clip has a malformed line ... */
    ff_error error;     /* ... the first of them, "line N: why" */
} tj_clip;

/* What a file holds: engine calls (Trace JSON Lines v1) or decoded frames. */
typedef enum tj_format { TJ_FORMAT_UNKNOWN, TJ_FORMAT_TICKS, TJ_FORMAT_FRAMES } tj_format;

/* Name of the trace file for (file, mode) inside a traces folder:
 * "c0m001.dat.slow.jsonl", with ".lz4" when compressed. */
void tj_file_name(char *buf, size_t n, const char *file, mode_id mode, int lz4);

/*
 * The pair's name, "d4c009.dat+d4w023.dat" ("c0m000.dat" for a NULL weapon
 * slot), and the trace file of an entity in one mode inside a traces
 * folder: "<pair>.entity.slow.jsonl", with ".lz4" when compressed.
 */
void tj_pair_name(char *buf, size_t n, const char *body, const char *weapon);
void tj_entity_file_name(char *buf, size_t n, const char *body, const char *weapon, mode_id mode,
                         int lz4);

/* Appends tick i of t as one line (with '\n'). */
void tj_write_tick(strbuf *b, const tj_clip *c, const trace *t, size_t i);
/* Appends every tick of t. */
void tj_write_trace(strbuf *b, const tj_clip *c, const trace *t);

/*
 * Appends the calls of one entity clip: the weapon's lines (weapon NULL or
 * wt NULL: no weapon slot) then the body's, each naming the pair.
 */
void tj_write_entity(strbuf *b, const char *body, const char *weapon, unsigned anim, mode_id mode,
                     const trace *wt, const trace *bt);

/*
 * Writes text to path (through a temporary name and a rename), as an LZ4
 * frame when lz4 is set. Returns -1 with err on failure.
 */
int tj_write_file(const char *path, const strbuf *text, int lz4, ff_error *err);

typedef struct tj_reader tj_reader;

/*
 * Opens path for reading; a name ending in ".lz4" is read through an LZ4
 * frame decoder. Only a regular file is opened (a FIFO or a link to a
 * device is refused without blocking). Returns NULL with err on failure.
 */
tj_reader *tj_open(const char *path, ff_error *err);
/*
 * Refuses an LZ4 input once it has inflated past max_text bytes (0: no
 * limit): a small frame may stand for gigabytes of text.
 */
void tj_limit(tj_reader *r, uint64_t max_text);
/* Reads from an in-memory text (not copied: must outlive the reader). */
tj_reader *tj_open_mem(const char *text, size_t len, const char *name, ff_error *err);
void tj_close(tj_reader *r);

/*
 * Reads the next clip: consecutive lines with the same file, model, anim
 * and mode, ticks (or frames) 0, 1, 2, ... The first line decides the
 * file's format (a "tick" key: Trace JSON Lines; a "frame" key, or an
 * "error" line: the frames format of harness/traces/trace_fields.h, always
 * normal mode). In the frames format a clip may end with an "error" line
 * (c->stopped), and may be that line alone (*t then holds no frame and no
 * layout); a line of the same clip after it is malformed.
 *
 * Returns 1 with *c and *t filled, 0 at the end of the input, -1 when the
 * input cannot be read on (I/O, LZ4, memory; err names the file). A
 * malformed line spoils only its own clip: the clip comes back with c->bad
 * set and c->error naming the first bad line ("line N: ..."), its other
 * lines skipped, and the next call reads the next clip. A line that is not
 * even JSON belongs to the clip being read (or to the next one at the start
 * of the file); broken lines after the last clip are an error (-1).
 */
int tj_next_clip(tj_reader *r, tj_clip *c, trace *t, ff_error *err);
/* The format of the lines read so far (unknown before the first line). */
tj_format tj_reader_format(const tj_reader *r);

#endif
