/*
 * tests/hostile/test_hostile_equivalence.c: every stand-in build gives the
 * same results natively as under Unicorn. For each build in the stand-in's
 * folder (the engine, mutants a..n and ab, the pose mutants, the faulty and
 * hostile builds, the x87, width and older-reading builds, the other call
 * structure, the relinked builds through a located profile), `ff8diff run`
 * over the small synthetic corpus at the frame, pose and entity levels (the
 * frame level only for the two builds that loop forever),
 * once with --engine unicorn and once with --engine native, must give the
 * same exit status, verdict, totals, searched pose convention (its timings
 * aside), and per clip and entity the same outcome, divergence and fault
 * record (kind, EIP, address, routine). Two places are not compared, as the
 * native engine documents them as not exact: a budget fault's EIP (a CPU-time
 * timer stops the call), the EIP of a `syscall`/`sysenter` through the
 * kernel's fast entry, which natively is 0 (not known), and the EIP of a
 * segment fault one engine found only after the fact (natively where code
 * that jumped far to 64-bit code was stopped, or the first access through a
 * data segment the routine changed; under Unicorn the return with it
 * changed).
 * A build in the folder that the list below does not name fails the test
 * `every_build_listed`, so a new variant cannot go unchecked. Skipped, with
 * the reason, where the native engine cannot run (AddressSanitizer, ...).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/engine/emu.h"
#include "tests/hostile/hs.h"

/* Every build but the refused one; relinked ones name the build their patterns come from. */
typedef struct eq_build {
    const char *exe;
    const char *locate; /* NULL: profile standin; "": located; else located --from this */
    int frame_only;     /* 1: the frame level only (see below) */
} eq_build;

static const eq_build builds[] = {
    {"standin.exe", NULL, 0},
    {"standin_mut_a.exe", NULL, 0},
    {"standin_mut_b.exe", NULL, 0},
    {"standin_mut_c.exe", NULL, 0},
    {"standin_mut_d.exe", NULL, 0},
    {"standin_mut_e.exe", NULL, 0},
    {"standin_mut_f.exe", NULL, 0},
    {"standin_mut_g.exe", NULL, 0},
    {"standin_mut_h.exe", NULL, 0},
    {"standin_mut_i.exe", NULL, 0},
    {"standin_mut_j.exe", NULL, 0},
    {"standin_mut_k.exe", NULL, 0},
    {"standin_mut_l.exe", NULL, 0},
    {"standin_mut_m.exe", NULL, 0},
    {"standin_mut_n.exe", NULL, 0},
    {"standin_mut_ab.exe", NULL, 0},
    {"standin_mut_pose_order.exe", NULL, 0},
    {"standin_mut_pose_floor.exe", NULL, 0},
    {"standin_mut_pose_saturate.exe", NULL, 0},
    {"standin_mut_pose_base.exe", NULL, 0},
    {"standin_mut_pose_ret.exe", NULL, 0},
    /* Battle_ReadAnimation loops on clip 1: each such call costs a whole budget, at
     * every level; the change is in that routine only, which the frame level runs. */
    {"standin_faulty.exe", NULL, 1},
    {"standin_hostile_loop.exe", NULL, 1},
    {"standin_hostile_int80.exe", NULL, 0},
    {"standin_hostile_sysenter.exe", NULL, 0},
    {"standin_hostile_syscall.exe", NULL, 0},
    {"standin_hostile_null_write.exe", NULL, 0},
    {"standin_hostile_wild_jump.exe", NULL, 0},
    {"standin_hostile_self_write.exe", NULL, 0},
    {"standin_hostile_escape_write.exe", NULL, 0},
    {"standin_hostile_escape_ud2.exe", NULL, 0},
    {"standin_hostile_escape_retf.exe", NULL, 0},
    {"standin_hostile_escape_loop.exe", NULL, 1},
    {"standin_hostile_align_check.exe", NULL, 0},
    {"standin_hostile_far_same.exe", NULL, 0},
    {"standin_hostile_null_ds.exe", NULL, 0},
    {"standin_hostile_hlt.exe", NULL, 0},
    {"standin_hostile_icebp.exe", NULL, 0},
    {"standin_hostile_int2e.exe", NULL, 0},
    {"standin_hostile_pad_jump.exe", NULL, 0},
    {"standin_hostile_pad_mid.exe", NULL, 0},
    {"standin_hostile_sysenter_ebp.exe", NULL, 0},
    {"standin_x87.exe", NULL, 0},
    {"standin_width64.exe", NULL, 0},
    {"standin_x87_width64.exe", NULL, 0},
    {"standin_width_mixed.exe", NULL, 0},
    {"standin_root_none.exe", NULL, 0},
    {"standin_scale_pre.exe", NULL, 0},
    {"standin_scale_post.exe", NULL, 0},
    {"standin_x87_root_none.exe", NULL, 0},
    {"standin_x87_scale_pre.exe", NULL, 0},
    {"standin_x87_scale_post.exe", NULL, 0},
    {"standin_calls.exe", NULL, 0},
    {"standin_relinked.exe", "", 0},
    {"standin_calls_relinked.exe", "standin_calls.exe", 0},
};
#define NBUILDS (sizeof builds / sizeof builds[0])

/* In the folder, not run: the locator refuses it (no BuildBoneMatrices to find). */
static const char *const not_runnable[] = {"standin_nobbm.exe"};

static void native_or_skip(void)
{
    emu_engine_info info;
    ff_error err;
    if (emu_engine_info_get(emu_engine_ops(EMU_ENGINE_NATIVE), &info, 1, &err) != 0)
        cr_skip_test("the native engine cannot run here: %s", err.reason);
}

/* Removes every "seconds" member under o (timings differ from run to run). */
static void strip_seconds(cJSON *o)
{
    cJSON_DeleteItemFromObjectCaseSensitive(o, "seconds");
    cJSON *c;
    cJSON_ArrayForEach(c, o)
    {
        if (cJSON_IsObject(c) || cJSON_IsArray(c)) strip_seconds(c);
    }
}

/* A copy of a result whose fault keeps kind, EIP, address and routine only. */
static cJSON *slim(const cJSON *r, int keep_eip)
{
    cJSON *s = cJSON_Duplicate(r, 1);
    cr_assert(s, "out of memory");
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(r, "fault");
    if (cJSON_IsObject(f)) {
        cJSON *g = cJSON_CreateObject();
        static const char *const keep[] = {"kind", "eip", "address", "routine"};
        for (size_t i = 0; i < 4; i++) {
            if (i == 1 && !keep_eip) continue;
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, keep[i]);
            if (v) cJSON_AddItemToObject(g, keep[i], cJSON_Duplicate(v, 1));
        }
        cJSON_ReplaceItemInObjectCaseSensitive(s, "fault", g);
    }
    return s;
}

/* 1 when the EIPs of this pair of results are compared (see the header comment). */
static int eip_comparable(const cJSON *u, const cJSON *n)
{
    const cJSON *fu = cJSON_GetObjectItemCaseSensitive(u, "fault"),
                *fn = cJSON_GetObjectItemCaseSensitive(n, "fault");
    if (!cJSON_IsObject(fu) || !cJSON_IsObject(fn)) return 1;
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(fn, "kind"),
                *eip = cJSON_GetObjectItemCaseSensitive(fn, "eip");
    if (!cJSON_IsString(kind) || !cJSON_IsString(eip)) return 1;
    if (strcmp(kind->valuestring, "budget") == 0) return 0;
    if (strcmp(kind->valuestring, "segment") == 0) {
        const char *dn = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(fn, "detail")),
                   *du = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(fu, "detail"));
        static const char *const late[] = {"the original's code left", "the routine returned",
                                           "memory access at"};
        for (size_t i = 0; i < sizeof late / sizeof late[0]; i++)
            if ((dn && strncmp(dn, late[i], strlen(late[i])) == 0) ||
                (du && strncmp(du, late[i], strlen(late[i])) == 0))
                return 0;
    }
    return !(strcmp(kind->valuestring, "syscall") == 0 && strtoul(eip->valuestring, NULL, 16) == 0);
}

static void compare_items(const cJSON *u, const cJSON *n, const char *exe, const char *key)
{
    const cJSON *au = cJSON_GetObjectItemCaseSensitive(u, key),
                *an = cJSON_GetObjectItemCaseSensitive(n, key);
    cr_assert_eq(cJSON_GetArraySize(au), cJSON_GetArraySize(an), "%s: %s: %d under Unicorn, %d natively",
                 exe, key, cJSON_GetArraySize(au), cJSON_GetArraySize(an));
    int differ = 0;
    for (int i = 0; i < cJSON_GetArraySize(au); i++) {
        const cJSON *ru = cJSON_GetArrayItem(au, i), *rn = cJSON_GetArrayItem(an, i);
        int keep = eip_comparable(ru, rn);
        cJSON *su = slim(ru, keep), *sn = slim(rn, keep);
        if (!cJSON_Compare(su, sn, 1) && differ++ < 3) {
            char *tu = cJSON_PrintUnformatted(su), *tn = cJSON_PrintUnformatted(sn);
            cr_expect_fail("%s: %s[%d] differs:\n  unicorn %s\n  native  %s", exe, key, i, tu, tn);
            free(tu);
            free(tn);
        }
        cJSON_Delete(su);
        cJSON_Delete(sn);
    }
    cr_expect_eq(differ, 0, "%s: %d %s differ between the engines", exe, differ, key);
}

static void compare_member(const cJSON *u, const cJSON *n, const char *exe, const char *what,
                           const char *key)
{
    cJSON *cu = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(u, key), 1),
          *cn = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(n, key), 1);
    if (cu) strip_seconds(cu);
    if (cn) strip_seconds(cn);
    if (!cJSON_Compare(cu, cn, 1)) {
        char *tu = cJSON_PrintUnformatted(cu), *tn = cJSON_PrintUnformatted(cn);
        cr_expect_fail("%s: %s differs:\n  unicorn %s\n  native  %s", exe, what, tu, tn);
        free(tu);
        free(tn);
    }
    cJSON_Delete(cu);
    cJSON_Delete(cn);
}

/* Runs exe on one engine into tmp/<engine>; returns the report, *status the exit status. */
static cJSON *run_on(const char *tmp, const char *exe, const char *profile, const char *engine,
                     const char *levels, int *status)
{
    char *out = ts_path(tmp, engine), *cache = ts_path(tmp, "cache");
    /* A budget of 2M instructions (every routine needs far fewer): loops end sooner. */
    const char *argv[] = {hs_cli(), "run", "--exe", exe, "--profile", profile, "--out", out,
                          "--engine", engine, "--levels", levels, "--no-cache",
                          "--jobs", "1", "--no-coverage", "--explain", "none", "--budget",
                          "2000000", "-q", NULL};
    *status = hs_run(argv, cache, tmp);
    cr_assert_lt(*status, 128, "%s on %s: killed by signal %d", exe, engine, *status - 128);
    cr_assert_leq(*status, 1, "%s on %s: exit status %d", exe, engine, *status);
    cJSON *report = hs_report(out);
    free(out);
    free(cache);
    return report;
}

static void equivalent(size_t k)
{
    native_or_skip();
    const eq_build *b = &builds[k];
    char *tmp = ts_tempdir(), *exe = hs_standin(b->exe), *profile = NULL;
    if (b->locate) {
        profile = ts_path(tmp, "located.json");
        char *from = b->locate[0] ? hs_standin(b->locate) : NULL, *cache = ts_path(tmp, "cache");
        const char *argv[] = {hs_cli(), "identify", exe, "--locate", "--profile", "standin",
                              "--write-profile", profile, from ? "--from" : NULL, from, NULL};
        int st = hs_run(argv, cache, tmp);
        cr_assert_eq(st, 0, "%s: locating its routines: exit status %d", b->exe, st);
        free(from);
        free(cache);
    }
    int su, sn;
    const char *levels = b->frame_only ? "frame" : "frame,pose,entity";
    cJSON *u = run_on(tmp, exe, profile ? profile : "standin", "unicorn", levels, &su);
    cJSON *n = run_on(tmp, exe, profile ? profile : "standin", "native", levels, &sn);
    cr_expect_eq(su, sn, "%s: exit status %d under Unicorn, %d natively", b->exe, su, sn);
    compare_member(u, n, b->exe, "verdict", "verdict");
    compare_member(u, n, b->exe, "totals", "totals");
    compare_member(cJSON_GetObjectItemCaseSensitive(u, "run"),
                   cJSON_GetObjectItemCaseSensitive(n, "run"), b->exe, "run.pose", "pose");
    compare_items(u, n, b->exe, "results");
    compare_items(u, n, b->exe, "entity_results");
    cJSON_Delete(u);
    cJSON_Delete(n);
    free(profile);
    free(exe);
    ts_rmtree(tmp);
}

/* Every standin*.exe of the folder is run here or named as not runnable. */
Test(equivalence, every_build_listed)
{
    char *any = hs_standin("standin.exe");
    char *slash = strrchr(any, '/');
    cr_assert(slash);
    *slash = '\0';
    DIR *d = opendir(any);
    cr_assert(d, "cannot list %s", any);
    unsigned seen = 0;
    for (struct dirent *de; (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (strncmp(de->d_name, "standin", 7) != 0 || len < 4 ||
            strcmp(de->d_name + len - 4, ".exe") != 0)
            continue;
        int listed = 0;
        for (size_t i = 0; i < NBUILDS; i++)
            listed |= strcmp(builds[i].exe, de->d_name) == 0;
        for (size_t i = 0; i < sizeof not_runnable / sizeof not_runnable[0]; i++)
            listed |= strcmp(not_runnable[i], de->d_name) == 0;
        cr_expect(listed, "%s is in %s but not checked by this suite", de->d_name, any);
        seen++;
    }
    closedir(d);
    cr_expect_geq(seen, NBUILDS, "%u builds in %s, %zu listed", seen, any, NBUILDS);
    free(any);
}

/* One test per build, so Criterion's workers share them out. */
ParameterizedTestParameters(equivalence, each_build)
{
    static size_t index[NBUILDS];
    for (size_t i = 0; i < NBUILDS; i++)
        index[i] = i;
    return cr_make_param_array(size_t, index, NBUILDS);
}

ParameterizedTest(size_t *k, equivalence, each_build)
{
    equivalent(*k);
}
