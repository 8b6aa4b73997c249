/*
 * tests/fuzz/fz_archive.c: body of fuzz_archive (see fz.h): the FI/FL index
 * parser, the entry extractor with its three storage kinds, and the LZSS
 * decoder on its own (plus an encode/decode round trip, whose result is
 * known: the input). Never prints or aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "corpus/archive.h"
#include "corpus/lzss.h"
#include "tests/fuzz/fz.h"

#define FI_NAME "fuzz.fi"
#define FL_NAME "fuzz.fl"
#define FS_NAME "fuzz.fs"
#define FZ_LZSS_ROUND_TRIP 4096 /* bytes of FS put through encode + decode */

/* Each entry as arc_index_parse promises it: FI fields, a clean FL path. */
static int check_index(const uint8_t *fi, const arc_entry *e, size_t n, fz_report *r)
{
    for (size_t i = 0; i < n; i++) {
        const uint8_t *rec = fi + i * ARC_FI_RECORD;
        if (e[i].size != le_u32(rec) || e[i].offset != le_u32(rec + 4) || e[i].comp != le_u32(rec + 8))
            return fz_broken(r, "entry %zu fields differ from its FI record", i);
        size_t len = e[i].path ? strlen(e[i].path) : 0;
        if (len == 0 || strchr(e[i].path, '\n') || e[i].path[len - 1] == '\r')
            return fz_broken(r, "entry %zu: path is empty or keeps its line end", i);
        if (!e[i].base || e[i].base < e[i].path || e[i].base > e[i].path + len ||
            strchr(e[i].base, '/') || strchr(e[i].base, '\\'))
            return fz_broken(r, "entry %zu: base name is not the path's last component", i);
    }
    return 0;
}

static int extract_all(const arc_entry *e, size_t n, const uint8_t *fs, size_t fs_size,
                       fz_report *r)
{
    size_t limit = n < FZ_ARC_ENTRIES ? n : FZ_ARC_ENTRIES;
    for (size_t i = 0; i <= limit; i++) {
        uint8_t *out = NULL;
        size_t out_size = 0;
        ff_error err;
        char what[48];
        snprintf(what, sizeof what, "arc_extract_mem(%zu of %zu)", i, n);
        int rc = arc_extract_mem(e, n, i, fs, fs_size, FI_NAME, FS_NAME, &out, &out_size, &err);
        if (i == n) { /* one past the last: must be refused */
            if (rc == 0) {
                free(out);
                return fz_broken(r, "%s: accepted", what);
            }
            if (err.kind != FF_E_RANGE) return fz_broken(r, "%s: kind %d", what, (int)err.kind);
            continue;
        }
        if (i == limit) break;
        if (rc < 0) {
            /* Index-level problems name FI, data problems FS. */
            const char *want = strcmp(err.file, FI_NAME) == 0 ? FI_NAME : FS_NAME;
            if (fz_rejected(r, &err, want, what) < 0) return -1;
            continue;
        }
        int bad = !out || out_size != e[i].size;
        if (!bad && e[i].comp == ARC_STORED &&
            ((uint64_t)e[i].offset + e[i].size > fs_size ||
             memcmp(out, fs + e[i].offset, out_size) != 0))
            bad = 2;
        free(out);
        if (bad == 1)
            return fz_broken(r, "%s: %zu bytes out, FI says %u", what, out_size, e[i].size);
        if (bad == 2) return fz_broken(r, "%s: stored bytes differ from FS", what);
        r->accepted++;
    }
    return 0;
}

/* lzss_decode into the announced size; then encode + decode gives back src. */
static int lzss_direct(const uint8_t *src, size_t n, size_t out_size, fz_report *r)
{
    uint8_t *dst = malloc(out_size ? out_size : 1);
    if (!dst) return fz_broken(r, "out of memory");
    ff_error e;
    int rc = lzss_decode(src, n, dst, out_size, FS_NAME, 0, &e);
    free(dst);
    if (rc < 0 && fz_rejected(r, &e, FS_NAME, "lzss_decode") < 0) return -1;
    if (rc == 0) r->accepted++;

    size_t m = n < FZ_LZSS_ROUND_TRIP ? n : FZ_LZSS_ROUND_TRIP;
    size_t cap = lzss_bound(m);
    uint8_t *packed = malloc(cap ? cap : 1), *back = malloc(m ? m : 1);
    size_t packed_size = 0;
    rc = -1;
    if (!packed || !back) {
        rc = fz_broken(r, "out of memory");
    } else if (lzss_encode(src, m, packed, cap, &packed_size, &e) < 0) {
        rc = fz_broken(r, "lzss_encode of %zu bytes into lzss_bound: %s", m, e.reason);
    } else if (lzss_decode(packed, packed_size, back, m, "round trip", 0, &e) < 0) {
        rc = fz_broken(r, "lzss round trip of %zu bytes does not decode: %s", m, e.reason);
    } else if (m && memcmp(back, src, m) != 0) {
        rc = fz_broken(r, "lzss round trip of %zu bytes differs", m);
    } else {
        rc = 0;
    }
    free(packed);
    free(back);
    return rc;
}

int fz_archive_one(const uint8_t *data, size_t size, fz_report *r)
{
    fz_report_init(r);
    if (size < FZ_ARC_HEADER) return 0;
    size_t left = size - FZ_ARC_HEADER;
    size_t fi_size = le_u16(data), fl_size = le_u16(data + 2), lzss_out = le_u16(data + 4);
    if (fi_size > left) fi_size = left;
    left -= fi_size;
    if (fl_size > left) fl_size = left;
    left -= fl_size;
    const uint8_t *fi = data + FZ_ARC_HEADER, *fl = fi + fi_size, *fs = fl + fl_size;
    size_t fs_size = left;

    arc_entry *e = NULL;
    size_t n = 0;
    ff_error err;
    if (arc_index_parse(fi, fi_size, FI_NAME, fl, fl_size, FL_NAME, &e, &n, &err) < 0) {
        const char *want = strcmp(err.file, FL_NAME) == 0 ? FL_NAME : FI_NAME;
        if (fz_rejected(r, &err, want, "arc_index_parse") < 0) return -1;
    } else {
        r->accepted++;
        int rc = n != fi_size / ARC_FI_RECORD
                     ? fz_broken(r, "%zu entries from a %zu-byte FI", n, fi_size)
                     : check_index(fi, e, n, r);
        if (rc == 0) rc = extract_all(e, n, fs, fs_size, r);
        arc_entries_free(e, n);
        if (rc < 0) return -1;
    }
    return lzss_direct(fs, fs_size, lzss_out, r);
}
