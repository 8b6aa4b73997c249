/*
 * tests/emu/test_emu_identify.c: identification of executables against the
 * built-in profiles (known hash, unknown build whose fingerprints hold,
 * broken fingerprint, not a PE) and the structural check of the stand-in;
 * the evidence kept apart from the verdict (bytes, version dwords, routine
 * sizes) and the Remaster's files, on synthetic PEs the tests build.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
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

/* ---- evidence apart from the verdict ------------------------------------ */

/* The stand-in's profile with evidence bytes and version dwords about standin.exe. */
static void standin_with_evidence(emu_profile *p, int other_first)
{
    te_standin_profile(p);
    const profile_fingerprint *fa = NULL;
    for (unsigned i = 0; i < p->nfingerprints; i++)
        if (p->fingerprints[i].address == 0x5082B0) fa = &p->fingerprints[i];
    cr_assert(fa && fa->len >= 8);
    p->nevidence = 2;
    profile_evidence *e = p->evidence;
    snprintf(e[0].what, sizeof e[0].what, "Field_Alloc's first bytes");
    e[0].address = 0x5082B0;
    e[0].len = 4;
    memcpy(e[0].bytes, fa->bytes, 4);
    e[1] = e[0];
    snprintf(e[1].what, sizeof e[1].what, "bytes this build does not have");
    e[1].bytes[3] ^= 0xFF;
    uint32_t dword = le_u32(fa->bytes), dword2 = le_u32(fa->bytes + 4);
    p->nversions = 2;
    profile_version *v = p->versions;
    memset(v, 0, 2 * sizeof *v);
    snprintf(v[0].build, sizeof v[0].build, "another build");
    snprintf(v[0].language, sizeof v[0].language, "Other");
    v[0].ndwords = 2;
    v[0].address[0] = 0x5082B0;
    v[0].value[0] = other_first ? dword : dword + 1;
    v[0].address[1] = 0x5082B4;
    v[0].value[1] = dword2;
    snprintf(v[1].build, sizeof v[1].build, "the stand-in");
    snprintf(v[1].language, sizeof v[1].language, "Test");
    v[1].own = 1;
    v[1].ndwords = 1;
    v[1].address[0] = 0x5082B0;
    v[1].value[0] = dword;
}

Test(identify, evidence_is_reported_and_never_decides)
{
    size_t n;
    uint8_t *exe = ts_read_all(te_standin_path("standin.exe"), &n);
    emu_profile p;
    identify_result *r = malloc(sizeof *r);
    ff_error err;
    for (int other_first = 0; other_first < 2; other_first++) {
        standin_with_evidence(&p, other_first);
        TS_OK(identify_buffer(exe, n, &p, 1, r, &err), &err);
        const identify_match *m = &r->matches[0];
        cr_assert_eq(m->verdict, IDENTIFY_KNOWN, "evidence never decides: %s", m->reason);
        cr_assert_eq(m->nevidence, 2u);
        cr_assert(m->evidence[0].bytes.held);
        cr_assert_not(m->evidence[1].bytes.held);
        cr_assert_eq(m->evidence[1].bytes.found_len, 4u);
        cr_assert_eq(m->version.nchecked, 2u);
        cr_assert_eq(m->version.own, 1);
        /* The first entry whose dwords all hold names the build, as FFNx's table reads. */
        cr_assert_eq(m->version.match, other_first ? 0 : 1);
        cr_assert_str_eq(m->version.build, other_first ? "another build" : "the stand-in");
        cr_assert_str_eq(m->version.language, other_first ? "Other" : "Test");
        cr_assert_eq(m->version.ndwords, 1u, "the own entry's dwords are shown");
        cr_assert(m->version.readable[0]);
        cr_assert_eq(m->version.found[0], p.versions[1].value[0]);
    }
    free(r);
    free(exe);
}

/*
 * A build whose fingerprints hold but one of whose routines differs in size (Test_ReadUnmapped
 * made a lone `ret`): an unknown build that still runs, the routine that differs named.
 */
Test(identify, an_unknown_build_with_other_sizes_runs_and_names_them)
{
    size_t n;
    uint8_t *exe = ts_read_all(te_standin_path("standin.exe"), &n);
    emu_profile p;
    te_standin_profile(&p);
    const profile_routine *tr = profile_find_routine(&p, "Test_ReadUnmapped");
    cr_assert(tr && tr->insns > 1, "the stand-in's profile gives its own sizes");
    exe[file_off(exe, n, tr->address)] = 0xC3;
    identify_result *r = malloc(sizeof *r);
    ff_error err;
    TS_OK(identify_buffer(exe, n, &p, 1, r, &err), &err);
    cr_assert_eq(r->matches[0].verdict, IDENTIFY_UNKNOWN, "%s", r->matches[0].reason);
    identify_structure *st = malloc(sizeof *st);
    TS_OK(identify_routines(exe, n, &p, st, &err), &err);
    cr_assert_eq(st->nsized, p.nroutines);
    cr_assert_eq(st->nsize_differ, 1u);
    cr_assert_eq(st->nproblems, 0u, "a size is evidence, not a structural problem");
    for (unsigned i = 0; i < st->nroutines; i++) {
        const identify_routine *rt = &st->routines[i];
        int is = strcmp(rt->name, "Test_ReadUnmapped") == 0;
        cr_assert_eq(rt->size_held && rt->insns_held, !is, "%s", rt->name);
        if (is) {
            cr_assert_eq(rt->insns, 1u);
            cr_assert_eq(rt->size, 1u);
            cr_assert_eq(rt->want_insns, tr->insns);
        }
    }
    emu_image *img;
    TS_OK(emu_image_load_buffer(exe, n, "sized.exe", &p, &img, NULL, 0, &err), &err);
    emu_image_free(img);
    free(st);
    free(r);
    free(exe);
}

/* The 2019 Remaster's files, told by their names and PE traits; nothing else is. */
Test(identify, remaster_files_are_named_for_what_they_are)
{
    static const struct {
        const char *name;
        int dll;
        identify_remaster_kind want;
    } cases[] = {
        {"/games/FINAL FANTASY VIII Remastered/FFVIII_EFIGS.dll", 1, IDENTIFY_REMASTER_CODE},
        {"C:\\Games\\FF8R\\ffviii_jp.DLL", 1, IDENTIFY_REMASTER_CODE},
        {"FFVIII.exe", 0, IDENTIFY_REMASTER_HOST},
        {"FFVIII.exe", 1, IDENTIFY_REMASTER_NONE},        /* the host is no DLL */
        {"FFVIII_EFIGS.dll", 0, IDENTIFY_REMASTER_NONE},  /* the game code is one */
        {"FF8_EN.dll", 1, IDENTIFY_REMASTER_NONE},
        {"FFVIII_EFIGS.dll.bak", 1, IDENTIFY_REMASTER_NONE},
        {NULL, 1, IDENTIFY_REMASTER_NONE},
    };
    emu_profile p;
    te_standin_profile(&p);
    identify_result *r = malloc(sizeof *r);
    ff_error err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t pe[TS_MINI_PE_SIZE];
        ts_mini_pe(pe, cases[i].dll);
        TS_OK(identify_buffer_named(pe, sizeof pe, cases[i].name, &p, 1, r, &err), &err);
        cr_assert(r->is_pe, "case %zu", i);
        cr_assert_eq(r->accepted, -1, "case %zu", i);
        cr_assert_eq(r->remaster, cases[i].want, "case %zu (%s)", i,
                     cases[i].name ? cases[i].name : "no name");
        if (cases[i].want == IDENTIFY_REMASTER_NONE) {
            cr_assert_str_eq(r->remaster_note, "", "case %zu", i);
            continue;
        }
        cr_assert(strstr(r->remaster_note, "statically translated to C"), "%s", r->remaster_note);
        cr_assert(strstr(r->remaster_note, "--corpus"), "%s", r->remaster_note);
        cr_assert(strstr(r->remaster_note, "2013 executable"), "%s", r->remaster_note);
    }
    /* An executable a profile accepts is what the profile says, whatever its name. */
    size_t n;
    uint8_t *exe = ts_read_all(te_standin_path("standin.exe"), &n);
    TS_OK(identify_buffer_named(exe, n, "FFVIII.exe", &p, 1, r, &err), &err);
    cr_assert_eq(r->matches[0].verdict, IDENTIFY_KNOWN);
    cr_assert_eq(r->remaster, IDENTIFY_REMASTER_NONE);
    free(exe);
    free(r);
}
