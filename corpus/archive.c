/*
 * corpus/archive.c: reading FF8 FI/FL/FS archives (index checked at open,
 * entries read lazily through pread) and the in-memory entry extractor
 * shared by both. Writing lives in corpus/archive_write.c.
 *
 * Must not trust any size or offset from the files before checking it in
 * an order that cannot overflow, print or exit.
 */
#include "common/le.h"
#include "corpus/archive.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <unistd.h>

#include "common/bulk.h"
#include "common/file.h"
#include "corpus/lz4f.h"
#include "corpus/lzss.h"
#include "common/path.h"

/* Expansion limits used to refuse absurd FI sizes before allocating:
 * an LZSS flag byte + 8 references (17 bytes) yield at most 144 bytes;
 * LZ4 stays below 255 output bytes per input byte. */
#define LZSS_MAX_RATIO 9
#define LZ4_MAX_RATIO 255

struct arc {
    char *fi_name, *fl_name, *fs_name;
    arc_entry *entries;
    size_t n;
    int fd, fd_owned;
    uint64_t fs_base, fs_size;
};

/* Where an entry's bytes come from: memory or a range of an open file. */
typedef struct fs_source {
    const uint8_t *mem;
    int fd;
    uint64_t base, size;
    const char *name;
} fs_source;

const char *arc_comp_name(uint32_t comp)
{
#define ARC_COMP_CASE(name, value, text)                                                           \
    if (comp == (value)) return text;
    ARC_COMP_MAP(ARC_COMP_CASE)
#undef ARC_COMP_CASE
    return "?";
}

void arc_entries_free(arc_entry *entries, size_t n)
{
    if (!entries) return;
    for (size_t i = 0; i < n; i++)
        free(entries[i].path);
    free(entries);
}

/* A control byte other than the line ends: names never carry one to a terminal or a file name. */
static int is_control(uint8_t c)
{
    return (c < 0x20 && c != '\r' && c != '\n') || c == 0x7F;
}

/* Counts FL lines; fails on an empty line (except a final one), a NUL or another control byte. */
static int fl_count(const uint8_t *fl, size_t size, const char *name, size_t *lines, ff_error *err)
{
    size_t count = 0, start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && fl[i] == '\0')
            return ff_error_set(err, FF_E_FORMAT, name, (int64_t)i, "NUL byte in the file list");
        if (i < size && is_control(fl[i]))
            return ff_error_set(err, FF_E_FORMAT, name, (int64_t)i,
                                "control byte 0x%02x in line %zu of the file list", fl[i],
                                count + 1);
        /* A CR is only ever a line end (before LF or the end of the file). */
        if (i + 1 < size && fl[i] == '\r' && fl[i + 1] != '\n')
            return ff_error_set(err, FF_E_FORMAT, name, (int64_t)i,
                                "CR inside line %zu of the file list", count + 1);
        if (i < size && fl[i] != '\n') continue;
        size_t end = i;
        if (end > start && fl[end - 1] == '\r') end--;
        if (end == start) {
            if (i == size) break; /* nothing after the last newline */
            return ff_error_set(err, FF_E_FORMAT, name, (int64_t)start,
                                "empty line %zu in the file list", count + 1);
        }
        count++;
        start = i + 1;
    }
    *lines = count;
    return 0;
}

/* Copies FL line by line into entries[].path (count already checked). */
static int fl_split(const uint8_t *fl, size_t size, arc_entry *entries, size_t n, ff_error *err)
{
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= size && k < n; i++) {
        if (i < size && fl[i] != '\n') continue;
        size_t end = i;
        if (end > start && fl[end - 1] == '\r') end--;
        char *s = malloc(end - start + 1);
        if (!s) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for the file list");
        memcpy(s, fl + start, end - start);
        s[end - start] = '\0';
        entries[k].path = s;
        entries[k].base = path_base(s);
        k++;
        start = i + 1;
    }
    return 0;
}

int arc_index_parse(const uint8_t *fi, size_t fi_size, const char *fi_name, const uint8_t *fl,
                    size_t fl_size, const char *fl_name, arc_entry **entries, size_t *n,
                    ff_error *err)
{
    if (fi_size % ARC_FI_RECORD)
        return ff_error_set(err, FF_E_FORMAT, fi_name, (int64_t)(fi_size - fi_size % ARC_FI_RECORD),
                            "index size %zu is not a multiple of %d (partial last record)", fi_size,
                            ARC_FI_RECORD);
    size_t records = fi_size / ARC_FI_RECORD, lines = 0;
    if (fl_count(fl, fl_size, fl_name, &lines, err) < 0) return -1;
    if (lines > records)
        return ff_error_set(err, FF_E_FORMAT, fi_name, (int64_t)fi_size,
                            "index holds %zu records but the file list names %zu files", records,
                            lines);
    if (lines < records)
        return ff_error_set(err, FF_E_FORMAT, fl_name, (int64_t)fl_size,
                            "file list names %zu files but the index holds %zu records", lines,
                            records);
    arc_entry *e = calloc(records ? records : 1, sizeof *e);
    if (!e) return ff_error_set(err, FF_E_NOMEM, fi_name, -1, "no memory for %zu records", records);
    if (fl_split(fl, fl_size, e, records, err) < 0) {
        arc_entries_free(e, records);
        return -1;
    }
    for (size_t i = 0; i < records; i++) {
        const uint8_t *r = fi + i * ARC_FI_RECORD;
        e[i].size = le_u32(r);
        e[i].offset = le_u32(r + 4);
        e[i].comp = le_u32(r + 8);
    }
    *entries = e;
    *n = records;
    return 0;
}

static int src_read(const fs_source *s, uint64_t off, void *buf, size_t len, ff_error *err)
{
    if (s->mem) {
        memcpy(buf, s->mem + off, len); /* callers checked off + len <= size */
        return 0;
    }
    if (file_pread(s->fd, s->name, s->base + off, buf, len, err) < 0) {
        if (err) err->offset = (int64_t)off; /* inside the range, as its other errors */
        return -1;
    }
    return 0;
}

static uint8_t *alloc_out(uint32_t size, const char *name, ff_error *err)
{
    uint8_t *p = bulk_alloc(size);
    if (!p) ff_error_set(err, FF_E_NOMEM, name, -1, "no memory for a %u-byte entry", size);
    return p;
}

static int read_stored(const arc_entry *e, size_t i, const fs_source *s, const char *fi_name,
                       uint8_t **out, ff_error *err)
{
    if (e->size > s->size - e->offset)
        return ff_error_set(err, FF_E_RANGE, fi_name, (int64_t)(i * ARC_FI_RECORD),
                            "entry %zu (%s): %u stored bytes at 0x%x run past the end of %s "
                            "(%llu bytes)",
                            i, e->base, e->size, e->offset, s->name, (unsigned long long)s->size);
    uint8_t *p = alloc_out(e->size, s->name, err);
    if (!p) return -1;
    if (src_read(s, e->offset, p, e->size, err) < 0) {
        free(p);
        return -1;
    }
    *out = p;
    return 0;
}

/* The u32 after an entry's size word, when it is the 4ZL_ tag: its header and block size. */
static int read_4zl(const arc_entry *e, size_t i, const fs_source *s, uint32_t len, uint64_t left,
                    arc_framing *framing, uint32_t *block, ff_error *err)
{
    *framing = ARC_FRAMING_SIZE;
    *block = len;
    if (e->comp != ARC_LZ4 || left < LZ4F_HEAD) return 0;
    uint8_t head[LZ4F_HEAD];
    if (src_read(s, (uint64_t)e->offset + 4, head, LZ4F_HEAD, err) < 0) return -1;
    if (!lz4f_is_tagged(head)) return 0;
    char what[96];
    snprintf(what, sizeof what, "%zu (%.64s)", i, e->base);
    *framing = ARC_FRAMING_ZL4;
    return lz4f_check_head(len, head, e->size, left, s->name, (int64_t)e->offset, what, block,
                           err);
}

/* The size word of a compressed entry, checked against what the FS holds and the FI size. */
static int packed_head(const arc_entry *e, size_t i, const fs_source *s, arc_framing *framing,
                       uint32_t *block, ff_error *err)
{
    uint64_t left = s->size - e->offset;
    if (left < 4)
        return ff_error_set(err, FF_E_TRUNCATED, s->name, (int64_t)e->offset,
                            "entry %zu (%s): no room for the compressed size word", i, e->base);
    uint8_t word[4];
    if (src_read(s, e->offset, word, 4, err) < 0) return -1;
    uint32_t csize = le_u32(word);
    if (read_4zl(e, i, s, csize, left - 4, framing, block, err) < 0) return -1;
    if (*framing == ARC_FRAMING_ZL4) return 0;
    if (csize > left - 4)
        return ff_error_set(err, FF_E_RANGE, s->name, (int64_t)e->offset,
                            "entry %zu (%s): compressed size %u runs past the end of %s (%llu "
                            "bytes left)",
                            i, e->base, csize, s->name, (unsigned long long)(left - 4));
    uint64_t ratio = e->comp == ARC_LZSS ? LZSS_MAX_RATIO : LZ4_MAX_RATIO;
    if ((uint64_t)e->size > (uint64_t)csize * ratio + 16)
        return ff_error_set(err, FF_E_FORMAT, s->name, (int64_t)e->offset,
                            "entry %zu (%s): %u compressed bytes cannot hold the announced %u "
                            "bytes",
                            i, e->base, csize, e->size);
    return 0;
}

static int read_packed(const arc_entry *e, size_t i, const fs_source *s, uint8_t **out,
                       arc_framing *framing, ff_error *err)
{
    uint32_t csize = 0;
    if (packed_head(e, i, s, framing, &csize, err) < 0) return -1;
    uint64_t at = (uint64_t)e->offset + 4 + (*framing == ARC_FRAMING_ZL4 ? LZ4F_HEAD : 0);
    uint8_t *src = malloc(csize ? csize : 1);
    uint8_t *dst = bulk_alloc((size_t)e->size + 1);
    int rc = -1;
    if (!src || !dst) {
        ff_error_set(err, FF_E_NOMEM, s->name, -1, "no memory for entry %zu", i);
        goto done;
    }
    if (src_read(s, at, src, csize, err) < 0) goto done;
    if (e->comp == ARC_LZSS) {
        rc = lzss_decode(src, csize, dst, e->size, s->name, (int64_t)at, err);
        if (rc < 0) ff_error_prefix(err, "entry %zu (%s)", i, e->base);
    } else {
        char what[96];
        snprintf(what, sizeof what, "%zu (%.64s)", i, e->base);
        rc = lz4f_block(src, csize, dst, e->size, s->name, (int64_t)at, what, err);
    }
done:
    free(src);
    if (rc < 0) {
        free(dst);
        return -1;
    }
    *out = dst;
    return 0;
}

/* The checks an entry passes before any of its data is read: the index's own claims. */
static int check_entry(const arc_entry *entries, size_t n, size_t i, uint64_t fs_size,
                       const char *fi_name, const char *fs_name, ff_error *err)
{
    if (i >= n)
        return ff_error_set(err, FF_E_RANGE, fi_name, -1, "entry %zu of %zu does not exist", i, n);
    const arc_entry *e = &entries[i];
    if (e->comp > ARC_LZ4)
        return ff_error_set(err, FF_E_UNSUPPORTED, fi_name, (int64_t)(i * ARC_FI_RECORD + 8),
                            "entry %zu (%s): unknown compression %u", i, e->base, e->comp);
    if (e->size > ARC_ENTRY_MAX)
        return ff_error_set(err, FF_E_RANGE, fi_name, (int64_t)(i * ARC_FI_RECORD),
                            "entry %zu (%s): %u bytes announced, above the limit of %u MiB for "
                            "one entry",
                            i, e->base, e->size, ARC_ENTRY_MAX >> 20);
    if (e->offset > fs_size)
        return ff_error_set(err, FF_E_RANGE, fi_name, (int64_t)(i * ARC_FI_RECORD + 4),
                            "entry %zu (%s): data offset 0x%x past the end of %s (%llu bytes)", i,
                            e->base, e->offset, fs_name, (unsigned long long)fs_size);
    return 0;
}

static int extract(const arc_entry *entries, size_t n, size_t i, const fs_source *s,
                   const char *fi_name, uint8_t **data, size_t *size, arc_framing *framing,
                   ff_error *err)
{
    if (check_entry(entries, n, i, s->size, fi_name, s->name, err) < 0) return -1;
    const arc_entry *e = &entries[i];
    uint8_t *p = NULL;
    arc_framing fr = ARC_FRAMING_NONE;
    int rc = e->comp == ARC_STORED ? read_stored(e, i, s, fi_name, &p, err)
                                   : read_packed(e, i, s, &p, &fr, err);
    if (rc < 0) return -1;
    *data = p;
    *size = e->size;
    if (framing) *framing = fr;
    return 0;
}

int arc_extract_mem(const arc_entry *entries, size_t n, size_t index, const uint8_t *fs,
                    size_t fs_size, const char *fi_name, const char *fs_name, uint8_t **data,
                    size_t *size, ff_error *err)
{
    static const uint8_t empty[1] = {0};
    fs_source s = {fs ? fs : empty, -1, 0, fs_size, fs_name};
    return extract(entries, n, index, &s, fi_name, data, size, NULL, err);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* Reads a whole FI or FL range into memory (at most ARC_INDEX_MAX bytes). */
static int read_range(const arc_range *r, uint8_t **data, size_t *size, ff_error *err)
{
    if (r->size > ARC_INDEX_MAX)
        return ff_error_set(err, FF_E_RANGE, r->name, -1,
                            "%llu bytes, above the limit of %u MiB for an index",
                            (unsigned long long)r->size, ARC_INDEX_MAX >> 20);
    uint8_t *p = malloc(r->size ? (size_t)r->size : 1);
    if (!p) return ff_error_set(err, FF_E_NOMEM, r->name, -1, "no memory for the index");
    if (r->size && file_pread(r->fd, r->name, r->base, p, (size_t)r->size, err) < 0) {
        free(p);
        return -1;
    }
    *data = p;
    *size = (size_t)r->size;
    return 0;
}

static void close_owned(const arc_range *r)
{
    if (r && r->owned && r->fd >= 0) close(r->fd);
}

int arc_open_ranges(const arc_range *fi, const arc_range *fl, const arc_range *fs, arc **out,
                    ff_error *err)
{
    uint8_t *fib = NULL, *flb = NULL;
    size_t fi_size = 0, fl_size = 0;
    arc *a = calloc(1, sizeof *a);
    if (!a) {
        close_owned(fi);
        close_owned(fl);
        close_owned(fs);
        return ff_error_set(err, FF_E_NOMEM, fs->name, -1, "no memory for an archive");
    }
    a->fd = fs->fd;
    a->fd_owned = fs->owned;
    a->fs_base = fs->base;
    a->fs_size = fs->size;
    a->fi_name = dup_str(fi->name);
    a->fl_name = dup_str(fl->name);
    a->fs_name = dup_str(fs->name);
    int rc = -1;
    if (!a->fi_name || !a->fl_name || !a->fs_name)
        ff_error_set(err, FF_E_NOMEM, fs->name, -1, "no memory for file names");
    else if (read_range(fi, &fib, &fi_size, err) == 0 && read_range(fl, &flb, &fl_size, err) == 0)
        rc = arc_index_parse(fib, fi_size, fi->name, flb, fl_size, fl->name, &a->entries, &a->n,
                             err);
    free(fib);
    free(flb);
    close_owned(fi);
    close_owned(fl);
    if (rc < 0) {
        arc_close(a);
        return -1;
    }
    *out = a;
    return 0;
}

int arc_open(const char *fi_path, const char *fl_path, const char *fs_path, arc **out,
             ff_error *err)
{
    uint64_t size[3] = {0, 0, 0};
    const char *path[3] = {fi_path, fl_path, fs_path};
    uint64_t max[3] = {ARC_INDEX_MAX, ARC_INDEX_MAX, 0};
    int fd[3] = {-1, -1, -1};
    for (int k = 0; k < 3; k++) {
        fd[k] = file_open_regular(path[k], 0, max[k], &size[k], err);
        if (fd[k] < 0) {
            for (int j = 0; j < k; j++) close(fd[j]);
            return -1;
        }
    }
    arc_range r[3];
    for (int k = 0; k < 3; k++) r[k] = (arc_range){fd[k], 0, size[k], 1, path[k]};
    return arc_open_ranges(&r[0], &r[1], &r[2], out, err);
}

void arc_close(arc *a)
{
    if (!a) return;
    if (a->fd >= 0 && a->fd_owned) close(a->fd);
    arc_entries_free(a->entries, a->n);
    free(a->fi_name);
    free(a->fl_name);
    free(a->fs_name);
    free(a);
}

size_t arc_count(const arc *a)
{
    return a->n;
}

const arc_entry *arc_get(const arc *a, size_t i)
{
    return i < a->n ? &a->entries[i] : NULL;
}

uint64_t arc_fs_size(const arc *a)
{
    return a->fs_size;
}

int arc_find(const arc *a, const char *name, size_t *index)
{
    for (size_t i = 0; i < a->n; i++)
        if (!strcasecmp(a->entries[i].path, name) || !strcasecmp(a->entries[i].base, name)) {
            *index = i;
            return 0;
        }
    return -1;
}

int arc_check(const arc *a, size_t i, ff_error *err)
{
    return check_entry(a->entries, a->n, i, a->fs_size, a->fi_name, a->fs_name, err);
}

int arc_read(const arc *a, size_t i, uint8_t **data, size_t *size, ff_error *err)
{
    return arc_read_framed(a, i, data, size, NULL, err);
}

int arc_read_framed(const arc *a, size_t i, uint8_t **data, size_t *size, arc_framing *framing,
                    ff_error *err)
{
    fs_source s = {NULL, a->fd, a->fs_base, a->fs_size, a->fs_name};
    return extract(a->entries, a->n, i, &s, a->fi_name, data, size, framing, err);
}

int arc_framing_of(const arc *a, size_t i, arc_framing *framing, ff_error *err)
{
    if (check_entry(a->entries, a->n, i, a->fs_size, a->fi_name, a->fs_name, err) < 0) return -1;
    const arc_entry *e = &a->entries[i];
    *framing = e->comp == ARC_STORED ? ARC_FRAMING_NONE : ARC_FRAMING_SIZE;
    uint8_t head[4 + LZ4F_HEAD];
    if (e->comp != ARC_LZ4 || a->fs_size - e->offset < sizeof head) return 0;
    fs_source s = {NULL, a->fd, a->fs_base, a->fs_size, a->fs_name};
    if (src_read(&s, e->offset, head, sizeof head, err) < 0) return -1;
    if (lz4f_is_tagged(head + 4)) *framing = ARC_FRAMING_ZL4;
    return 0;
}

const char *arc_fs_name(const arc *a)
{
    return a->fs_name;
}
