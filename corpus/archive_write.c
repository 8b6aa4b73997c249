/*
 * corpus/archive_write.c: building FF8 FI/FL/FS archives from entries
 * (stored, LZSS or LZ4 in either framing), for tests and fixtures. The output is what
 * corpus/archive.c reads back.
 *
 * Must not print or exit; on failure nothing is left allocated or written
 * half-way (files go through a temporary name).
 */
#include "common/grow.h"
#include "common/le.h"
#include "corpus/archive.h"

#include <lz4.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/fileio.h"
#include "corpus/lzss.h"

/* A growing byte buffer. */
typedef struct grow {
    uint8_t *p;
    size_t n, cap;
} grow;

static int grow_reserve(grow *g, size_t more, ff_error *err)
{
    if (more <= g->cap - g->n) return 0;
    if (more > SIZE_MAX / 2 - g->n)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "archive too large");
    if (GROW(g->p, g->cap, g->n + more, 4096) < 0)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for %zu bytes", g->n + more);
    return 0;
}

static int grow_put(grow *g, const void *data, size_t n, ff_error *err)
{
    if (grow_reserve(g, n, err) < 0) return -1;
    if (n) memcpy(g->p + g->n, data, n);
    g->n += n;
    return 0;
}

static int check_input(const arc_input *in, size_t i, ff_error *err)
{
    if (!in->path || !in->path[0])
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "entry %zu has no path", i);
    if (strpbrk(in->path, "\r\n"))
        return ff_error_set(err, FF_E_USAGE, in->path, -1, "entry %zu: path holds a line break", i);
    if (in->size >= UINT32_MAX || (in->size && !in->data))
        return ff_error_set(err, FF_E_USAGE, in->path, -1, "entry %zu: bad data or size", i);
    if (in->comp > ARC_LZ4 && in->comp != (ARC_LZ4 | ARC_WRITE_4ZL))
        return ff_error_set(err, FF_E_USAGE, in->path, -1, "entry %zu: unknown compression %u", i,
                            in->comp);
    return 0;
}

/* Appends one compressed entry (u32 size + data) to fs. */
static int put_packed(grow *fs, const arc_input *in, ff_error *err)
{
    size_t cap;
    if (in->comp == ARC_LZSS) {
        cap = lzss_bound(in->size);
    } else {
        if (in->size > (size_t)LZ4_MAX_INPUT_SIZE)
            return ff_error_set(err, FF_E_RANGE, in->path, -1, "too large for LZ4");
        cap = (size_t)LZ4_compressBound((int)in->size);
    }
    if (cap >= UINT32_MAX - LZ4F_HEAD)
        return ff_error_set(err, FF_E_RANGE, in->path, -1, "entry too large");
    size_t head = in->comp == (ARC_LZ4 | ARC_WRITE_4ZL) ? LZ4F_HEAD : 0;
    if (grow_reserve(fs, 4 + head + cap, err) < 0) return -1;
    uint8_t *dst = fs->p + fs->n + 4 + head;
    size_t csize = 0;
    if (in->comp == ARC_LZSS) {
        if (lzss_encode(in->data, in->size, dst, cap, &csize, err) < 0) return -1;
    } else {
        int k = LZ4_compress_default((const char *)in->data, (char *)dst, (int)in->size, (int)cap);
        if (k <= 0 && in->size)
            return ff_error_set(err, FF_E_INTERNAL, in->path, -1, "LZ4 compression failed");
        csize = (size_t)(k > 0 ? k : 0);
    }
    /* 4ZL_: the length word counts the tag and the uncompressed size too. */
    le_put32(fs->p + fs->n, (uint32_t)(csize + head));
    if (head) {
        memcpy(fs->p + fs->n + 4, "4ZL_", 4);
        le_put32(fs->p + fs->n + 8, (uint32_t)in->size);
    }
    fs->n += 4 + head + csize;
    return 0;
}

int arc_build(const arc_input *in, size_t n, arc_image *img, ff_error *err)
{
    grow fi = {0}, fl = {0}, fs = {0};
    memset(img, 0, sizeof *img);
    for (size_t i = 0; i < n; i++) {
        if (check_input(&in[i], i, err) < 0) goto fail;
        if (fs.n > UINT32_MAX) {
            ff_error_set(err, FF_E_RANGE, in[i].path, -1, "data file passes 4 GiB");
            goto fail;
        }
        uint8_t rec[ARC_FI_RECORD];
        le_put32(rec, (uint32_t)in[i].size);
        le_put32(rec + 4, (uint32_t)fs.n);
        le_put32(rec + 8, in[i].comp & ~ARC_WRITE_4ZL);
        if (grow_put(&fi, rec, sizeof rec, err) < 0) goto fail;
        if (grow_put(&fl, in[i].path, strlen(in[i].path), err) < 0) goto fail;
        if (grow_put(&fl, "\r\n", 2, err) < 0) goto fail;
        int rc = in[i].comp == ARC_STORED ? grow_put(&fs, in[i].data, in[i].size, err)
                                          : put_packed(&fs, &in[i], err);
        if (rc < 0) goto fail;
    }
    /* Empty files still get a buffer, so callers never see NULL. */
    if (grow_reserve(&fi, 1, err) < 0 || grow_reserve(&fl, 1, err) < 0 ||
        grow_reserve(&fs, 1, err) < 0)
        goto fail;
    img->fi = fi.p, img->fi_size = fi.n;
    img->fl = fl.p, img->fl_size = fl.n;
    img->fs = fs.p, img->fs_size = fs.n;
    return 0;
fail:
    free(fi.p);
    free(fl.p);
    free(fs.p);
    return -1;
}

void arc_image_free(arc_image *img)
{
    if (!img) return;
    free(img->fi);
    free(img->fl);
    free(img->fs);
    memset(img, 0, sizeof *img);
}

int arc_write_image(const arc_image *img, const char *fi_path, const char *fl_path,
                    const char *fs_path, ff_error *err)
{
    if (fio_write_atomic(fs_path, img->fs, img->fs_size, err) < 0) return -1;
    if (fio_write_atomic(fl_path, img->fl, img->fl_size, err) < 0) return -1;
    return fio_write_atomic(fi_path, img->fi, img->fi_size, err);
}
