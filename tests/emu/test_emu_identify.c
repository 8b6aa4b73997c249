/*
 * tests/emu/test_emu_identify.c: identification of executables against the
 * built-in profiles (known hash, unknown build whose fingerprints hold,
 * broken fingerprint, not a PE) and the structural check of the stand-in.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "emu/profiles/identify.h"
#include "emu/image/pe.h"
#include "tests/emu/te.h"

static int find(const identify_result *r, const char *name)
{
    for (unsigned i = 0; i < r->nmatches; i++)
        if (strcmp(r->matches[i].profile, name) == 0) return (int)i;
    cr_assert_fail("no match for profile %s", name);
    return -1;
}

/* File offset of an address, from the section table. */
static size_t file_off(const uint8_t *exe, size_t n, uint32_t va)
{
    pe_image pe;
    ff_error err;
    TS_OK(pe_parse(exe, n, &pe, &err), &err);
    const pe_section *s = pe_section_at(&pe, va);
    cr_assert(s && va - pe.image_base - s->rva < s->raw_size, "0x%x has no file byte", va);
    size_t off = s->raw_off + (va - pe.image_base - s->rva);
    pe_free(&pe);
    return off;
}

Test(identify, standin_is_known)
{
    identify_result *r = malloc(sizeof *r);
    ff_error err;
    TS_OK(identify_file(te_standin_path("standin.exe"), NULL, r, &err), &err);
    cr_assert(r->is_pe);
    int s = find(r, "standin"), steam = find(r, "ff8_en_steam2013");
    cr_assert_eq(r->accepted, s);
    cr_assert_eq(r->matches[s].verdict, IDENTIFY_KNOWN);
    cr_assert(r->matches[s].hash_match);
    emu_profile p;
    te_standin_profile(&p);
    cr_assert_str_eq(r->sha256, p.sha256[0]);
    cr_assert_eq(r->matches[steam].verdict, IDENTIFY_REFUSED);
    cr_assert_not(r->matches[steam].hash_match);
    free(r);
}

Test(identify, patched_copy_runs_with_a_warning)
{
    size_t n;
    uint8_t *exe = ts_read_all(te_standin_path("standin.exe"), &n);
    /* A byte of Test_LoopForever's padding, far from every fingerprint. */
    size_t off = file_off(exe, n, 0x5A00BF);
    exe[off] ^= 0x01;
    emu_profile p;
    te_standin_profile(&p);
    identify_result *r = malloc(sizeof *r);
    ff_error err;
    TS_OK(identify_buffer(exe, n, &p, 1, r, &err), &err);
    cr_assert_eq(r->matches[0].verdict, IDENTIFY_UNKNOWN, "%s", r->matches[0].reason);
    cr_assert_eq(r->accepted, 0);
    for (unsigned i = 0; i < r->matches[0].nfp; i++)
        cr_assert(r->matches[0].fp[i].held);
    emu_image *img;
    char warn[512];
    TS_OK(emu_image_load_buffer(exe, n, "patched.exe", &p, &img, warn, sizeof warn, &err), &err);
    cr_assert(strstr(warn, "fingerprints hold") != NULL, "warning \"%s\"", warn);
    emu_image_free(img);
    free(r);
    free(exe);
}

Test(identify, broken_fingerprint_is_refused)
{
    size_t n;
    uint8_t *exe = ts_read_all(te_standin_path("standin.exe"), &n);
    size_t off = file_off(exe, n, 0xB8B9F2);
    cr_assert_eq(exe[off], 0x09);
    exe[off] = 0x0A;
    emu_profile p;
    te_standin_profile(&p);
    identify_result *r = malloc(sizeof *r);
    ff_error err;
    TS_OK(identify_buffer(exe, n, &p, 1, r, &err), &err);
    const identify_match *m = &r->matches[0];
    cr_assert_eq(m->verdict, IDENTIFY_REFUSED);
    cr_assert_eq(r->accepted, -1);
    int failed = 0;
    for (unsigned i = 0; i < m->nfp; i++) {
        if (m->fp[i].held) continue;
        failed++;
        cr_assert_eq(m->fp[i].address, 0xB8B9F0u);
        cr_assert_eq(m->fp[i].found[2], 0x0A);
    }
    cr_assert_eq(failed, 1);
    cr_assert(strstr(m->reason, "0xB8B9F0 expected 03 06 09 10, found 03 06 0A 10") != NULL, "%s",
              m->reason);
    emu_image *img;
    cr_assert_eq(emu_image_load_buffer(exe, n, "broken.exe", &p, &img, NULL, 0, &err), -1);
    cr_assert_eq(err.kind, FF_E_EXE);
    cr_assert_str_eq(err.file, "broken.exe");
    free(r);
    free(exe);
}

Test(identify, non_pe_is_refused)
{
    static const uint8_t text[] =
        "this is not an executable at all, just some text that is long enough to hold a DOS header";
    emu_profile p;
    te_standin_profile(&p);
    identify_result *r = malloc(sizeof *r);
    ff_error err;
    TS_OK(identify_buffer(text, sizeof text, &p, 1, r, &err), &err);
    cr_assert_not(r->is_pe);
    cr_assert_eq(r->matches[0].verdict, IDENTIFY_REFUSED);
    cr_assert(strstr(r->matches[0].reason, "not a PE32") != NULL, "%s", r->matches[0].reason);
    cr_assert(strstr(r->pe_reason, "MZ") != NULL, "%s", r->pe_reason);
    free(r);
}

static const identify_routine *routine(const identify_structure *s, const char *name)
{
    for (unsigned i = 0; i < s->nroutines; i++)
        if (strcmp(s->routines[i].name, name) == 0) return &s->routines[i];
    cr_assert_fail("%s not checked", name);
    return NULL;
}

static int has_target(const identify_target *t, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0) return 1;
    return 0;
}

Test(identify, structure_of_the_standin)
{
    size_t n;
    uint8_t *exe = ts_read_all(te_standin_path("standin.exe"), &n);
    emu_profile p;
    te_standin_profile(&p);
    identify_structure *s = malloc(sizeof *s);
    ff_error err;
    TS_OK(identify_routines(exe, n, &p, s, &err), &err);
    const identify_routine *ra = routine(s, "Battle_ReadAnimation");
    cr_assert(ra->decoded, "%s", ra->error);
    static const char *const want[] = {"Field_Alloc",      "ReadPositionType", "bitReader",
                                       "ReadRotationType", "ReadBoneScale",    "BuildBoneMatrices",
                                       "Field_Free"};
    cr_assert_eq(ra->ncalls, 7u);
    for (unsigned i = 0; i < 7; i++)
        cr_assert(has_target(ra->calls, ra->ncalls, want[i]), "%s not called", want[i]);
    cr_assert_eq(ra->nmissing, 0u);
    cr_assert_eq(ra->nunexpected, 0u);
    const identify_routine *fa = routine(s, "Field_Alloc");
    cr_assert(has_target(fa->refs, fa->nrefs, "field_alloc_cursor"));
    const identify_routine *ci = routine(s, "Test_CallImport");
    cr_assert_geq(ci->nindirect, 1u);
    cr_assert(has_target(ci->refs, ci->nrefs, "KERNEL32.dll!GetTickCount"));
    const identify_routine *rp = routine(s, "ReadPositionType");
    int table = 0;
    for (unsigned i = 0; i < rp->nrefs; i++)
        table |= rp->refs[i].address == 0xB8B9F0u;
    cr_assert(table, "ReadPositionType does not reference the width table");
    cr_assert_eq(s->nproblems, 0u);

    /* A profile that expects the wrong callee. */
    profile_routine *pr = (profile_routine *)profile_find_routine(&p, "ReadPositionType");
    pr->ncallees = 1;
    strcpy(pr->callees[0], "Field_Free");
    TS_OK(identify_routines(exe, n, &p, s, &err), &err);
    rp = routine(s, "ReadPositionType");
    cr_assert_eq(rp->nmissing, 1u);
    cr_assert_str_eq(rp->missing[0], "Field_Free");
    cr_assert_eq(rp->nunexpected, 1u);
    cr_assert_str_eq(rp->unexpected[0].name, "bitReader");
    cr_assert_eq(s->nproblems, 1u);
    free(s);
    free(exe);
}
