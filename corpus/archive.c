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

#include <lz4.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/file.h"
#include "corpus/lzss.h"

/* Expansion limits used to refuse absurd FI sizes before allocating:
 * an LZSS flag byte + 8 references (17 bytes) yield at most 144 bytes;
 * LZ4 stays below 255 output bytes per input byte. */
#define LZSS_MAX_RATIO 9
#define LZ4_MAX_RATIO 255

struct arc {
    char *fi_name, *fl_name, *fs_name;
    arc_entry *entries;
    size_t n;
    int fd;
    uint64_t fs_size;
};

/* Where an entry's bytes come from: memory or an open file. */
typedef struct fs_source {
    const uint8_t *mem;
    int fd;
    uint64_t size;
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

static const char *base_name(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '\\' || *p == '/') b = p + 1;
    return b;
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
        entries[k].base = base_name(s);
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
    return file_pread(s->fd, s->name, off, buf, len, err);
}

static uint8_t *alloc_out(uint32_t size, const char *name, ff_error *err)
{
    uint8_t *p = malloc(size ? size : 1);
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

static int decode_lz4(const arc_entry *e, size_t i, const uint8_t *src, uint32_t csize,
                      const char *fs_name, uint8_t *dst, ff_error *err)
{
    int64_t at = (int64_t)e->offset + 4;
    if (csize > (uint32_t)INT32_MAX || e->size >= (uint32_t)INT32_MAX)
        return ff_error_set(err, FF_E_RANGE, fs_name, at, "entry %zu (%s): LZ4 sizes above 2 GiB",
                            i, e->base);
    /* One spare byte tells "longer than announced" from a clean decode. */
    int got = LZ4_decompress_safe((const char *)src, (char *)dst, (int)csize, (int)e->size + 1);
    if (got < 0)
        return ff_error_set(err, FF_E_FORMAT, fs_name, at + (int64_t)(-got - 1),
                            "entry %zu (%s): LZ4 data corrupt or longer than the announced %u "
                            "bytes",
                            i, e->base, e->size);
    if ((uint32_t)got != e->size)
        return ff_error_set(err, FF_E_FORMAT, fs_name, at,
                            "entry %zu (%s): LZ4 data decodes to %d bytes, the index says %u", i,
                            e->base, got, e->size);
    return 0;
}

static int read_packed(const arc_entry *e, size_t i, const fs_source *s, uint8_t **out,
                       ff_error *err)
{
    uint64_t left = s->size - e->offset;
    if (left < 4)
        return ff_error_set(err, FF_E_TRUNCATED, s->name, (int64_t)e->offset,
                            "entry %zu (%s): no room for the compressed size word", i, e->base);
    uint8_t word[4];
    if (src_read(s, e->offset, word, 4, err) < 0) return -1;
    uint32_t csize = le_u32(word);
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
    uint8_t *src = malloc(csize ? csize : 1);
    uint8_t *dst = malloc((size_t)e->size + 1);
    int rc = -1;
    if (!src || !dst) {
        ff_error_set(err, FF_E_NOMEM, s->name, -1, "no memory for entry %zu", i);
        goto done;
    }
    if (src_read(s, (uint64_t)e->offset + 4, src, csize, err) < 0) goto done;
    if (e->comp == ARC_LZSS)
        rc = lzss_decode(src, csize, dst, e->size, s->name, (int64_t)e->offset + 4, err);
    else
        rc = decode_lz4(e, i, src, csize, s->name, dst, err);
    if (rc < 0 && e->comp == ARC_LZSS) ff_error_prefix(err, "entry %zu (%s)", i, e->base);
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
                   const char *fi_name, uint8_t **data, size_t *size, ff_error *err)
{
    if (check_entry(entries, n, i, s->size, fi_name, s->name, err) < 0) return -1;
    const arc_entry *e = &entries[i];
    uint8_t *p = NULL;
    int rc = e->comp == ARC_STORED ? read_stored(e, i, s, fi_name, &p, err)
                                   : read_packed(e, i, s, &p, err);
    if (rc < 0) return -1;
    *data = p;
    *size = e->size;
    return 0;
}

int arc_extract_mem(const arc_entry *entries, size_t n, size_t index, const uint8_t *fs,
                    size_t fs_size, const char *fi_name, const char *fs_name, uint8_t **data,
                    size_t *size, ff_error *err)
{
    static const uint8_t empty[1] = {0};
    fs_source s = {fs ? fs : empty, -1, fs_size, fs_name};
    return extract(entries, n, index, &s, fi_name, data, size, err);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

int arc_open(const char *fi_path, const char *fl_path, const char *fs_path, arc **out,
             ff_error *err)
{
    uint8_t *fi = NULL, *fl = NULL;
    size_t fi_size = 0, fl_size = 0;
    arc *a = calloc(1, sizeof *a);
    if (!a) return ff_error_set(err, FF_E_NOMEM, fs_path, -1, "no memory for an archive");
    a->fd = -1;
    a->fi_name = dup_str(fi_path);
    a->fl_name = dup_str(fl_path);
    a->fs_name = dup_str(fs_path);
    if (!a->fi_name || !a->fl_name || !a->fs_name) {
        ff_error_set(err, FF_E_NOMEM, fs_path, -1, "no memory for file names");
        goto fail;
    }
    if (file_read(fi_path, 0, ARC_INDEX_MAX, &fi, &fi_size, err) < 0) goto fail;
    if (file_read(fl_path, 0, ARC_INDEX_MAX, &fl, &fl_size, err) < 0) goto fail;
    if (arc_index_parse(fi, fi_size, fi_path, fl, fl_size, fl_path, &a->entries, &a->n, err) < 0)
        goto fail;
    a->fd = file_open_regular(fs_path, 0, 0, &a->fs_size, err);
    if (a->fd < 0) goto fail;
    free(fi);
    free(fl);
    *out = a;
    return 0;
fail:
    free(fi);
    free(fl);
    arc_close(a);
    return -1;
}

void arc_close(arc *a)
{
    if (!a) return;
    if (a->fd >= 0) close(a->fd);
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
    fs_source s = {NULL, a->fd, a->fs_size, a->fs_name};
    return extract(a->entries, a->n, i, &s, a->fi_name, data, size, err);
}
