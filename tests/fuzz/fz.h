/*
 * tests/fuzz/fz.h: the bodies of the fuzz targets, one function per target,
 * shared by the libFuzzer wrappers (fuzz_*.c, built with FF_FUZZ) and the
 * Criterion replay suite (built always), so a reproducer replays through
 * exactly the code that found it.
 *
 * A body feeds one input to library entry points and checks their
 * contracts: a refusal must be a clean error (a data error kind, a reason,
 * the input's name); an acceptance must satisfy the documented
 * postconditions, checked here by independent arithmetic on the input.
 * A broken contract is returned (never printed, never aborted on) so that
 * the caller decides: the libFuzzer wrapper aborts, the replay test fails
 * naming the file. Memory errors and undefined behaviour are the
 * sanitizers' to catch.
 */
#ifndef FF8_TESTS_FUZZ_FZ_H
#define FF8_TESTS_FUZZ_FZ_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define FZ_BROKEN_MAX 512

/* What one input did. */
typedef struct fz_report {
    unsigned accepted;          /* calls that succeeded */
    unsigned rejected;          /* calls that failed with a clean error */
    ff_error last;              /* the last clean error */
    char broken[FZ_BROKEN_MAX]; /* non-empty: a contract was broken (why) */
} fz_report;

/* Clears r. */
void fz_report_init(fz_report *r);

/*
 * Records a failed call: a clean error (kind one of truncated, format,
 * range, unsupported, nomem; a non-empty NUL-terminated reason; file equal
 * to want_file unless want_file is NULL) counts as rejected, anything else
 * as broken. Returns 0 when clean, -1 when broken.
 */
int fz_rejected(fz_report *r, const ff_error *e, const char *want_file, const char *what);

/* Marks r broken with a formatted reason (first one kept); returns -1. */
int fz_broken(fz_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * fuzz_dat: dat_parse, then for a model file every clip (up to the 256 an
 * AnimCmd can name) in the four modes through the reference engine
 * (StartClip, then ReadAnimation until it returns 1), plus the body+weapon
 * lockstep on clip 0, all within FZ_DAT_WORK bone-frames.
 */
#define FZ_DAT_WORK (1u << 10)
int fz_dat_one(const uint8_t *data, size_t size, fz_report *r);

/*
 * fuzz_archive: the input is split as
 *   +0 u16 FI length, +2 u16 FL length, +4 u16 LZSS output size, then the
 *   FI bytes, the FL bytes, and the rest as FS
 * (lengths larger than what is left are cut to it). arc_index_parse on FI
 * + FL, then arc_extract_mem of every entry (up to FZ_ARC_ENTRIES) from FS
 * (stored, LZSS and LZ4 entries alike); then lzss_decode of FS straight
 * into the announced output size, and an lzss_encode / lzss_decode round
 * trip of FS.
 */
#define FZ_ARC_HEADER 6
#define FZ_ARC_ENTRIES 64
int fz_archive_one(const uint8_t *data, size_t size, fz_report *r);

/*
 * fuzz_pe: pe_parse, then (for an accepted image of at most image_max
 * bytes) pe_build_image, pe_read_va at the entry point and each section,
 * pe_section_at and pe_import_at_slot. The fuzzer passes FZ_PE_FUZZ_IMAGE
 * (keeps executions fast), the replay suite FZ_PE_REPLAY_IMAGE (the
 * stand-in's 7.5 MiB image is built too).
 */
#define FZ_PE_FUZZ_IMAGE (1u << 20)
#define FZ_PE_REPLAY_IMAGE (64u << 20)
int fz_pe_one(const uint8_t *data, size_t size, size_t image_max, fz_report *r);

/*
 * fuzz_trace: the Trace JSON Lines reader over the input (tj_open_mem,
 * tj_next_clip to the end or the first error); every clip read is written
 * back with tj_write_trace and must read back identical.
 */
int fz_trace_one(const uint8_t *data, size_t size, fz_report *r);

/*
 * fuzz_zzz: the input is a whole zzz file: zzz_open_mem (the table, its
 * problems), then the battle archive zzz_pick_battle finds: arc_index_parse
 * on its FI and FL entries, arc_extract_mem of its entries (up to
 * FZ_ARC_ENTRIES) from its FS entry.
 */
int fz_zzz_one(const uint8_t *data, size_t size, fz_report *r);

/*
 * fuzz_lz4f: +0 u32 FI size, then an FI compression-2 entry (either
 * framing) for lz4f_decode_entry; then the first FZ_LZ4F_ROUND_TRIP bytes
 * written as a 4ZL_ entry by arc_build and decoded back.
 */
#define FZ_LZ4F_ROUND_TRIP 4096
int fz_lz4f_one(const uint8_t *data, size_t size, fz_report *r);

#endif
