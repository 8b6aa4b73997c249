/*
 * tests/hostile/test_hostile_engines.c: `ff8diff run` on each hostile
 * stand-in build (emu/standin/README.md: standin_hostile_<what>.exe, one
 * hostile act in Battle_ReadAnimation on clip 1), under Unicorn and natively.
 * Each run must complete with exit status 1 (faults), never killed; every
 * clip 1 must be a fault of the expected kind, place and address, and every
 * other clip must match:
 *   loop        budget, EIP inside Battle_ReadAnimation
 *   int80       syscall at the `int 0x80` instruction
 *   sysenter    syscall at the `sysenter` instruction (natively on an AMD CPU
 *   syscall     and `syscall`: natively the kernel's fast entry may keep no
 *               return address, and then the EIP is 0 and the detail says so)
 *   null_write  write_unmapped at address 0
 *   wild_jump   fetch_unmapped at 0x10, EIP 0x10
 *   self_write  write_prot at 0x508F90 (Battle_ReadAnimation's first byte)
 *   escape_write, escape_ud2, escape_loop (a far jump to 64-bit code, 0x33, then a
 *               forged line written to stderr and exit_group, `ud2`, or a loop) and
 *               escape_retf (a far return there): segment, inside Battle_ReadAnimation
 *               (Unicorn at the far transfer; natively where 64-bit code was stopped),
 *               nothing of the guest's on the terminal
 *   null_ds     segment (natively at the load through DS 0, under Unicorn at the return)
 *   hlt         invalid_insn at the `hlt`
 *   icebp, int2e  interrupt at the `icebp` or `int 0x2e`
 *   pad_jump    emu at 0x7FF00000, the return page's base (a jump into the native
 *               engine's pad there: nothing of it shown)
 *   pad_mid     the same, from a jump into the pad's middle (natively its bytes read
 *               as 32-bit code, the same in every process)
 *   sysenter_ebp  as sysenter, with EBP on the stack (natively the filter refuses it)
 * No fault record holds a host address (a hex number of more than 8 digits).
 *   align_check, far_same  (EFLAGS.AC left set, a far jump to the guest's own 0x23):
 *               no fault, every clip matches (exit 0)
 * Each with --jobs 1 and 2.
 * A syscall fault's detail gives the system call number (EAX, 20 in these builds),
 * except natively where the kernel refused the call before reading it (`sysenter`
 * with EBP 0 on an Intel CPU), which the detail says.
 * The native tests skip, saying why, where the native engine cannot run
 * (under AddressSanitizer, without IA32 emulation, ...).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth.h"
#include "emu/engine/emu.h"
#include "tests/hostile/hs.h"

/* Battle_ReadAnimation's slot (docs/engine.md section 2: 0x508F90, the next routine at 0x5092A0). */
#define READ_ANIMATION_FIRST 0x508F90u
#define READ_ANIMATION_LAST 0x50929Fu
#define HOSTILE_CLIP 1u

typedef struct expect {
    const char *build; /* standin_hostile_<build>.exe */
    const char *kind;
    const char *insn;  /* the instruction the detail names, or NULL */
    int check_addr;
    unsigned addr;
    int exact_eip;     /* 1: EIP must be this (eip), 0: inside Battle_ReadAnimation,
                          2: anywhere (an engine may notice it only at the return) */
    unsigned eip;
} expect;

static const expect expects[] = {
    {"loop", "budget", NULL, 0, 0, 0, 0},
    {"int80", "syscall", "`int 0x80`", 0, 0, 0, 0},
    {"sysenter", "syscall", "`sysenter`", 0, 0, 0, 0},
    {"sysenter_ebp", "syscall", "`sysenter`", 0, 0, 0, 0},
    {"syscall", "syscall", "`syscall`", 0, 0, 0, 0},
    {"null_write", "write_unmapped", NULL, 1, 0, 0, 0},
    {"wild_jump", "fetch_unmapped", NULL, 1, 0x10, 1, 0x10},
    {"self_write", "write_prot", NULL, 1, READ_ANIMATION_FIRST, 0, 0},
    {"escape_write", "segment", NULL, 0, 0, 0, 0},
    {"escape_ud2", "segment", NULL, 0, 0, 0, 0},
    {"escape_retf", "segment", NULL, 0, 0, 0, 0},
    {"escape_loop", "segment", NULL, 0, 0, 0, 0},
    {"null_ds", "segment", NULL, 0, 0, 2, 0},
    {"hlt", "invalid_insn", "`hlt`", 0, 0, 0, 0},
    {"icebp", "interrupt", NULL, 0, 0, 0, 0},
    {"int2e", "interrupt", "`int 0x2e`", 0, 0, 0, 0},
    {"pad_jump", "emu", NULL, 0, 0, 1, 0x7FF00000u},
    {"pad_mid", "emu", NULL, 0, 0, 1, 0x7FF00000u},
    {"align_check", NULL, NULL, 0, 0, 0, 0},
    {"far_same", NULL, NULL, 0, 0, 0, 0},
};

static const expect *find(const char *build)
{
    for (size_t i = 0; i < sizeof expects / sizeof expects[0]; i++)
        if (strcmp(expects[i].build, build) == 0) return &expects[i];
    cr_assert_fail("no expectation for %s", build);
    return NULL;
}

static unsigned hex(const char *s)
{
    return (unsigned)strtoul(s, NULL, 16);
}

/* Skips the test, with the reason, where the native engine cannot run here. */
static void native_or_skip(void)
{
    emu_engine_info info;
    ff_error err;
    if (emu_engine_info_get(emu_engine_ops(EMU_ENGINE_NATIVE), &info, 1, &err) != 0)
        cr_skip_test("the native engine cannot run here: %s", err.reason);
}

/* The marked disassembly line: at EIP and naming insn when given. */
static void check_disassembly(const cJSON *f, const char *what, unsigned eip, const char *insn)
{
    const cJSON *dis = cJSON_GetObjectItemCaseSensitive(f, "disassembly"), *line;
    cr_assert(cJSON_IsArray(dis), "%s: no disassembly", what);
    int marked = 0;
    cJSON_ArrayForEach(line, dis)
    {
        cr_assert(cJSON_IsString(line), "%s: disassembly line is not a string", what);
        if (line->valuestring[0] != '>') continue;
        marked++;
        cr_expect_eq(hex(line->valuestring + 1), eip, "%s: marked line '%s' is not at EIP 0x%x",
                     what, line->valuestring, eip);
        if (insn) {
            char bare[32];
            snprintf(bare, sizeof bare, "%.*s", (int)strlen(insn) - 2, insn + 1);
            cr_expect(strstr(line->valuestring, bare) != NULL, "%s: marked line '%s' is not %s",
                      what, line->valuestring, insn);
        }
    }
    cr_expect_eq(marked, 1, "%s: %d marked disassembly lines, expected 1", what, marked);
}

/* Asserts f's text holds no hex number of more than 8 digits: no host address. */
static void no_host_address(const cJSON *f, const char *what)
{
    char *text = cJSON_PrintUnformatted(f);
    cr_assert(text);
    for (const char *p = text; (p = strstr(p, "0x")) != NULL; p += 2) {
        size_t n = strspn(p + 2, "0123456789abcdefABCDEF");
        cr_expect_leq(n, 8, "%s: a host address in the fault record: %.40s", what, p);
    }
    free(text);
}

static void check_fault(const cJSON *r, const char *what, const expect *x, int native)
{
    cr_expect_str_eq(hs_str(r, "status"), "fault", "%s", what);
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(r, "fault");
    cr_assert(cJSON_IsObject(f), "%s: no fault record", what);
    const char *detail = hs_str(f, "detail");
    no_host_address(f, what);
    cr_expect_str_eq(hs_str(f, "kind"), x->kind, "%s: fault kind (%s)", what, detail);
    unsigned eip = hex(hs_str(f, "eip"));
    /* The number, unless natively the kernel refused the call before reading it. */
    if (strcmp(x->kind, "syscall") == 0 &&
        !(native && eip == 0 && strstr(detail, "its number never read") != NULL))
        cr_expect(strstr(detail, "system call 20 ") != NULL,
                  "%s: detail '%s' does not give the number in EAX (20)", what, detail);
    if (x->check_addr)
        cr_expect_eq(hex(hs_str(f, "address")), x->addr, "%s: address %s, expected 0x%x (%s)",
                     what, hs_str(f, "address"), x->addr, detail);
    if (native && strcmp(x->kind, "syscall") == 0 && eip == 0) {
        /* sysenter/syscall through the kernel's fast entry: no return address kept. */
        cr_expect(strcmp(x->build, "int80") != 0, "%s: `int 0x80` keeps its EIP (%s)", what,
                  detail);
        cr_expect(strstr(detail, "where is not known") != NULL, "%s: detail '%s'", what, detail);
        return;
    }
    if (x->exact_eip == 2) return;
    if (x->exact_eip)
        cr_expect_eq(eip, x->eip, "%s: EIP 0x%x, expected 0x%x", what, eip, x->eip);
    else
        cr_expect(eip >= READ_ANIMATION_FIRST && eip <= READ_ANIMATION_LAST,
                  "%s: EIP 0x%x outside Battle_ReadAnimation (%s)", what, eip, detail);
    if (x->insn)
        cr_expect(strstr(detail, x->insn) != NULL, "%s: detail '%s' does not name %s", what,
                  detail, x->insn);
    check_disassembly(f, what, eip, x->insn);
}

static void run_hostile(const char *build, const char *engine, const char *jobs)
{
    const expect *x = find(build);
    int native = strcmp(engine, "native") == 0;
    if (native) native_or_skip();
    char name[64];
    snprintf(name, sizeof name, "standin_hostile_%s.exe", build);
    char *tmp = ts_tempdir(), *corpus = ts_path(tmp, "corpus"), *out = ts_path(tmp, "reports"),
         *cache = ts_path(tmp, "cache"), *exe = hs_standin(name);
    ff_error e;
    cr_assert(synth_write(corpus, SYNTH_SMALL, 3, NULL, &e) == 0, "synth_write: %s", e.reason);
    synth_plan *sp;
    cr_assert(synth_plan_make(SYNTH_SMALL, 3, &sp, &e) == 0);

    /* A budget of 2M instructions: the loop's clips end sooner under Unicorn. */
    const char *argv[] = {hs_cli(), "run",        "--corpus",     corpus,   "--exe",
                          exe,      "--profile",  "standin",      "--out",  out,
                          "--engine", engine,     "--no-cache",   "--jobs", jobs,
                          "--no-coverage", "--explain", "none",   "--budget", "2000000",
                          "-q",     NULL};
    int status = hs_run(argv, cache, tmp);
    cr_assert_lt(status, 128, "%s on %s: killed by signal %d", name, engine, status - 128);
    cr_assert_eq(status, x->kind ? 1 : 0, "%s on %s: exit status %d, expected %d", name, engine,
                 status, x->kind ? 1 : 0);
    /* Nothing the guest wrote reaches the terminal. */
    for (int k = 0; k < 2; k++) {
        char *log = hs_log(tmp, k ? "stderr" : "stdout");
        cr_expect(!strstr(log, "FORGED"), "%s on %s: the guest wrote to the %s: %s", name, engine,
                  k ? "stderr" : "stdout", log);
        free(log);
    }
    cJSON *report = hs_report(out);
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
    const cJSON *tool = cJSON_GetObjectItemCaseSensitive(run, "tool");
    cr_expect_str_eq(hs_str(cJSON_GetObjectItemCaseSensitive(tool, "engine"), "kind"), engine,
                     "the engine the report names");
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(run, "interrupted")),
              "run marked interrupted");

    uint64_t clips = 0, faults = 0;
    for (size_t i = 0; i < synth_plan_count(sp); i++) {
        uint8_t *data;
        size_t size;
        cr_assert(synth_plan_build(sp, i, &data, &size, NULL, &e) == 0);
        unsigned n = hs_clips(data, size);
        free(data);
        const char *file = synth_plan_name(sp, i);
        clips += n;
        for (int k = 0; k < 4; k++)
            for (unsigned c = 0; c < n; c++) {
                char what[128];
                snprintf(what, sizeof what, "%s on %s: %s clip %u %s", build, engine, file, c,
                         hs_modes[k]);
                const cJSON *r = hs_result(report, file, (int)c, hs_modes[k]);
                cr_assert(r, "%s: no result", what);
                if (c == HOSTILE_CLIP && x->kind) {
                    check_fault(r, what, x, native);
                    faults++;
                } else {
                    cr_expect_str_eq(hs_str(r, "status"), "match", "%s", what);
                }
            }
    }
    cr_assert(faults > 0 || !x->kind, "the corpus has no clip %u", HOSTILE_CLIP);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(report, "totals");
    cr_expect_eq(hs_num(t, "comparisons"), 4.0 * (double)clips, "every clip compared");
    cr_expect_eq(hs_num(t, "fault"), (double)faults, "totals.fault");
    cr_expect_eq(hs_num(t, "match"), 4.0 * (double)clips - (double)faults, "totals.match");
    cr_expect_eq(hs_num(t, "not_run"), 0, "totals.not_run");

    cJSON_Delete(report);
    synth_plan_free(sp);
    free(exe);
    free(cache);
    free(out);
    free(corpus);
    ts_rmtree(tmp);
}

#define HOSTILE_TESTS(build)                                                                       \
    Test(hostile_engines, build##_unicorn) { run_hostile(#build, "unicorn", "1"); }               \
    Test(hostile_engines, build##_unicorn_jobs2) { run_hostile(#build, "unicorn", "2"); }         \
    Test(hostile_engines, build##_native) { run_hostile(#build, "native", "1"); }                 \
    Test(hostile_engines, build##_native_jobs2) { run_hostile(#build, "native", "2"); }

HOSTILE_TESTS(loop)
HOSTILE_TESTS(int80)
HOSTILE_TESTS(sysenter)
HOSTILE_TESTS(syscall)
HOSTILE_TESTS(null_write)
HOSTILE_TESTS(wild_jump)
HOSTILE_TESTS(self_write)
HOSTILE_TESTS(escape_write)
HOSTILE_TESTS(escape_ud2)
HOSTILE_TESTS(escape_retf)
HOSTILE_TESTS(escape_loop)
HOSTILE_TESTS(null_ds)
HOSTILE_TESTS(hlt)
HOSTILE_TESTS(icebp)
HOSTILE_TESTS(int2e)
HOSTILE_TESTS(pad_jump)
HOSTILE_TESTS(pad_mid)
HOSTILE_TESTS(sysenter_ebp)
HOSTILE_TESTS(align_check)
HOSTILE_TESTS(far_same)
