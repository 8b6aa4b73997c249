/*
 * ref/dat.c: validation of battle .dat model files (docs/engine.md section 6):
 * the section table, the kind from the section count, and for model kinds
 * the skeleton header and the animation section's clip table.
 *
 * Reads only: never copies, owns, prints or exits. Every size or offset
 * from the file is checked against the file's size before use, in an order
 * that cannot overflow (64-bit arithmetic on 32-bit fields).
 */
#include "common/le.h"
#include "ref/dat.h"

#include <string.h>

typedef struct kind_row {
    const char *json;
    unsigned sections;
    int model;
} kind_row;

static const kind_row kinds[] = {
#define DAT_KIND_ROW(name, json, sections, model) {json, sections, model},
    DAT_KIND_MAP(DAT_KIND_ROW)
#undef DAT_KIND_ROW
};

const char *dat_kind_name(dat_kind kind)
{
    if ((unsigned)kind >= DAT__KIND_COUNT) return "?";
    return kinds[kind].json;
}

unsigned dat_kind_sections(dat_kind kind)
{
    if ((unsigned)kind >= DAT__KIND_COUNT) return 0;
    return kinds[kind].sections;
}

int dat_kind_has_model(dat_kind kind)
{
    if ((unsigned)kind >= DAT__KIND_COUNT) return 0;
    return kinds[kind].model;
}

int dat_kind_from_name(const char *name)
{
    if (!name) return -1;
    for (unsigned k = 0; k < DAT__KIND_COUNT; k++)
        if (strcmp(kinds[k].json, name) == 0) return (int)k;
    return -1;
}

/* The kind whose section count is n, or -1. */
static int kind_of_count(uint32_t n)
{
    for (unsigned k = 0; k < DAT__KIND_COUNT; k++)
        if (kinds[k].sections == n) return (int)k;
    return -1;
}

/* Count, section offsets and end field. Fills kind, nsections, section[]. */
static int parse_table(const uint8_t *data, size_t size, const char *name, dat_file *out,
                       ff_error *err)
{
    if (size < 4)
        return ff_error_set(err, FF_E_TRUNCATED, name, 0,
                            "file is %zu bytes, shorter than its 4-byte section count", size);
    uint32_t n = le_u32(data);
    int kind = kind_of_count(n);
    if (kind < 0)
        return ff_error_set(err, FF_E_UNSUPPORTED, name, 0,
                            "section count %u is not one of 11 (monster), 7 (body), 10 (edea), "
                            "8 (weapon), 5 (reduced weapon) or 2 (no model)",
                            n);
    uint64_t header = 4 + 4 * (uint64_t)n + 4;
    if (header > size)
        return ff_error_set(err, FF_E_TRUNCATED, name, 0,
                            "%u sections need a %llu-byte header but the file is %zu bytes", n,
                            (unsigned long long)header, size);
    uint32_t end = le_u32(data + 4 + 4 * (size_t)n);
    if ((uint64_t)end != (uint64_t)size)
        return ff_error_set(err, end > size ? FF_E_TRUNCATED : FF_E_FORMAT, name,
                            (int64_t)(4 + 4 * (uint64_t)n),
                            "end field 0x%x differs from the file size 0x%zx", end, size);
    for (uint32_t i = 0; i < n; i++) {
        int64_t at = 4 + 4 * (int64_t)i;
        uint32_t off = le_u32(data + at);
        if ((uint64_t)off > (uint64_t)size)
            return ff_error_set(err, FF_E_RANGE, name, at,
                                "section %u offset 0x%x is past the end of the file (0x%zx bytes)",
                                i, off, size);
        if (i == 0 && (uint64_t)off < header)
            return ff_error_set(err, FF_E_FORMAT, name, at,
                                "section 0 offset 0x%x lies inside the 0x%llx-byte header", off,
                                (unsigned long long)header);
        if (i > 0 && off < out->section[i - 1])
            return ff_error_set(err, FF_E_FORMAT, name, at,
                                "section %u offset 0x%x is before section %u offset 0x%x", i, off,
                                i - 1, out->section[i - 1]);
        out->section[i] = off;
    }
    out->section[n] = end;
    out->nsections = n;
    out->kind = (dat_kind)kind;
    return 0;
}

/* Section 0: 16-byte header with a non-zero bone count, then the bones. */
static int parse_skeleton(dat_file *f, ff_error *err)
{
    f->skel_off = f->section[DAT_SECTION_SKELETON];
    f->skel_size = f->section[DAT_SECTION_SKELETON + 1] - f->skel_off;
    if (f->skel_size < DAT_SKEL_HEADER)
        return ff_error_set(err, FF_E_TRUNCATED, f->name, f->skel_off,
                            "skeleton section is %u bytes, shorter than its %d-byte header",
                            f->skel_size, DAT_SKEL_HEADER);
    unsigned bones = f->data[f->skel_off + DAT_SKEL_BONE_COUNT];
    if (bones == 0)
        return ff_error_set(err, FF_E_FORMAT, f->name, f->skel_off, "skeleton has 0 bones");
    uint32_t need = DAT_SKEL_HEADER + DAT_BONE_SIZE * bones;
    if (need > f->skel_size)
        return ff_error_set(err, FF_E_TRUNCATED, f->name, f->skel_off,
                            "%u bones need 0x%x bytes but the skeleton section holds 0x%x", bones,
                            need, f->skel_size);
    f->bones = bones;
    return 0;
}

/* Section 2: u32 count >= 1, count offsets pointing past the table and
 * inside the section (each clip's frame byte lies in the section). */
static int parse_animation(dat_file *f, ff_error *err)
{
    f->anim_off = f->section[DAT_SECTION_ANIMATION];
    f->anim_size = f->section[DAT_SECTION_ANIMATION + 1] - f->anim_off;
    if (f->anim_size < 4)
        return ff_error_set(err, FF_E_TRUNCATED, f->name, f->anim_off,
                            "animation section is %u bytes, shorter than its 4-byte clip count",
                            f->anim_size);
    uint32_t count = le_u32(f->data + f->anim_off);
    if (count == 0)
        return ff_error_set(err, FF_E_FORMAT, f->name, f->anim_off,
                            "animation section holds 0 clips");
    if (count > (f->anim_size - 4) / 4)
        return ff_error_set(err, FF_E_RANGE, f->name, f->anim_off,
                            "clip count %u needs a 0x%llx-byte offset table but the animation "
                            "section holds 0x%x bytes",
                            count, 4 + 4 * (unsigned long long)count, f->anim_size);
    uint32_t table = 4 + 4 * count; /* <= anim_size, no overflow */
    for (uint32_t i = 0; i < count; i++) {
        int64_t at = (int64_t)f->anim_off + 4 + 4 * (int64_t)i;
        uint32_t off = le_u32(f->data + at);
        if (off < table)
            return ff_error_set(err, FF_E_FORMAT, f->name, at,
                                "clip %u offset 0x%x points inside the 0x%x-byte offset table", i,
                                off, table);
        if (off >= f->anim_size)
            return ff_error_set(err, FF_E_RANGE, f->name, at,
                                "clip %u offset 0x%x is past the end of the 0x%x-byte animation "
                                "section",
                                i, off, f->anim_size);
    }
    f->clips = count;
    return 0;
}

int dat_parse(const uint8_t *data, size_t size, const char *name, dat_file *out, ff_error *err)
{
    if (!out || (!data && size))
        return ff_error_set(err, FF_E_USAGE, name, -1, "dat_parse needs data and an output");
    memset(out, 0, sizeof *out);
    out->name = name;
    out->data = data;
    out->size = size;
    if (parse_table(data, size, name, out, err) < 0) return -1;
    if (!dat_kind_has_model(out->kind)) return 0;
    if (parse_skeleton(out, err) < 0) return -1;
    return parse_animation(out, err);
}

int dat_clip_offset(const dat_file *f, uint32_t clip, uint32_t *off, ff_error *err)
{
    if (!dat_kind_has_model(f->kind))
        return ff_error_set(err, FF_E_UNSUPPORTED, f->name, -1,
                            "a %s file has no animation section", dat_kind_name(f->kind));
    if (clip >= f->clips)
        return ff_error_set(err, FF_E_RANGE, f->name, f->anim_off,
                            "clip %u out of range (the file has %u clips)", clip, f->clips);
    *off = f->anim_off + le_u32(f->data + f->anim_off + 4 + 4 * (size_t)clip);
    return 0;
}

unsigned dat_clip_frames(const dat_file *f, uint32_t clip)
{
    uint32_t off = 0; /* set on success; -O3 cannot see that through ff_error_set */
    if (dat_clip_offset(f, clip, &off, NULL) < 0) return 0;
    return f->data[off];
}

uint64_t dat_clip_end(const dat_file *f, uint32_t start)
{
    uint64_t end = (uint64_t)f->anim_off + f->anim_size;
    for (uint32_t i = 0; i < f->clips; i++) {
        uint64_t o = (uint64_t)f->anim_off + le_u32(f->data + f->anim_off + 4u + 4u * i);
        if (o > start && o < end) end = o;
    }
    return end;
}
