/*
 * emu/engine/unicorn/uc_info.c: the Unicorn version and the store-path probe
 * (emu/engine/unicorn/uc_info.h). The probe runs on an engine of its own, with no
 * hook, so what it measures is the library, not our hooks. Nothing here
 * prints or exits.
 */
#include "emu/engine/unicorn/uc_info.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unicorn/unicorn.h>

#define PROBE_CODE 0x10000u
#define PROBE_DATA 0x20000u
#define PROBE_LOOPS 500u /* 8 accesses each: 4000 stores, about 0.5 ms on the slow path */
#define PROBE_PER_LOOP 8u
#define PROBE_PASSES 3

/*
 * The probe's loop, at PROBE_CODE:
 *   mov ebx, PROBE_DATA; mov ecx, PROBE_LOOPS
 *   L: 8 x (mov [ebx+d], eax  |  mov eax, [ebx+d]); dec ecx; jnz L
 *   hlt
 * op is 0x89 (store) or 0x8B (load). Returns the length; *hlt the HLT's offset.
 */
static size_t probe_code(uint8_t *c, uint8_t op, size_t *hlt)
{
    size_t n = 0;
    c[n++] = 0xBB;
    memcpy(c + n, &(uint32_t){PROBE_DATA}, 4);
    n += 4;
    c[n++] = 0xB9;
    memcpy(c + n, &(uint32_t){PROBE_LOOPS}, 4);
    n += 4;
    size_t loop = n;
    for (unsigned i = 0; i < PROBE_PER_LOOP; i++) {
        c[n++] = op;
        c[n++] = 0x43; /* [ebx + disp8], eax */
        c[n++] = (uint8_t)(i * 4);
    }
    c[n++] = 0x49; /* dec ecx */
    c[n++] = 0x75; /* jnz loop */
    c[n] = (uint8_t)(int8_t)(loop - (n + 1));
    n++;
    *hlt = n;
    c[n++] = 0xF4;
    return n;
}

static double thread_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Best time of PROBE_PASSES runs of the loop with op, after one untimed run
 * (translation). Returns ns per access, or a negative value on failure. */
static double probe_loop(uc_engine *uc, uint8_t op, uc_err *ue)
{
    uint8_t code[64];
    size_t hlt;
    size_t len = probe_code(code, op, &hlt);
    if ((*ue = uc_mem_write(uc, PROBE_CODE, code, len)) != UC_ERR_OK) return -1;
    if ((*ue = uc_ctl_remove_cache(uc, PROBE_CODE, PROBE_CODE + 0x1000)) != UC_ERR_OK) return -1;
    double best = -1;
    for (int pass = 0; pass <= PROBE_PASSES; pass++) {
        double t0 = thread_ns();
        *ue = uc_emu_start(uc, PROBE_CODE, PROBE_CODE + hlt, 0, 0);
        double dt = thread_ns() - t0;
        if (*ue != UC_ERR_OK) return -1;
        if (pass > 0 && (best < 0 || dt < best)) best = dt;
    }
    return best / (double)(PROBE_LOOPS * PROBE_PER_LOOP);
}

static int probe(emu_unicorn_info *u, ff_error *err)
{
    uc_engine *uc = NULL;
    uc_err ue = uc_open(UC_ARCH_X86, UC_MODE_32, &uc);
    if (ue == UC_ERR_OK) ue = uc_mem_map(uc, PROBE_CODE, 0x1000, UC_PROT_ALL);
    if (ue == UC_ERR_OK) ue = uc_mem_map(uc, PROBE_DATA, 0x1000, UC_PROT_READ | UC_PROT_WRITE);
    double st = -1, ld = -1;
    if (ue == UC_ERR_OK) st = probe_loop(uc, 0x89, &ue);
    if (ue == UC_ERR_OK) ld = probe_loop(uc, 0x8B, &ue);
    if (uc) uc_close(uc);
    if (ue != UC_ERR_OK || st < 0 || ld < 0)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "the store-path probe did not run: %s",
                            uc_strerror(ue));
    u->store_ns = st;
    u->load_ns = ld;
    u->store = emu_store_path_of(st, ld);
    return 0;
}

int emu_unicorn_info_get(emu_unicorn_info *out, int want_probe, ff_error *err)
{
    memset(out, 0, sizeof *out);
    unsigned v = uc_version(NULL, NULL);
    out->major = (v >> 24) & 0xFF;
    out->minor = (v >> 16) & 0xFF;
    out->patch = (v >> 8) & 0xFF;
    snprintf(out->version, sizeof out->version, "%u.%u.%u", out->major, out->minor, out->patch);
    out->store = EMU_STORE_UNKNOWN;
    if (!want_probe) return 0;
    return probe(out, err);
}

emu_store_path emu_store_path_of(double store_ns, double load_ns)
{
    if (!(store_ns > 0.0) || !(load_ns > 0.0)) return EMU_STORE_UNKNOWN;
    return store_ns > 2.0 * load_ns + 5.0 ? EMU_STORE_SLOW : EMU_STORE_FAST;
}

const char *emu_store_path_name(emu_store_path p)
{
    switch (p) {
    case EMU_STORE_FAST:
        return "fast";
    case EMU_STORE_SLOW:
        return "slow";
    case EMU_STORE_UNKNOWN:
        break;
    }
    return "unknown";
}

int emu_unicorn_version_slow(const emu_unicorn_info *u)
{
    if (u->major != 2) return 0;
    if (u->minor == 0) return 1;
    return u->minor == 1 && u->patch >= 2 && u->patch <= 4;
}
