/*
 * corpus/archive.h: FF8's three-file archives (docs/engine.md section 6), as
 * battle.fi / battle.fl / battle.fs:
 *   FI  12-byte records {u32 uncompressed size, u32 offset in FS,
 *       u32 compression: 0 stored, 1 LZSS, 2 LZ4}, little-endian;
 *   FL  one path per record, CRLF (LF accepted) separated, matched
 *       case-insensitively;
 *   FS  the entries; a compressed entry is u32 compressed size + data.
 *
 * Reading: the index (FI + FL) is checked whole when the archive opens; an
 * entry's bytes are read and decompressed only when asked for, so a bad
 * entry is that entry's error. Writing (tests and fixtures): entries with a
 * chosen compression become the three files. Every error names the file and
 * the byte offset at fault. Nothing here prints or exits, and an open
 * archive is read-only: arc_read may run on several threads at once.
 */
#ifndef FF8_CORPUS_ARCHIVE_H
#define FF8_CORPUS_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "corpus/lz4f.h"

#define ARC_FI_RECORD 12
/*
 * Largest entry read (uncompressed): far above any real battle .dat (the
 * largest is well under 1 MiB), low enough that a forged size cannot take
 * the machine's memory. Larger entries are refused before any allocation.
 */
#define ARC_ENTRY_MAX (64u << 20)
/* Largest FI or FL file read (about 5 million records). */
#define ARC_INDEX_MAX (64u << 20)

/* compression, FI value, name */
#define ARC_COMP_MAP(XX)                                                                           \
    XX(STORED, 0, "stored")                                                                        \
    XX(LZSS, 1, "lzss")                                                                            \
    XX(LZ4, 2, "lz4")

typedef enum arc_comp {
#define ARC_COMP_ENUM(name, value, text) ARC_##name = value,
    ARC_COMP_MAP(ARC_COMP_ENUM)
#undef ARC_COMP_ENUM
} arc_comp;

/* "stored", "lzss", "lz4"; "?" for any other value. */
const char *arc_comp_name(uint32_t comp);

/* One FI record with its FL path. */
typedef struct arc_entry {
    char *path;       /* the FL line, owned by the index */
    const char *base; /* inside path: after the last '\\' or '/' */
    uint32_t size;    /* uncompressed size (FI +0) */
    uint32_t offset;  /* offset in FS (FI +4) */
    uint32_t comp;    /* compression (FI +8), as stored: may be unknown */
} arc_entry;

/*
 * Parses an index held in memory. fi_name / fl_name are used in errors.
 * Fails with FF_E_FORMAT when the FI size is not a multiple of 12 (offset of
 * the partial record), when FI and FL disagree on the record count (offset:
 * the end of the shorter file), or on an empty FL line or one holding a NUL,
 * another control byte (0x01-0x1f, 0x7f: names never carry one to a terminal
 * or a file name) or a CR not followed by LF (its offset). On success *entries (count *n,
 * possibly 0) is owned by the caller: free it with arc_entries_free.
 */
int arc_index_parse(const uint8_t *fi, size_t fi_size, const char *fi_name, const uint8_t *fl,
                    size_t fl_size, const char *fl_name, arc_entry **entries, size_t *n,
                    ff_error *err);
/* Frees an index from arc_index_parse (NULL is fine). */
void arc_entries_free(arc_entry *entries, size_t n);

/*
 * Extracts entry index of an FS held in memory (fs must hold fs_size bytes;
 * for tests and fuzzing, with the same checks and errors as arc_read).
 * *data (caller frees, never NULL on success) gets exactly the FI size.
 */
int arc_extract_mem(const arc_entry *entries, size_t n, size_t index, const uint8_t *fs,
                    size_t fs_size, const char *fi_name, const char *fs_name, uint8_t **data,
                    size_t *size, ff_error *err);

typedef struct arc arc;

/*
 * A byte range of an open file: an archive's FI, FL or FS is a file of its
 * own (base 0, its whole size) or a window inside a container (an entry of
 * main.zzz). Offsets in errors are relative to the range, whose name says
 * what it is ("main.zzz:data\lang-en\battle.fs").
 */
typedef struct arc_range {
    int fd;           /* open for reading; read with pread only */
    uint64_t base;    /* where the range starts in the file */
    uint64_t size;    /* its length in bytes */
    int owned;        /* 1: the archive closes fd; 0: borrowed, must outlive it */
    const char *name; /* for errors (copied) */
} arc_range;

/*
 * Opens an archive from three ranges: reads FI and FL whole (each at most
 * ARC_INDEX_MAX bytes) and checks them; FS is read entry by entry through
 * pread at base + offset, never loaded. Owned descriptors are the
 * archive's from the call on, whatever it returns (FI's and FL's are
 * closed before it returns; owned descriptors must be distinct). On
 * failure *out is untouched.
 */
int arc_open_ranges(const arc_range *fi, const arc_range *fl, const arc_range *fs, arc **out,
                    ff_error *err);
/*
 * Opens an archive from its three paths (arc_open_ranges over each whole
 * file). On failure *out is untouched.
 */
int arc_open(const char *fi_path, const char *fl_path, const char *fs_path, arc **out,
             ff_error *err);
/* Closes a (NULL is fine); its entries and names are invalid afterwards. */
void arc_close(arc *a);

/* Number of records (FI) = paths (FL). */
size_t arc_count(const arc *a);
/* Entry i (NULL when i >= arc_count), valid until arc_close. */
const arc_entry *arc_get(const arc *a, size_t i);
/* Size of the FS file (or range) in bytes. */
uint64_t arc_fs_size(const arc *a);
/* The FS range's name, as given when opening. */
const char *arc_fs_name(const arc *a);

/*
 * Finds the first entry whose full FL path or base name equals name,
 * ignoring ASCII case. Returns 0 and *index, or -1 when there is none.
 */
int arc_find(const arc *a, const char *name, size_t *index);

/*
 * The checks of entry i that need none of its data (compression known, size
 * within ARC_ENTRY_MAX, data offset inside FS): 0, or -1 with the error
 * arc_read would give. For listings that must not decompress.
 */
int arc_check(const arc *a, size_t i, ff_error *err);

/*
 * Reads and decompresses entry i into a new buffer (*data, caller frees) of
 * exactly the FI size. Errors, each naming file and offset:
 *   FF_E_RANGE       i out of range; a size above ARC_ENTRY_MAX (FI, the
 *                    record's size field); data offset past the end of FS (FI,
 *                    the record's offset field); a stored entry running past
 *                    FS (FI, size field); a compressed size past FS (FS, the
 *                    entry's size word);
 *   FF_E_TRUNCATED   fewer than 4 bytes left for a compressed size word;
 *   FF_E_UNSUPPORTED unknown compression (FI, compression field);
 *   FF_E_FORMAT      LZSS or LZ4 data that is corrupt, references before
 *                    any output, or does not decode to the FI size (FS).
 */
int arc_read(const arc *a, size_t i, uint8_t **data, size_t *size, ff_error *err);
/*
 * arc_read that also says how the entry was framed (*framing, when not
 * NULL and on success): none (stored), size (u32 size + data) or 4ZL_ (the
 * Remaster's LZ4 framing, lz4f.h, whose sizes are checked against the FI
 * record: FF_E_FORMAT when they differ, FF_E_RANGE above ARC_ENTRY_MAX,
 * FF_E_TRUNCATED for a length below the header).
 */
int arc_read_framed(const arc *a, size_t i, uint8_t **data, size_t *size, arc_framing *framing,
                    ff_error *err);
/*
 * Entry i's framing as its first 12 bytes show it (LZ4 entries only;
 * nothing decompressed, no size checked beyond arc_check's): 0, or -1 with
 * arc_check's error or a read error.
 */
int arc_framing_of(const arc *a, size_t i, arc_framing *framing, ff_error *err);

/* ---- writer ---- */

/* Writer only: comp = ARC_LZ4 | ARC_WRITE_4ZL writes the entry in the
 * Remaster's 4ZL_ framing (the FI record still says 2). */
#define ARC_WRITE_4ZL 0x100u

/* One entry to store: its FL path, bytes and compression (arc_comp, or
 * ARC_LZ4 | ARC_WRITE_4ZL). */
typedef struct arc_input {
    const char *path;
    const uint8_t *data;
    size_t size;
    uint32_t comp;
} arc_input;

/* The three files of an archive, in memory. */
typedef struct arc_image {
    uint8_t *fi, *fl, *fs;
    size_t fi_size, fl_size, fs_size;
} arc_image;

/*
 * Builds the three files for n entries (paths must be non-empty with no
 * CR, LF or NUL; sizes below 4 GiB). FL lines end in CRLF; FS entries are
 * packed in order, compressed ones as u32 size + data. On success *img owns
 * new buffers (arc_image_free); on failure *img is zeroed.
 */
int arc_build(const arc_input *in, size_t n, arc_image *img, ff_error *err);
/* Frees the three buffers of img and zeroes it (NULL is fine). */
void arc_image_free(arc_image *img);

/* Writes an image to three paths (each through a temporary name). */
int arc_write_image(const arc_image *img, const char *fi_path, const char *fl_path,
                    const char *fs_path, ff_error *err);

#endif
