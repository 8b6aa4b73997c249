/*
 * emu/engine/unicorn/uc_info.h: which Unicorn this process runs, and whether its
 * emulated stores take the fast path.
 *
 * Unicorn 2.0.x sends every guest store through a slow path (a page
 * collection locked and freed per store); 2.1.0 and 2.1.1 do not; 2.1.2 to
 * 2.1.4 take it again for a 32-bit x86 guest without paging (every page may
 * execute, and a page that may execute keeps TLB_NOTDIRTY). The version
 * alone cannot tell a build carrying the upstream fix, so the answer comes
 * from a probe: one engine, a loop of stores and the same loop of loads,
 * timed on the thread's CPU clock. A fast store path costs about what a
 * load does; the slow one 4 (2.1.4) to 14 (2.0.1) times more. The probe
 * takes about 1 ms.
 *
 * Nothing here prints or exits; it keeps no state.
 */
#ifndef FF8_EMU_ENGINE_UNICORN_INFO_H
#define FF8_EMU_ENGINE_UNICORN_INFO_H

#include "common/error.h"

typedef enum emu_store_path {
    EMU_STORE_UNKNOWN = 0, /* the probe could not run */
    EMU_STORE_FAST,
    EMU_STORE_SLOW,
} emu_store_path;

typedef struct emu_unicorn_info {
    unsigned major, minor, patch; /* of the library loaded, from uc_version */
    char version[16];             /* "2.1.1" */
    emu_store_path store;
    double store_ns, load_ns; /* per emulated store, per emulated load (best of 3) */
} emu_unicorn_info;

/*
 * The store path a probe's figures say: slow when a store costs more than
 * twice a load and 5 ns. On the fast path a store costs what a load does
 * (2.1.1: 6.0 against 6.5 ns); 2.0.1's slow path costs 82 against 5.9 ns,
 * 2.1.4's 27.8 against 7.2 ns (measured, bench/README.md). A figure that is
 * not positive gives EMU_STORE_UNKNOWN.
 */
emu_store_path emu_store_path_of(double store_ns, double load_ns);

/*
 * Fills *out with the library's version and, unless probe is 0, the store
 * path measured by the probe (else EMU_STORE_UNKNOWN). Returns 0, or -1
 * (FF_E_EMU) when Unicorn refuses to run the probe: *out then holds the
 * version and EMU_STORE_UNKNOWN.
 */
int emu_unicorn_info_get(emu_unicorn_info *out, int probe, ff_error *err);

/* "fast", "slow" or "unknown". */
const char *emu_store_path_name(emu_store_path p);

/*
 * What the version alone suggests: 1 when this version is known to store
 * slowly for our guests (2.0.x, 2.1.2-2.1.4 without the upstream fix), else 0.
 */
int emu_unicorn_version_slow(const emu_unicorn_info *u);

#endif
