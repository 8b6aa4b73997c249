/*
 * emu/image/pe.c: PE32 parsing and image layout (see emu/image/pe.h). Every size and
 * offset read from the file is checked before use, in an order that cannot
 * overflow (off > size first, then len > size - off), or widened to 64 bits.
 * Section data is taken as the Windows loader takes it (map_raw); headers
 * the Windows loader refuses are refused here too, with the reason.
 * No Unicorn here, no printing, no exit: this file is fuzzed.
 */
#include "common/grow.h"
#include "common/le.h"
#include "emu/image/pe.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PE_DOS_HEADER 0x40
#define PE_COFF_SIZE 20
#define PE_OPT_MIN 96 /* PE32 optional header without data directories */
#define PE_SECTION_SIZE 40
#define PE_IMPORT_DESC_SIZE 20
#define PE_MAX_IMPORT_DLLS 4096
#define PE_RAW_ROUND 0x200u /* the loader rounds PointerToRawData down to this */

/* 1 when [off, off + len) lies inside a buffer of size bytes. */
static int in_file(size_t size, uint64_t off, uint64_t len)
{
    return off <= size && len <= size - off;
}

static int is_pow2(uint32_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

static const char *machine_name(uint16_t m)
{
    switch (m) {
    case 0x8664:
        return "x86-64";
    case 0xAA64:
        return "ARM64";
    case 0x01C0:
        return "ARM";
    case 0x01C4:
        return "ARMv7 Thumb-2";
    case 0x0200:
        return "IA-64";
    default:
        return "unknown";
    }
}

/*
 * File offset of [rva, rva + len) when it lies wholly inside the headers or
 * inside one section's raw data. Returns 0 and sets *off, or -1.
 */
static int rva_to_off(const pe_image *img, uint32_t rva, uint32_t len, uint32_t *off)
{
    if ((uint64_t)rva + len <= img->size_of_headers) {
        *off = rva;
        return 0;
    }
    for (unsigned i = 0; i < img->nsections; i++) {
        const pe_section *s = &img->sections[i];
        if (rva < s->rva) continue;
        uint32_t d = rva - s->rva;
        if (d >= s->raw_size || len > s->raw_size - d) continue;
        *off = s->raw_off + d;
        return 0;
    }
    return -1;
}

/*
 * Copies a NUL-terminated printable string found at rva into out (cap
 * bytes with the NUL). what names it in errors.
 */
static int read_string(const pe_image *img, const uint8_t *data, uint32_t rva, char *out,
                       size_t cap, const char *what, ff_error *err)
{
    uint32_t off;
    if (rva_to_off(img, rva, 1, &off) != 0)
        return ff_error_set(err, FF_E_FORMAT, NULL, -1,
                            "%s at RVA 0x%x lies outside the file's data", what, rva);
    for (size_t i = 0; i < cap; i++) {
        uint32_t o;
        if ((uint64_t)rva + i > UINT32_MAX || rva_to_off(img, rva + (uint32_t)i, 1, &o) != 0)
            return ff_error_set(err, FF_E_TRUNCATED, NULL, off,
                                "%s at RVA 0x%x runs past the end of its section", what, rva);
        uint8_t c = data[o];
        if (c == 0) {
            out[i] = '\0';
            return i == 0 ? ff_error_set(err, FF_E_FORMAT, NULL, off, "%s is empty", what) : 0;
        }
        if (c < 0x20 || c > 0x7E)
            return ff_error_set(err, FF_E_FORMAT, NULL, o,
                                "%s at RVA 0x%x holds a non-printable byte 0x%02x", what, rva, c);
        out[i] = (char)c;
    }
    return ff_error_set(err, FF_E_FORMAT, NULL, off, "%s at RVA 0x%x is longer than %zu bytes",
                        what, rva, cap - 1);
}

static int push_import(pe_image *img, size_t *cap, const pe_import *imp, ff_error *err)
{
    if (img->nimports >= PE_MAX_IMPORTS)
        return ff_error_set(err, FF_E_FORMAT, NULL, -1, "more than %u imports",
                            (unsigned)PE_MAX_IMPORTS);
    if (GROW(img->imports, *cap, (size_t)img->nimports + 1, 64) < 0)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for imports");
    img->imports[img->nimports++] = *imp;
    return 0;
}

/* The thunks of one import descriptor: names or ordinals and IAT slots. */
static int parse_thunks(pe_image *img, const uint8_t *data, const char *dll, uint32_t ilt,
                        uint32_t iat, size_t *cap, ff_error *err)
{
    for (uint32_t j = 0;; j++) {
        uint64_t trva = (uint64_t)ilt + 4ull * j, srva = (uint64_t)iat + 4ull * j;
        uint32_t off;
        if (trva > UINT32_MAX - 4 || rva_to_off(img, (uint32_t)trva, 4, &off) != 0)
            return ff_error_set(err, FF_E_FORMAT, NULL, -1,
                                "import thunks of %s run outside the file's data (RVA 0x%llx)", dll,
                                (unsigned long long)trva);
        uint32_t t = le_u32(data + off);
        if (t == 0) return 0;
        if (srva + 4 > img->size_of_image)
            return ff_error_set(err, FF_E_FORMAT, NULL, off,
                                "IAT slot of %s at RVA 0x%llx lies past SizeOfImage", dll,
                                (unsigned long long)srva);
        pe_import imp;
        memset(&imp, 0, sizeof imp);
        memcpy(imp.dll, dll, strlen(dll) + 1);
        imp.slot = img->image_base + (uint32_t)srva;
        if (t & 0x80000000u) {
            imp.by_ordinal = 1;
            imp.ordinal = (uint16_t)(t & 0xFFFF);
            snprintf(imp.name, sizeof imp.name, "#%u", (unsigned)imp.ordinal);
        } else {
            if (t > UINT32_MAX - 2)
                return ff_error_set(err, FF_E_FORMAT, NULL, off, "bad hint/name RVA 0x%x", t);
            if (read_string(img, data, t + 2, imp.name, sizeof imp.name, "import name", err) != 0)
                return -1;
        }
        if (push_import(img, cap, &imp, err) != 0) return -1;
    }
}

static int parse_imports(pe_image *img, const uint8_t *data, uint32_t dir_rva, ff_error *err)
{
    size_t cap = 0;
    for (uint32_t i = 0; i < PE_MAX_IMPORT_DLLS; i++) {
        uint64_t drva = (uint64_t)dir_rva + (uint64_t)PE_IMPORT_DESC_SIZE * i;
        uint32_t off;
        if (drva > UINT32_MAX || rva_to_off(img, (uint32_t)drva, PE_IMPORT_DESC_SIZE, &off) != 0)
            return ff_error_set(err, FF_E_FORMAT, NULL, -1,
                                "import directory entry %u at RVA 0x%llx lies outside the "
                                "file's data",
                                i, (unsigned long long)drva);
        const uint8_t *d = data + off;
        uint32_t ilt = le_u32(d), name = le_u32(d + 12), iat = le_u32(d + 16);
        if (ilt == 0 && name == 0 && iat == 0) return 0;
        char dll[PE_DLL_NAME_MAX];
        if (read_string(img, data, name, dll, sizeof dll, "import DLL name", err) != 0) return -1;
        if (iat == 0)
            return ff_error_set(err, FF_E_FORMAT, NULL, off + 16, "import of %s has no IAT", dll);
        if (parse_thunks(img, data, dll, ilt ? ilt : iat, iat, &cap, err) != 0) return -1;
    }
    return ff_error_set(err, FF_E_FORMAT, NULL, -1, "more than %u import descriptors",
                        PE_MAX_IMPORT_DLLS);
}

/* Appends a sentence to the image's warnings (cut when the buffer is full). */
static void warn(pe_image *img, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(pe_image *img, const char *fmt, ...)
{
    size_t used = strlen(img->warning);
    if (used + 3 >= sizeof img->warning) return;
    if (used) {
        memcpy(img->warning + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(img->warning + used, sizeof img->warning - used, fmt, ap);
    va_end(ap);
    img->nwarnings++;
}

/*
 * The file bytes a section maps, as the Windows loader takes them: none
 * when PointerToRawData is 0 (uninitialised data, whatever SizeOfRawData
 * says); otherwise from PointerToRawData rounded down to 0x200, at most
 * the virtual size, and only what the file holds: a raw size running past
 * the end of the file maps the bytes that exist (the rest stays zero) and
 * leaves a warning.
 */
static void map_raw(pe_image *img, pe_section *s, unsigned i, uint32_t rawoff, uint32_t rawsz,
                    size_t size)
{
    s->raw_off = 0;
    s->raw_size = 0;
    s->raw_missing = 0;
    if (rawoff == 0 || rawsz == 0) return;
    uint32_t off = rawoff & ~(PE_RAW_ROUND - 1);
    uint32_t want = rawsz < s->vsize ? rawsz : s->vsize;
    uint64_t have = off >= size ? 0 : size - off;
    s->raw_size = have < want ? (uint32_t)have : want;
    s->raw_off = s->raw_size ? off : 0; /* nothing of the file: no offset into it */
    if (s->raw_size == want) return;
    s->raw_missing = want - s->raw_size;
    warn(img,
         "raw data of section %u (%s), 0x%x bytes at 0x%x, runs past the end of the file "
         "(%zu bytes): 0x%x bytes mapped, 0x%x zero-filled",
         i, s->name, want, off, size, s->raw_size, s->raw_missing);
}

static int parse_sections(pe_image *img, const uint8_t *data, size_t size, size_t tab, unsigned n,
                          ff_error *err)
{
    for (unsigned i = 0; i < n; i++) {
        size_t o = tab + (size_t)i * PE_SECTION_SIZE;
        const uint8_t *p = data + o;
        pe_section *s = &img->sections[i];
        memcpy(s->name, p, 8);
        s->name[8] = '\0';
        for (int k = 0; k < 8; k++)
            if (s->name[k] && (s->name[k] < 0x20 || s->name[k] > 0x7E)) s->name[k] = '?';
        uint32_t vsize = le_u32(p + 8), rva = le_u32(p + 12), rawsz = le_u32(p + 16);
        uint32_t rawoff = le_u32(p + 20);
        s->characteristics = le_u32(p + 36);
        s->rva = rva;
        s->vsize = vsize ? vsize : rawsz;
        if (s->vsize > PE_MAX_IMAGE_SIZE)
            return ff_error_set(err, FF_E_FORMAT, NULL, o + 8,
                                "section %u (%s) has an absurd size (virtual 0x%x, raw 0x%x)", i,
                                s->name, vsize, rawsz);
        if ((uint64_t)rva + s->vsize > img->size_of_image)
            return ff_error_set(err, FF_E_FORMAT, NULL, o + 12,
                                "section %u (%s) at RVA 0x%x + 0x%x runs past SizeOfImage 0x%x", i,
                                s->name, rva, s->vsize, img->size_of_image);
        if (s->vsize && rva < img->size_of_headers)
            return ff_error_set(err, FF_E_FORMAT, NULL, o + 12,
                                "section %u (%s) at RVA 0x%x overlaps the headers (0x%x bytes)", i,
                                s->name, rva, img->size_of_headers);
        map_raw(img, s, i, rawoff, rawsz, size);
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i + 1; j < n; j++) {
            const pe_section *a = &img->sections[i], *b = &img->sections[j];
            if (!a->vsize || !b->vsize) continue;
            if ((uint64_t)a->rva < (uint64_t)b->rva + b->vsize &&
                (uint64_t)b->rva < (uint64_t)a->rva + a->vsize)
                return ff_error_set(err, FF_E_FORMAT, NULL, tab + (size_t)j * PE_SECTION_SIZE,
                                    "sections %u (%s) and %u (%s) overlap", i, a->name, j, b->name);
        }
    return 0;
}

/* Optional header fields; opt is the offset of its magic. */
static int parse_optional(pe_image *img, const uint8_t *data, size_t size, size_t opt,
                          uint16_t optsz, uint32_t *import_rva, ff_error *err)
{
    if (!in_file(size, opt, 2))
        return ff_error_set(err, FF_E_TRUNCATED, NULL, opt, "file ends before the optional header");
    uint16_t magic = le_u16(data + opt);
    if (magic == 0x20B)
        return ff_error_set(err, FF_E_UNSUPPORTED, NULL, opt,
                            "PE32+ (64-bit) image refused: only PE32 (magic 0x10B) is supported");
    if (magic != 0x10B)
        return ff_error_set(err, FF_E_FORMAT, NULL, opt, "bad optional header magic 0x%x", magic);
    if (optsz < PE_OPT_MIN)
        return ff_error_set(err, FF_E_FORMAT, NULL, opt,
                            "optional header too small (%u bytes, at least %u)", optsz, PE_OPT_MIN);
    if (!in_file(size, opt, optsz))
        return ff_error_set(err, FF_E_TRUNCATED, NULL, opt,
                            "file ends inside the optional header (%u bytes)", optsz);
    const uint8_t *o = data + opt;
    img->entry_rva = le_u32(o + 16);
    img->image_base = le_u32(o + 28);
    img->section_alignment = le_u32(o + 32);
    img->file_alignment = le_u32(o + 36);
    img->size_of_image = le_u32(o + 56);
    img->size_of_headers = le_u32(o + 60);
    uint32_t nrva = le_u32(o + 92);
    if (img->image_base & 0xFFF)
        return ff_error_set(err, FF_E_FORMAT, NULL, opt + 28, "image base 0x%x is not page-aligned",
                            img->image_base);
    if (!is_pow2(img->section_alignment) || !is_pow2(img->file_alignment))
        return ff_error_set(err, FF_E_FORMAT, NULL, opt + 32,
                            "section/file alignment 0x%x/0x%x is not a power of two",
                            img->section_alignment, img->file_alignment);
    if (img->file_alignment > img->section_alignment)
        return ff_error_set(err, FF_E_FORMAT, NULL, opt + 36,
                            "file alignment 0x%x exceeds section alignment 0x%x (Windows refuses "
                            "such an image)",
                            img->file_alignment, img->section_alignment);
    if (img->size_of_image == 0 || img->size_of_image > PE_MAX_IMAGE_SIZE)
        return ff_error_set(err, FF_E_FORMAT, NULL, opt + 56, "absurd SizeOfImage 0x%x",
                            img->size_of_image);
    if ((uint64_t)img->image_base + img->size_of_image > 0x100000000ull)
        return ff_error_set(err, FF_E_FORMAT, NULL, opt + 56, "image 0x%x + 0x%x runs past 4 GiB",
                            img->image_base, img->size_of_image);
    if (img->size_of_headers > img->size_of_image)
        return ff_error_set(err, FF_E_FORMAT, NULL, opt + 60,
                            "SizeOfHeaders 0x%x exceeds SizeOfImage 0x%x", img->size_of_headers,
                            img->size_of_image);
    if (nrva > (uint32_t)(optsz - PE_OPT_MIN) / 8)
        return ff_error_set(err, FF_E_FORMAT, NULL, opt + 92,
                            "%u data directories do not fit in a %u-byte optional header", nrva,
                            optsz);
    *import_rva = nrva >= 2 ? le_u32(o + PE_OPT_MIN + 8) : 0;
    return 0;
}

int pe_parse(const uint8_t *data, size_t size, pe_image *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    if (!data || size < PE_DOS_HEADER)
        return ff_error_set(err, FF_E_TRUNCATED, NULL, 0,
                            "file too short for a DOS header (%zu bytes)", size);
    if (data[0] != 'M' || data[1] != 'Z')
        return ff_error_set(err, FF_E_FORMAT, NULL, 0, "not an executable (no MZ signature)");
    uint32_t lfanew = le_u32(data + 0x3C);
    if (lfanew >= size)
        return ff_error_set(err, FF_E_FORMAT, NULL, 0x3C,
                            "e_lfanew 0x%x points past the end of the file (%zu bytes)", lfanew,
                            size);
    if (!in_file(size, lfanew, 4 + PE_COFF_SIZE))
        return ff_error_set(err, FF_E_TRUNCATED, NULL, lfanew,
                            "file ends inside the PE/COFF header");
    if (memcmp(data + lfanew, "PE\0\0", 4) != 0)
        return ff_error_set(err, FF_E_FORMAT, NULL, lfanew, "no PE signature at e_lfanew 0x%x",
                            lfanew);
    const uint8_t *coff = data + lfanew + 4;
    uint16_t machine = le_u16(coff), nsect = le_u16(coff + 2), optsz = le_u16(coff + 16);
    if (machine != 0x14C)
        return ff_error_set(err, FF_E_UNSUPPORTED, NULL, lfanew + 4,
                            "machine 0x%x (%s) is not i386 (0x14c)", machine,
                            machine_name(machine));
    if (nsect == 0 || nsect > PE_MAX_SECTIONS)
        return ff_error_set(err, FF_E_FORMAT, NULL, lfanew + 6, "absurd section count %u (1..%u)",
                            nsect, PE_MAX_SECTIONS);
    out->file_characteristics = le_u16(coff + 18);
    size_t opt = (size_t)lfanew + 4 + PE_COFF_SIZE;
    uint32_t import_rva = 0;
    if (parse_optional(out, data, size, opt, optsz, &import_rva, err) != 0) return -1;
    size_t tab = opt + optsz;
    if (!in_file(size, tab, (uint64_t)nsect * PE_SECTION_SIZE))
        return ff_error_set(err, FF_E_TRUNCATED, NULL, tab,
                            "file ends inside the section table (%u sections)", nsect);
    if (out->size_of_headers > size)
        return ff_error_set(err, FF_E_TRUNCATED, NULL, opt + 60,
                            "file ends inside the headers (SizeOfHeaders 0x%x, file 0x%zx)",
                            out->size_of_headers, size);
    out->nsections = nsect;
    if (parse_sections(out, data, size, tab, nsect, err) != 0) return -1;
    if (import_rva && parse_imports(out, data, import_rva, err) != 0) {
        pe_free(out);
        return -1;
    }
    return 0;
}

void pe_free(pe_image *img)
{
    if (!img) return;
    free(img->imports);
    img->imports = NULL;
    img->nimports = 0;
}

int pe_build_image(const pe_image *img, const uint8_t *data, size_t size, uint8_t **out,
                   ff_error *err)
{
    *out = NULL;
    if (img->size_of_headers > size || img->size_of_headers > img->size_of_image)
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "headers past the file");
    for (unsigned i = 0; i < img->nsections; i++) {
        const pe_section *s = &img->sections[i];
        if (s->raw_size && (!in_file(size, s->raw_off, s->raw_size) ||
                            (uint64_t)s->rva + s->raw_size > img->size_of_image))
            return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "section %u not validated", i);
    }
    uint8_t *dst = calloc(1, img->size_of_image);
    if (!dst)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for a 0x%x-byte image",
                            img->size_of_image);
    memcpy(dst, data, img->size_of_headers);
    for (unsigned i = 0; i < img->nsections; i++) {
        const pe_section *s = &img->sections[i];
        if (s->raw_size) memcpy(dst + s->rva, data + s->raw_off, s->raw_size);
    }
    *out = dst;
    return 0;
}

void pe_copy_image(const pe_image *img, const uint8_t *layout, uint8_t *dst)
{
    memcpy(dst, layout, img->size_of_headers);
    for (unsigned i = 0; i < img->nsections; i++) {
        const pe_section *s = &img->sections[i];
        if (s->raw_size) memcpy(dst + s->rva, layout + s->rva, s->raw_size);
    }
}

/* Bytes readable from rva on inside one region (headers or a section); 0 when none. */
static uint32_t region_at(const pe_image *img, uint32_t rva, const pe_section **sec)
{
    *sec = NULL;
    if (rva < img->size_of_headers) return img->size_of_headers - rva;
    for (unsigned i = 0; i < img->nsections; i++) {
        const pe_section *s = &img->sections[i];
        if (rva >= s->rva && rva - s->rva < s->vsize) {
            *sec = s;
            return s->vsize - (rva - s->rva);
        }
    }
    return 0;
}

int pe_read_va(const pe_image *img, const uint8_t *data, size_t size, uint32_t va, uint8_t *out,
               size_t len, ff_error *err)
{
    if (va < img->image_base)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "address 0x%x lies below the image", va);
    uint64_t rva = va - img->image_base;
    size_t done = 0;
    while (done < len) {
        const pe_section *s;
        uint64_t r = rva + done;
        uint32_t avail = r > UINT32_MAX ? 0 : region_at(img, (uint32_t)r, &s);
        if (avail == 0)
            return ff_error_set(err, FF_E_RANGE, NULL, -1,
                                "address 0x%llx lies outside the headers and every section",
                                (unsigned long long)(img->image_base + r));
        size_t n = len - done < avail ? len - done : avail;
        for (size_t k = 0; k < n; k++) {
            uint64_t rr = r + k;
            uint8_t b = 0;
            if (!s) {
                b = rr < size ? data[rr] : 0;
            } else {
                uint64_t d = rr - s->rva;
                if (d < s->raw_size && (uint64_t)s->raw_off + d < size) b = data[s->raw_off + d];
            }
            out[done + k] = b;
        }
        done += n;
    }
    return 0;
}

const pe_section *pe_section_at(const pe_image *img, uint32_t va)
{
    if (va < img->image_base) return NULL;
    const pe_section *s;
    if (region_at(img, va - img->image_base, &s) == 0) return NULL;
    return s;
}

const pe_import *pe_import_at_slot(const pe_image *img, uint32_t slot)
{
    for (unsigned i = 0; i < img->nimports; i++)
        if (img->imports[i].slot == slot) return &img->imports[i];
    return NULL;
}
