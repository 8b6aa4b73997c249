/*
 * tests/harness/rt.c: the hand-built run the report suites render, and
 * helpers to run external checkers. Test code only.
 *
 * Results (file, clip, mode: status, source):
 *   0  c0m001.dat  0 normal  match     emulated
 *   1  c0m001.dat  1 normal  mismatch  emulated  group 0: bone[3].rot.x tick 2, 20 vs 36
 *   2  c0m001.dat  2 normal  fault     emulated  read_unmapped at 0x5092a0
 *   3  c0m001.dat  0 slow    match     cache
 *   4  c0m001.dat  1 slow    match     deduplicated
 *   5  c0m001.dat  2 slow    not_run   none
 *   6  HOSTILE     0 normal  mismatch  emulated  group 1: root.y tick 0, 5 vs 6
 *   7  HOSTILE     1 normal  match     emulated
 *   8  HOSTILE     0 slow    bad_input none      truncated
 *   9  HOSTILE     1 slow    match     emulated
 *  10  broken|name -1 normal bad_input none      format (whole file)
 *  11  broken|name -1 slow   bad_input none
 * c0m099.dat has no clip, so no result. Leaf: bitReader 3 mismatches
 * (group 2), ReadPositionType 1 import fault, ReadRotationType clean,
 * ReadBoneScale no call.
 * Causes: 0 (read: ReadRotationType returns 36, reference 20) explains
 * group 0 and result 1, with a read window; 1 (combine: root.y written at
 * 0x50904d, 1 higher) explains group 1 and result 6; the leaf group has none.
 * Coverage: partial (1 clip from the cache); bitReader 1 of 1 block,
 * StartClip 2 of 3 with one block never run (escaped text in it).
 */
#include "tests/harness/rt.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

static void *must(void *p)
{
    cr_assert(p != NULL, "out of memory");
    return p;
}

static int32_t *ints(const int32_t *v, size_t n)
{
    int32_t *a = must(malloc((n ? n : 1) * sizeof *a));
    memcpy(a, v, n * sizeof *a);
    return a;
}

static void file_entry(run_file *f, const char *name, int parsed, dat_kind kind, uint64_t size,
                       unsigned bones, unsigned clips, uint64_t frames)
{
    memset(f, 0, sizeof *f);
    f->name = must(strdup(name));
    f->parsed = parsed;
    f->bad = !parsed;
    f->kind = kind;
    f->size = size;
    f->bones = bones;
    f->clips = clips;
    f->frames = frames;
    if (parsed) memset(f->sha256, 'a' + (int)kind, 64);
    f->error.kind = FF_E_OK;
    f->error.offset = -1;
}

static clip_result *result(run_results *r, size_t i, uint32_t file, int32_t clip, mode_id mode,
                           res_status st, res_source src)
{
    clip_result *c = &r->results[i];
    memset(c, 0, sizeof *c);
    c->file = file;
    c->clip = clip;
    c->mode = mode;
    c->status = st;
    c->source = src;
    c->group = -1;
    c->frames = clip >= 0 ? 10 : 0;
    if (st != RES_NOT_RUN && st != RES_BAD_INPUT) c->ref_ticks = c->orig_ticks = 3;
    return c;
}

static ff_error *error(ff_errkind kind, const char *file, int64_t off, const char *reason)
{
    ff_error *e = must(malloc(sizeof *e));
    ff_error_set(e, kind, file, off, "%s", reason);
    return e;
}

static void fault_read(emu_fault *f)
{
    memset(f, 0, sizeof *f);
    f->kind = EMU_FAULT_READ_UNMAPPED;
    f->routine = 0x5092a0;
    f->eip = 0x5092a5;
    f->addr = 0xdeadbeef;
    for (int i = 0; i < EMU__NREGS; i++)
        f->regs[i] = 0x1000u * (uint32_t)i;
    snprintf(f->detail, sizeof f->detail, "read at <0xdeadbeef> & beyond");
    snprintf(f->disasm, sizeof f->disasm,
             "0x5092a0: push ebp\n0x5092a1: mov ebp, esp\n> 0x5092a5: mov eax, dword ptr [ecx]\n"
             "0x5092a7: ret");
}

static void frame_rows(run_results *r)
{
    clip_result *c;
    result(r, 0, 0, 0, MODE_NORMAL, RES_MATCH, RES_SRC_EMULATED);
    c = result(r, 1, 0, 1, MODE_NORMAL, RES_MISMATCH, RES_SRC_EMULATED);
    c->group = 0;
    c->ref_ticks = 5;
    c->orig_ticks = 4;
    c->div = (cmp_divergence){.tick = 2,
                              .field = FIELD_ROT_X,
                              .bone = 3,
                              .ref = 20,
                              .orig = 36,
                              .cursor_off = 5,
                              .cursor_bit = 3,
                              .differing = 4,
                              .ref_ticks = 5,
                              .orig_ticks = 4};
    static const uint8_t bytes[8] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0};
    c->stream_off = 100;
    c->stream_len = 8;
    memcpy(c->stream, bytes, 8);
    c->cursor_file_off = 104;
    c = result(r, 2, 0, 2, MODE_NORMAL, RES_FAULT, RES_SRC_EMULATED);
    c->fault = must(malloc(sizeof *c->fault));
    fault_read(c->fault);
    result(r, 3, 0, 0, MODE_SLOW, RES_MATCH, RES_SRC_CACHE);
    result(r, 4, 0, 1, MODE_SLOW, RES_MATCH, RES_SRC_SHARED);
    result(r, 5, 0, 2, MODE_SLOW, RES_NOT_RUN, RES_SRC_NONE);
    c = result(r, 6, 1, 0, MODE_NORMAL, RES_MISMATCH, RES_SRC_EMULATED);
    c->group = 1;
    c->div = (cmp_divergence){.tick = 0,
                              .field = FIELD_ROOT_Y,
                              .ref = 5,
                              .orig = 6,
                              .cursor_off = 1,
                              .cursor_bit = 0,
                              .differing = 1,
                              .ref_ticks = 1,
                              .orig_ticks = 1};
    c->stream_off = c->cursor_file_off = 200;
    result(r, 7, 1, 1, MODE_NORMAL, RES_MATCH, RES_SRC_EMULATED);
    c = result(r, 8, 1, 0, MODE_SLOW, RES_BAD_INPUT, RES_SRC_NONE);
    c->error = error(FF_E_TRUNCATED, RT_HOSTILE, 77, "stream ends <early> & short");
    result(r, 9, 1, 1, MODE_SLOW, RES_MATCH, RES_SRC_EMULATED);
    c = result(r, 10, 2, -1, MODE_NORMAL, RES_BAD_INPUT, RES_SRC_NONE);
    c->error = error(FF_E_FORMAT, RT_PIPE, 4, "section count 99 > 16");
    c = result(r, 11, 2, -1, MODE_SLOW, RES_BAD_INPUT, RES_SRC_NONE);
    c->error = error(FF_E_FORMAT, RT_PIPE, 4, "section count 99 > 16");
}

static void leaf_rows(run_results *r)
{
    static const char *const names[4] = {"bitReader", "ReadPositionType", "ReadRotationType",
                                         "ReadBoneScale"};
    static const uint64_t calls[4] = {100, 50, 50, 0};
    r->nleaf = 4;
    r->leaf = must(calloc(4, sizeof *r->leaf));
    for (int i = 0; i < 4; i++) {
        snprintf(r->leaf[i].routine, sizeof r->leaf[i].routine, "%s", names[i]);
        r->leaf[i].calls = calls[i];
        r->leaf[i].group = -1;
    }
    leaf_result *l = &r->leaf[0];
    l->mismatches = 3;
    l->have_first = 1;
    l->group = 2;
    l->first = (leaf_case){.index = 7,
                           .buf = {1, 2, 3, 4, 5, 6, 7, 8},
                           .bit = 3,
                           .n = 4,
                           .ref_ax = 5,
                           .orig_ax = -5,
                           .ref_pos = 0,
                           .orig_pos = 0,
                           .ref_bit = 7,
                           .orig_bit = 7};
    l = &r->leaf[1];
    l->faults = 1;
    l->fault_index = 9;
    l->fault = must(calloc(1, sizeof *l->fault));
    l->fault->kind = EMU_FAULT_IMPORT;
    l->fault->routine = l->fault->eip = 0x509320;
    l->fault->addr = 0x400100;
    l->fault->caller = 0x509340;
    snprintf(l->fault->import_dll, sizeof l->fault->import_dll, "KERNEL32.dll");
    snprintf(l->fault->import_name, sizeof l->fault->import_name, "GetTickCount");
    snprintf(l->fault->detail, sizeof l->fault->detail, "called an import");
    snprintf(l->fault->disasm, sizeof l->fault->disasm, "> 0x509320: call dword ptr [0x400100]");
}

static void set_group(res_group *g, const char *level, const char *field, const char *mode,
                      const char *shape, uint64_t count, int64_t example)
{
    snprintf(g->level, sizeof g->level, "%s", level);
    snprintf(g->field, sizeof g->field, "%s", field);
    snprintf(g->mode, sizeof g->mode, "%s", mode);
    snprintf(g->shape, sizeof g->shape, "%s", shape);
    g->count = count;
    g->example = example;
}

static void groups(run_results *r)
{
    static const int32_t ref0[5] = {0, 10, 20, 30, 40}, orig0[4] = {0, 10, 36, 46};
    static const int32_t ref1[1] = {5}, orig1[1] = {6};
    r->ngroups = 3;
    r->groups = must(calloc(3, sizeof *r->groups));
    set_group(&r->groups[0], "frame", "rot.x", "normal", "differs_by_2^4", 1, 1);
    r->groups[0].series = (res_series){5, 5, 4, ints(ref0, 5), ints(orig0, 4)};
    set_group(&r->groups[1], "frame", "root.y", "normal", "off_by_one", 1, 6);
    r->groups[1].series = (res_series){1, 1, 1, ints(ref1, 1), ints(orig1, 1)};
    set_group(&r->groups[2], "leaf", "bitReader", "-", "negated", 3, 0);
}

static ref_read rd(ref_routine r, int depth, int n, int value, int64_t pos, int bit,
                   int64_t pos_after, int bit_after)
{
    ref_read x = {(uint8_t)r, (uint8_t)depth, (int16_t)n, (int16_t)value, bit, bit_after,
                  pos, pos_after, 0};
    return x;
}

static void explanations(run_results *r)
{
    res_explain *e = &r->groups[0].expl;
    e->state = RES_EXPL_READ;
    e->tick = 2;
    e->ref_reads = e->orig_reads = 40;
    readcmp_first *f = &e->first;
    f->diff = READCMP_VALUE;
    f->index = 21;
    f->have_ref = f->have_orig = 1;
    f->ref = rd(REF_R_ROTATION, 0, 0, 20, 5, 3, 6, 3);
    f->orig = rd(REF_R_ROTATION, 0, 0, 36, 5, 3, 6, 3);
    snprintf(f->routine, sizeof f->routine, "ReadRotationType");
    snprintf(f->caller, sizeof f->caller, "Battle_ReadAnimation");
    snprintf(f->responsible, sizeof f->responsible, "ReadRotationType");
    snprintf(f->cls, sizeof f->cls, "rotation type 1");
    e->call_eip = 0x50908d;
    snprintf(e->call_insn, sizeof e->call_insn, "call 0x509370");
    snprintf(e->call_routine, sizeof e->call_routine, "Battle_ReadAnimation");
    e->call_offset = 0xfd;
    e->win_first = 20;
    e->win_ref_n = e->win_orig_n = 3;
    e->win_ref[0] = e->win_orig[0] = rd(REF_R_BITREADER, 1, 6, -5, 4, 6, 5, 3);
    e->win_ref[1] = f->ref;
    e->win_orig[1] = f->orig;
    e->win_ref[2] = e->win_orig[2] = rd(REF_R_BITREADER, 1, 1, -1, 5, 3, 5, 4);
    e = &r->groups[1].expl;
    e->state = RES_EXPL_COMBINE;
    e->ref_reads = e->orig_reads = 16;
    e->before = 0;
    snprintf(e->relation, sizeof e->relation, "orig_higher_by_1");
    e->have_writer = 1;
    e->writer = (emu_writer){.writes = 1, .eip = 0x50904d, .size = 2, .value = 6,
                             .routine = "Battle_ReadAnimation", .routine_offset = 0xbd,
                             .insn = "mov word ptr [ebp + ecx*2 + 8], dx"};
    e->win_ref_n = e->win_orig_n = 1;
    e->win_ref[0] = e->win_orig[0] = rd(REF_R_POSITION, 0, 0, 5, 1, 0, 1, 5);
}

static void cause(res_cause *c, const char *kind, const char *statement, const char *routine,
                  uint32_t eip, const char *insn, int group, unsigned mode)
{
    snprintf(c->kind, sizeof c->kind, "%s", kind);
    snprintf(c->statement, sizeof c->statement, "%s", statement);
    snprintf(c->routine, sizeof c->routine, "%s", routine);
    snprintf(c->signature, sizeof c->signature, "%s|%s", kind, routine);
    c->have_insn = 1;
    c->eip = eip;
    snprintf(c->insn, sizeof c->insn, "%s", insn);
    snprintf(c->insn_routine, sizeof c->insn_routine, "Battle_ReadAnimation");
    c->clips = c->files = 1;
    c->modes = 1u << mode;
    c->example = group;
    c->example_result = -1; /* the example group's */
    c->ngroups = 1;
    c->groups = must(malloc(sizeof *c->groups));
    c->groups[0] = group;
}

static void causes(run_results *r)
{
    r->ncauses = 2;
    r->causes = must(calloc(2, sizeof *r->causes));
    cause(&r->causes[0], "read",
          "ReadRotationType returns 36 where the reference returns 20 (rotation type 1)",
          "ReadRotationType", 0x50908d, "call 0x509370", 0, MODE_NORMAL);
    cause(&r->causes[1], "combine", "every read agrees, yet root.y differs <by 1> & more",
          "Battle_ReadAnimation", 0x50904d, "mov word ptr [ebp + ecx*2 + 8], dx", 1,
          MODE_NORMAL);
    r->groups[0].cause = 0;
    r->groups[1].cause = 1;
    r->groups[2].cause = -1;
    for (size_t i = 0; i < r->nresults; i++) r->results[i].cause = -1;
    r->results[1].cause = 0;
    r->results[6].cause = 1;
    explanations(r);
}

static void coverage(run_results *r)
{
    res_coverage *c = &r->coverage;
    c->enabled = 1;
    c->not_emulated = 1;
    c->nroutines = 2;
    c->routines = must(calloc(2, sizeof *c->routines));
    res_cov_routine *b = &c->routines[0], *s = &c->routines[1];
    snprintf(b->name, sizeof b->name, "bitReader");
    b->entry = 0x5092a0;
    b->blocks = b->covered = 1;
    snprintf(s->name, sizeof s->name, "StartClip");
    s->entry = 0x509440;
    s->blocks = 3;
    s->covered = 2;
    s->nuncovered = 1;
    s->uncovered = must(calloc(1, sizeof *s->uncovered));
    res_cov_block *u = &s->uncovered[0];
    u->start = 0x509487;
    u->end = 0x50948a;
    u->insns = 2;
    u->from = 0x509485;
    u->from_covered = 1;
    snprintf(u->edge, sizeof u->edge, "fall");
    snprintf(u->branch, sizeof u->branch, "je 0x50948a");
    u->disasm = must(strdup("0x509487: add ecx, ecx <&>\n0x509489: dec ecx\n"));
}

void rt_results(run_results *r)
{
    memset(r, 0, sizeof *r);
    r->nfiles = 4;
    r->files = must(calloc(4, sizeof *r->files));
    file_entry(&r->files[0], "c0m001.dat", 1, DAT_MONSTER, 4096, 12, 3, 90);
    r->files[0].scale_clips = 1;
    file_entry(&r->files[1], RT_HOSTILE, 1, DAT_BODY, 2048, 20, 2, 40);
    file_entry(&r->files[2], RT_PIPE, 0, DAT_MONSTER, 12, 0, 0, 0);
    ff_error_set(&r->files[2].error, FF_E_FORMAT, RT_PIPE, 4, "section count 99 > 16");
    file_entry(&r->files[3], "c0m099.dat", 1, DAT_NO_MODEL, 64, 0, 0, 0);
    r->nresults = 12;
    r->results = must(calloc(12, sizeof *r->results));
    frame_rows(r);
    leaf_rows(r);
    groups(r);
    causes(r);
    coverage(r);
    run_totals *t = &r->totals;
    t->files = 4;
    t->bad_files = 1;
    t->clips = 5;
    t->comparisons = 12;
    const uint64_t st[RES__COUNT] = {[RES_MATCH] = 5, [RES_MISMATCH] = 2, [RES_FAULT] = 1,
                                     [RES_BAD_INPUT] = 3, [RES_NOT_RUN] = 1},
                   src[RES_SRC__COUNT] = {4, 6, 1, 1, 0};
    memcpy(t->by_status, st, sizeof st);
    memcpy(t->by_source, src, sizeof src);
    t->ticks_ref = 30;
    t->ticks_orig = 28;
    t->leaf_calls = 200;
    t->leaf_mismatches = 3;
    t->leaf_faults = 1;
    r->seconds = 1.5;
}

void rt_results_passing(run_results *r)
{
    memset(r, 0, sizeof *r);
    r->nfiles = 2;
    r->files = must(calloc(2, sizeof *r->files));
    file_entry(&r->files[0], "c0m001.dat", 1, DAT_MONSTER, 4096, 12, 2, 60);
    file_entry(&r->files[1], "c0m002.dat", 1, DAT_MONSTER, 3072, 9, 1, 30);
    r->nresults = 6;
    r->results = must(calloc(6, sizeof *r->results));
    size_t i = 0;
    for (mode_id m = MODE_NORMAL; m <= MODE_SLOW; m++) {
        result(r, i++, 0, 0, m, RES_MATCH, RES_SRC_EMULATED);
        result(r, i++, 0, 1, m, RES_MATCH, RES_SRC_SHARED);
        result(r, i++, 1, 0, m, RES_MATCH, RES_SRC_EMULATED);
    }
    run_totals *t = &r->totals;
    t->files = 2;
    t->clips = 3;
    t->comparisons = 6;
    t->by_status[RES_MATCH] = 6;
    t->by_source[RES_SRC_EMULATED] = 4;
    t->by_source[RES_SRC_SHARED] = 2;
    t->ticks_ref = t->ticks_orig = 18;
    t->leaf_calls = 50;
    r->seconds = 0.75;
}

void rt_meta(run_meta *m)
{
    memset(m, 0, sizeof *m);
    m->command = "run";
    m->run_id = "20260101-000000-abcd";
    m->started = "2026-01-01T00:00:00Z";
    m->finished = "2026-01-01T00:00:02Z";
    m->exe_path = "/games/FF8_EN.exe";
    m->exe_sha256 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    m->profile = "ff8-en-2000";
    m->profile_source = "(built-in)";
    m->exe_verdict = "unknown_build";
    m->exe_warning = "unknown build <v1.2>: fingerprints hold";
    m->corpus_path = "/data/battle";
    m->corpus_kind = "folder";
    m->corpus_description = "4 files";
    m->synthetic_preset = "small";
    m->synthetic_seed = 7;
    m->modes = (1u << MODE_NORMAL) | (1u << MODE_SLOW);
    m->frame_level = m->leaf_level = 1;
    m->jobs = 2;
    m->leaf_calls = 200;
    m->seed = 1;
    m->keep_matrices = 0;
    m->dedup = 1;
    m->explain = "groups";
    m->coverage = 1;
    m->emulated_calls = 1234;
}

cJSON *rt_report(void)
{
    run_results r;
    run_meta m;
    rt_results(&r);
    rt_meta(&m);
    cJSON *j = report_build(&m, &r);
    run_results_free(&r);
    cr_assert(j != NULL, "report_build failed");
    return j;
}

char *rt_render(int (*fn)(const cJSON *, strbuf *), const cJSON *j, const char *what)
{
    strbuf b;
    sb_init(&b);
    cr_assert(fn(j, &b) == 0, "%s: renderer failed", what);
    char *s = strdup(b.s ? b.s : "");
    cr_assert(s != NULL, "out of memory");
    sb_free(&b);
    return s;
}


char *rt_checker(void)
{
    const char *src = getenv("FF8DIFF_SOURCE_DIR");
    cr_assert(src != NULL, "FF8DIFF_SOURCE_DIR is not set (run through ctest)");
    return ts_path(src, "tests/harness/report_check.py");
}

int rt_run(const char *cmd, char **out)
{
    FILE *p = popen(cmd, "r");
    cr_assert(p != NULL, "cannot run: %s", cmd);
    size_t cap = 4096, n = 0, got;
    char *s = must(malloc(cap));
    while ((got = fread(s + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n - 1 == 0) s = must(realloc(s, cap *= 2));
    }
    s[n] = '\0';
    int st = pclose(p);
    if (out)
        *out = s;
    else
        free(s);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

cJSON *rt_check(const char *args, int *status)
{
    char *checker = rt_checker(), *text = NULL;
    size_t n = strlen(checker) + strlen(args) + strlen(ts_python()) + 16;
    char *cmd = must(malloc(n));
    snprintf(cmd, n, "%s %s %s", ts_python(), checker, args);
    *status = rt_run(cmd, &text);
    cJSON *j = cJSON_Parse(text);
    cr_assert(j != NULL, "no JSON from `%s` (exit %d): %s", cmd, *status, text);
    free(text);
    free(cmd);
    free(checker);
    return j;
}

int rt_validate(const char *dir, const cJSON *j, cJSON **verdict)
{
    char *json = cJSON_Print(j), *path = ts_path(dir, "report.json"), args[4200];
    const char *src = getenv("FF8DIFF_SOURCE_DIR");
    cr_assert(src != NULL, "FF8DIFF_SOURCE_DIR is not set");
    ts_write(path, json, strlen(json));
    snprintf(args, sizeof args, "validate %s/reports/schema/report.schema.json %s", src, path);
    int st;
    *verdict = rt_check(args, &st);
    free(json);
    free(path);
    return st;
}
