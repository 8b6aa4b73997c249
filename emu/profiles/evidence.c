/*
 * emu/profiles/evidence.c: what identify reports beside its verdict (see
 * emu/profiles/identify.h): the profile's "evidence" bytes and "versions"
 * dwords, each held or not, and the build the dwords name; and the files
 * of the 2019 Remaster, told by their names and PE traits. None of it
 * decides whether a build runs. Reads only; no printing, no exit.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/le.h"
#include "emu/profiles/identify.h"
#include "emu/profiles/identify_internal.h"

static const char *const remaster_names[] = {
#define IDENTIFY_REMASTER_NAME(name, json, what) json,
    IDENTIFY_REMASTER_MAP(IDENTIFY_REMASTER_NAME)
#undef IDENTIFY_REMASTER_NAME
};
static const char *const remaster_what[] = {
#define IDENTIFY_REMASTER_WHAT(name, json, what) what,
    IDENTIFY_REMASTER_MAP(IDENTIFY_REMASTER_WHAT)
#undef IDENTIFY_REMASTER_WHAT
};

const char *identify_remaster_name(identify_remaster_kind k)
{
    return (unsigned)k < IDENTIFY_REMASTER__COUNT ? remaster_names[k] : "?";
}

/* The dword at va as the loader maps it: 1, or 0 when it lies outside the image. */
static int read_dword(const pe_image *pe, const uint8_t *data, size_t size, uint32_t va,
                      uint32_t *out)
{
    uint8_t b[4];
    if (pe_read_va(pe, data, size, va, b, 4, NULL) != 0) return 0;
    *out = le_u32(b);
    return 1;
}

/* 1 when every dword of v holds in the file. */
static int version_holds(const pe_image *pe, const uint8_t *data, size_t size,
                         const profile_version *v)
{
    for (unsigned k = 0; k < v->ndwords; k++) {
        uint32_t got;
        if (!read_dword(pe, data, size, v->address[k], &got) || got != v->value[k]) return 0;
    }
    return 1;
}

static void check_versions(const pe_image *pe, const uint8_t *data, size_t size,
                           const emu_profile *p, identify_version *o)
{
    memset(o, 0, sizeof *o);
    o->match = o->own = -1;
    o->nchecked = p->nversions;
    if (!p->nversions) return;
    for (unsigned i = 0; i < p->nversions; i++) {
        if (p->versions[i].own && o->own < 0) o->own = (int)i;
        if (o->match < 0 && version_holds(pe, data, size, &p->versions[i])) o->match = (int)i;
    }
    if (o->match >= 0) {
        snprintf(o->build, sizeof o->build, "%s", p->versions[o->match].build);
        snprintf(o->language, sizeof o->language, "%s", p->versions[o->match].language);
    }
    const profile_version *shown = &p->versions[o->own >= 0 ? o->own : 0];
    o->ndwords = shown->ndwords;
    for (unsigned k = 0; k < shown->ndwords; k++) {
        o->address[k] = shown->address[k];
        o->readable[k] = read_dword(pe, data, size, shown->address[k], &o->found[k]);
    }
}

void identify_check_evidence(const pe_image *pe, const uint8_t *data, size_t size,
                             const emu_profile *p, identify_match *m)
{
    m->nevidence = p->nevidence;
    for (unsigned i = 0; i < p->nevidence; i++) {
        const profile_evidence *e = &p->evidence[i];
        profile_fingerprint as_bytes;
        memset(&as_bytes, 0, sizeof as_bytes);
        as_bytes.address = e->address;
        as_bytes.len = e->len;
        memcpy(as_bytes.bytes, e->bytes, e->len);
        snprintf(m->evidence[i].what, sizeof m->evidence[i].what, "%s", e->what);
        identify_check_bytes(pe, data, size, &as_bytes, &m->evidence[i].bytes);
    }
    check_versions(pe, data, size, p, &m->version);
}

/* The last component of a path, '/' or '\\' separated. */
static const char *last_component(const char *path)
{
    const char *s = path;
    for (const char *c = path; *c; c++)
        if (*c == '/' || *c == '\\') s = c + 1;
    return s;
}

static int same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return !*a && !*b;
}

void identify_remaster(const char *name, const pe_image *pe, identify_result *out)
{
    out->remaster = IDENTIFY_REMASTER_NONE;
    out->remaster_note[0] = '\0';
    if (!name || !pe || out->accepted >= 0) return;
    const char *base = last_component(name);
    int dll = (pe->file_characteristics & PE_FILE_DLL) != 0;
    if (same_name(base, "FFVIII.exe") && !dll)
        out->remaster = IDENTIFY_REMASTER_HOST;
    else if ((same_name(base, "FFVIII_EFIGS.dll") || same_name(base, "FFVIII_JP.dll")) && dll)
        out->remaster = IDENTIFY_REMASTER_CODE;
    else
        return;
    const char *what = remaster_what[out->remaster];
    if (out->remaster == IDENTIFY_REMASTER_HOST)
        snprintf(out->remaster_note, sizeof out->remaster_note,
                 "%s is %s: a 32-bit program that loads the game code from FFVIII_EFIGS.dll "
                 "(FFVIII_JP.dll in Japanese), where the 2013 x86 code is statically translated "
                 "to C; none of the routines ff8diff calls is here, so nothing runs on it. Its "
                 "data can be read: ff8diff run --exe FF8_EN.exe --corpus followed by the "
                 "Remaster's install folder (or its main.zzz) runs the Remaster's models "
                 "against a 2013 executable",
                 base, what);
    else
        snprintf(out->remaster_note, sizeof out->remaster_note,
                 "%s is %s: a 32-bit DLL holding the 2013 x86 code statically translated to C "
                 "(each function takes a register context, over an emulated stack and an "
                 "emulated memory that keeps the 2013 addresses), so the animation routines are "
                 "not x86 routines at their 2013 addresses (no profile's fingerprints hold) and "
                 "no public address of their translations is known: nothing runs on it. Its "
                 "data can be read: ff8diff run --exe FF8_EN.exe --corpus followed by the "
                 "Remaster's install folder (or its main.zzz) runs the Remaster's models "
                 "against a 2013 executable",
                 base, what);
}
