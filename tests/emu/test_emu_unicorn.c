/*
 * tests/emu/test_emu_unicorn.c: which Unicorn runs (emu/engine/unicorn/uc_info.h).
 * The version the library reports is the one the build compiled against
 * (the RUNPATH found the right library), and the store-path probe agrees
 * with what is known of that version: 2.0.x slow, 2.1.0 and 2.1.1 fast.
 * Runs on whichever Unicorn the build uses (CI builds both).
 */
#include <criterion/criterion.h>
#include <unicorn/unicorn.h>

#include "emu/engine/unicorn/uc_info.h"

Test(unicorn, version_is_the_one_built_against)
{
    emu_unicorn_info u;
    ff_error err = {0};
    cr_assert_eq(emu_unicorn_info_get(&u, 0, &err), 0);
    cr_expect_eq(u.major, UC_API_MAJOR, "library %s, header %d.%d.%d", u.version, UC_API_MAJOR,
                 UC_API_MINOR, UC_API_PATCH);
    cr_expect_eq(u.minor, UC_API_MINOR, "library %s", u.version);
    cr_expect_eq(u.patch, UC_API_PATCH, "library %s", u.version);
    cr_expect_eq(u.store, EMU_STORE_UNKNOWN, "no probe asked, none run");
}

Test(unicorn, probe_agrees_with_the_version)
{
    emu_unicorn_info u;
    ff_error err = {0};
    cr_assert_eq(emu_unicorn_info_get(&u, 1, &err), 0, "%s", err.reason);
    cr_assert_gt(u.store_ns, 0.0);
    cr_assert_gt(u.load_ns, 0.0);
    if (u.major == 2 && u.minor == 0)
        cr_expect_eq(u.store, EMU_STORE_SLOW, "%s: %.1f ns a store, %.1f a load", u.version,
                     u.store_ns, u.load_ns);
    if (u.major == 2 && u.minor == 1 && u.patch <= 1)
        cr_expect_eq(u.store, EMU_STORE_FAST, "%s: %.1f ns a store, %.1f a load", u.version,
                     u.store_ns, u.load_ns);
    if (u.major == 2 && u.minor == 1 && u.patch >= 2 && u.patch <= 4)
        cr_expect_eq(u.store, EMU_STORE_SLOW, "%s: %.1f ns a store, %.1f a load", u.version,
                     u.store_ns, u.load_ns);
    cr_expect_eq(emu_unicorn_version_slow(&u), u.major == 2 && u.minor == 0 ? 1
                                                : u.minor == 1 && u.patch >= 2 && u.patch <= 4,
                 "%s", u.version);
}

/*
 * The probe's figures as measured on each library (bench/README.md): 2.0.1's
 * slow path, 2.1.4's cheaper one, 2.1.1's fast path, and the noise of a fast
 * path on a loaded machine; a probe that measured nothing is unknown.
 */
Test(unicorn, store_path_from_the_probes_figures)
{
    cr_expect_eq(emu_store_path_of(82.0, 5.9), EMU_STORE_SLOW, "2.0.1");
    cr_expect_eq(emu_store_path_of(27.8, 7.2), EMU_STORE_SLOW, "2.1.4");
    cr_expect_eq(emu_store_path_of(6.0, 6.5), EMU_STORE_FAST, "2.1.1");
    cr_expect_eq(emu_store_path_of(14.0, 6.0), EMU_STORE_FAST, "a fast path, noisy");
    cr_expect_eq(emu_store_path_of(0.0, 6.0), EMU_STORE_UNKNOWN);
    cr_expect_eq(emu_store_path_of(6.0, -1.0), EMU_STORE_UNKNOWN);
}
