/*
 * tests/fuzz/fz_pe.c: body of fuzz_pe (see fz.h): the PE32 parser and the
 * pure image helpers of emu/image/pe.h (no Unicorn). An accepted image must lie
 * inside the file and inside SizeOfImage as the format says, and the laid
 * out image must hold the file's bytes where the section table puts them.
 * Never prints or aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/image/pe.h"
#include "tests/fuzz/fz.h"

#define FZ_PE_PEEK 16 /* most bytes read at an address probed */

static int check_layout(const pe_image *img, size_t size, fz_report *r)
{
    if (img->nsections == 0 || img->nsections > PE_MAX_SECTIONS)
        return fz_broken(r, "accepted %u sections", img->nsections);
    if (img->size_of_image == 0 || img->size_of_image > PE_MAX_IMAGE_SIZE ||
        img->size_of_headers > img->size_of_image || img->size_of_headers > size ||
        (uint64_t)img->image_base + img->size_of_image > 0x100000000ull)
        return fz_broken(r, "accepted image 0x%x + 0x%x, headers 0x%x, file %zu", img->image_base,
                         img->size_of_image, img->size_of_headers, size);
    for (unsigned i = 0; i < img->nsections; i++) {
        const pe_section *s = &img->sections[i];
        if ((uint64_t)s->rva + s->vsize > img->size_of_image || s->raw_size > s->vsize ||
            (uint64_t)s->raw_off + s->raw_size > size || s->name[8] != '\0')
            return fz_broken(r, "section %u: rva 0x%x vsize 0x%x raw 0x%x+0x%x accepted", i, s->rva,
                             s->vsize, s->raw_off, s->raw_size);
    }
    for (unsigned i = 0; i < img->nimports; i++) {
        const pe_import *m = &img->imports[i];
        if (!memchr(m->dll, '\0', sizeof m->dll) || !memchr(m->name, '\0', sizeof m->name) ||
            !m->dll[0] || !m->name[0] || m->slot < img->image_base ||
            (uint64_t)m->slot - img->image_base + 4 > img->size_of_image)
            return fz_broken(r, "import %u (%.*s) slot 0x%x accepted", i, (int)sizeof m->name - 1,
                             m->name, m->slot);
        const pe_import *found = pe_import_at_slot(img, m->slot);
        if (!found || found->slot != m->slot)
            return fz_broken(r, "pe_import_at_slot(0x%x) does not find import %u", m->slot, i);
    }
    return 0;
}

/* The laid out image against the file, region by region. */
static int check_image(const pe_image *img, const uint8_t *data, const uint8_t *dst, fz_report *r)
{
    if (memcmp(dst, data, img->size_of_headers) != 0)
        return fz_broken(r, "image headers differ from the file");
    for (unsigned i = 0; i < img->nsections; i++) {
        const pe_section *s = &img->sections[i];
        if (s->raw_size && memcmp(dst + s->rva, data + s->raw_off, s->raw_size) != 0)
            return fz_broken(r, "section %u bytes differ from the file", i);
    }
    return 0;
}

/* pe_read_va at va: either the laid-out bytes, or a clean refusal. */
static int probe(const pe_image *img, const uint8_t *data, size_t size, const uint8_t *dst,
                 uint32_t va, size_t len, fz_report *r)
{
    uint8_t out[FZ_PE_PEEK];
    if (len == 0) return 0;
    if (len > sizeof out) len = sizeof out;
    ff_error e;
    char what[48];
    snprintf(what, sizeof what, "pe_read_va(0x%x)", va);
    if (pe_read_va(img, data, size, va, out, len, &e) < 0) return fz_rejected(r, &e, "", what);
    r->accepted++;
    uint64_t rva = (uint64_t)va - img->image_base;
    /* Overlapping regions (headers vs. sections) are the reader's to order;
     * compare only where the section table leaves no doubt. */
    const pe_section *s = pe_section_at(img, va);
    if (dst && s && rva + len <= (uint64_t)s->rva + s->raw_size && rva >= img->size_of_headers &&
        memcmp(out, dst + rva, len) != 0)
        return fz_broken(r, "%s: bytes differ from the laid out image", what);
    return 0;
}

/* pe_copy_image onto zeroes must give the whole layout. */
static int check_copy(const pe_image *img, const uint8_t *dst, fz_report *r)
{
    uint8_t *copy = calloc(1, img->size_of_image);
    if (!copy) return fz_broken(r, "out of memory for a 0x%x-byte copy", img->size_of_image);
    pe_copy_image(img, dst, copy);
    int same = memcmp(copy, dst, img->size_of_image) == 0;
    free(copy);
    return same ? 0 : fz_broken(r, "pe_copy_image differs from the laid out image");
}

static int use_image(const pe_image *img, const uint8_t *data, size_t size, size_t image_max,
                     fz_report *r)
{
    uint8_t *dst = NULL;
    int rc = 0;
    if (img->size_of_image <= image_max) {
        ff_error e;
        if (pe_build_image(img, data, size, &dst, &e) < 0)
            rc = fz_broken(r, "pe_build_image failed on a parsed image: %s", e.reason);
        else if (check_image(img, data, dst, r) < 0 || check_copy(img, dst, r) < 0)
            rc = -1;
        else
            r->accepted++;
    }
    /* One byte at the entry point; at most a section's size at its start. */
    if (rc == 0) rc = probe(img, data, size, dst, img->image_base + img->entry_rva, 1, r);
    for (unsigned i = 0; rc == 0 && i < img->nsections; i++)
        rc = probe(img, data, size, dst, img->image_base + img->sections[i].rva,
                   img->sections[i].vsize, r);
    free(dst);
    return rc;
}

int fz_pe_one(const uint8_t *data, size_t size, size_t image_max, fz_report *r)
{
    fz_report_init(r);
    pe_image img;
    ff_error e;
    if (pe_parse(data, size, &img, &e) < 0) {
        int rc = fz_rejected(r, &e, "", "pe_parse");
        if (img.imports || img.nimports)
            rc = fz_broken(r, "pe_parse failed but left %u imports owned", img.nimports);
        return rc;
    }
    r->accepted++;
    int rc = check_layout(&img, size, r);
    if (rc == 0) rc = use_image(&img, data, size, image_max, r);
    pe_free(&img);
    return rc;
}
