/*
 * corpus/zzz.h: the 2019 Remaster's zzz archives (main.zzz, other.zzz;
 * docs/engine.md section 6), read as a lister that hands out byte ranges:
 *   u32 count, then per entry {u32 name length, name (no NUL), u64
 *   absolute offset, u32 size}; entries stored raw.
 * Only the table is read (through a small buffer, never the whole file:
 * main.zzz is gigabytes); an entry is a range of the zzz file that an
 * archive (arc_open_ranges) reads through pread. Names are matched ignoring
 * ASCII case and slash direction.
 *
 * A bad table is refused where it goes bad (the entries before it are
 * kept); a bad entry (past the end, a duplicate name) is marked and listed
 * as a problem, and the others stay usable. Every error names the zzz, the
 * entry and the offset. Nothing here prints or exits; an open zzz is
 * read-only and may be read from several threads at once.
 */
#ifndef FF8_CORPUS_ZZZ_H
#define FF8_CORPUS_ZZZ_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "corpus/archive.h"

/* Longest entry name accepted (real names are well under 100 bytes). */
#define ZZZ_NAME_MAX 1024
/* Smallest record: a 4-byte length, a 1-byte name, offset and size. */
#define ZZZ_RECORD_MIN 17
/* Problems kept (the others are only counted). */
#define ZZZ_PROBLEMS_MAX 64

typedef struct zzz_entry {
    char *name;      /* as stored, NUL added; owned by the zzz */
    uint64_t offset; /* absolute, in the zzz file */
    uint32_t size;
    uint64_t at;    /* where its record starts in the table */
    int bad;        /* 1: refused (see the problems), never handed out */
    size_t problem; /* bad: its problem's index (zzz_problem), which is NULL when not kept */
} zzz_entry;

typedef struct zzz zzz;

/*
 * Reads the table of the zzz at path. Fails (FF_E_IO, FF_E_USAGE for a file
 * that is not regular, FF_E_NOMEM) only when nothing can be listed; a table
 * that goes bad part way is a problem (zzz_problem), with the entries before
 * it kept. On failure *out is untouched.
 */
int zzz_open(const char *path, zzz **out, ff_error *err);
/*
 * The same from a table held in memory (data[0..size) is the whole zzz
 * file; for tests and fuzzing). data must outlive the zzz.
 */
int zzz_open_mem(const uint8_t *data, size_t size, const char *name, zzz **out, ff_error *err);
/* Closes z (NULL is fine): archives that borrowed its ranges must be closed first. */
void zzz_close(zzz *z);

const char *zzz_name(const zzz *z);
uint64_t zzz_file_size(const zzz *z);
/* Entries in table order, bad ones included. */
size_t zzz_count(const zzz *z);
const zzz_entry *zzz_get(const zzz *z, size_t i);
/* Problems found reading the table (table errors first met, bad entries), in table order. */
size_t zzz_problem_count(const zzz *z);
/* Problem k (NULL past the kept ones: see ZZZ_PROBLEMS_MAX). */
const ff_error *zzz_problem(const zzz *z, size_t k);

/* 1 when two names are equal ignoring ASCII case and '/' against '\\'. */
int zzz_name_eq(const char *a, const char *b);
/* Finds the good entry named name (zzz_name_eq); -1 when none. */
int zzz_find(const zzz *z, const char *name, size_t *index);

/*
 * Entry i as a borrowed range of the zzz file (name: "ZZZ:ENTRY", written
 * into buf of n bytes). Fails with FF_E_RANGE for a bad entry or i out of
 * range; zzz_open_mem's zzz hands out no ranges (FF_E_UNSUPPORTED).
 */
int zzz_range(const zzz *z, size_t i, arc_range *r, char *buf, size_t n, ff_error *err);

/*
 * Picks the battle archive: the FS entry "data\lang-XX\battle.fs" for lang
 * ("en" or "lang-en"; NULL: lang-en when present, else the first by name).
 * Writes the FS entry's index to *fs, the language folder chosen into
 * lang_out and every language seen (", " separated) into langs. Fails with
 * the entry's own problem when the only such entries were refused (past the
 * end, duplicate), else FF_E_USAGE when there is none or lang is not among
 * them.
 */
int zzz_pick_battle(const zzz *z, const char *lang, size_t *fs, char *lang_out, size_t lang_n,
                    char *langs, size_t langs_n, ff_error *err);

/*
 * Opens the archive whose FS is entry fs (an ".fs" name; ".fi" and ".fl"
 * beside it in the table), reading through the zzz's ranges: *out borrows
 * z's descriptor and must be closed before z.
 */
int zzz_open_archive(const zzz *z, size_t fs, arc **out, ff_error *err);

/* ---- writer (tests, fixtures, the benches) ---- */

/* One entry to write: its name and bytes; data NULL: size zero bytes left
 * as a hole (a sparse region: nothing is written, no disk is used). */
typedef struct zzz_input {
    const char *name;
    const uint8_t *data;
    uint32_t size;
} zzz_input;

/*
 * Writes a zzz of n entries to path (through a temporary name, replacing
 * it): the table, then each entry's bytes in order. Names must be
 * 1..ZZZ_NAME_MAX bytes.
 */
int zzz_write(const char *path, const zzz_input *in, size_t n, ff_error *err);

#endif
