/*
 * emu/engine/unicorn/uc_ops.c: the Unicorn engine's emu_ops table
 * (emu/engine/emu_impl.h): every capability, the entries adapting the
 * dispatcher's handle to the engine's state, what the engine says about
 * itself (version, store-path probe, a warning when stores are slow) and the
 * address-space room its engines need. Nothing here prints or exits.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "emu/engine/unicorn/uc_info.h"
#include "emu/engine/unicorn/uc_internal.h"

/* Per engine: Unicorn's code buffer (1 GiB in 2.0.1) and room for its other allocations. */
#define UC_ENGINE_RESERVE (((size_t)1 << 30) + ((size_t)128 << 20))
#define UC_MAX_ENGINES 256

static int uc_room(unsigned engines, ff_error *err)
{
    if (engines > UC_MAX_ENGINES) engines = UC_MAX_ENGINES;
    void *held[UC_MAX_ENGINES];
    unsigned got = 0;
    for (; got < engines; got++) {
        /* PROT_NONE and unreserved: counted by an address-space limit, costs no memory. */
        held[got] = mmap(NULL, UC_ENGINE_RESERVE, PROT_NONE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (held[got] == MAP_FAILED) break;
    }
    for (unsigned i = 0; i < got; i++)
        munmap(held[i], UC_ENGINE_RESERVE);
    if (got == engines) return 0;
    return ff_error_set(err, FF_E_NOMEM, NULL, -1,
                        "no address space for %u emulator engine%s (Unicorn reserves about "
                        "1.1 GiB each; room for %u): raise the limit (ulimit -v) or use fewer "
                        "--jobs",
                        engines, engines == 1 ? "" : "s", got);
}

static void fact_text(emu_engine_info *out, const char *name, const char *text)
{
    if (out->nfacts == EMU_ENGINE_FACTS) return;
    emu_engine_fact *f = &out->facts[out->nfacts++];
    snprintf(f->name, sizeof f->name, "%s", name);
    snprintf(f->text, sizeof f->text, "%s", text);
}

static void fact_number(emu_engine_info *out, const char *name, double v)
{
    if (out->nfacts == EMU_ENGINE_FACTS) return;
    emu_engine_fact *f = &out->facts[out->nfacts++];
    snprintf(f->name, sizeof f->name, "%s", name);
    f->number = v;
    f->is_number = 1;
}

static int uc_info(emu_engine_info *out, int probe, ff_error *err)
{
    emu_unicorn_info u;
    /* Unicorn ends the process when it cannot reserve an engine's code buffer:
     * without room for one, no probe (a run then says why it cannot start). */
    ff_error room_err;
    int room = uc_room(1, &room_err) == 0;
    int rc = emu_unicorn_info_get(&u, probe && room, err);
    snprintf(out->version, sizeof out->version, "%s", u.version);
    out->reserve = UC_ENGINE_RESERVE;
    fact_text(out, "store_path", emu_store_path_name(u.store));
    fact_number(out, "store_ns", u.store_ns);
    fact_number(out, "load_ns", u.load_ns);
    fact_number(out, "code_buffer_bytes", (double)((size_t)1 << 30));
    snprintf(out->summary, sizeof out->summary, "%s stores", emu_store_path_name(u.store));
    int slow =
        u.store == EMU_STORE_SLOW || (u.store == EMU_STORE_UNKNOWN && emu_unicorn_version_slow(&u));
    if (slow)
        snprintf(out->warning, sizeof out->warning,
                 "Unicorn %s takes the slow path on every emulated store (%.0f ns a store "
                 "against %.1f ns a load): runs take several times longer than on Unicorn "
                 "2.1.1 (about 10 times on 2.0.1), which scripts/setup.sh puts into "
                 ".deps/unicorn for a build without -DFF_SYSTEM_UNICORN=ON",
                 u.version, u.store_ns, u.load_ns);
    return rc;
}

static int uc_open_op(const emu_config *cfg, emu **out, ff_error *err)
{
    emu_uc *e = NULL;
    int rc = emu_uc_open(cfg, &e, err);
    *out = e ? &e->base : NULL;
    return rc;
}

static void uc_close_op(emu *e)
{
    emu_uc_close(emu_uc_of(e));
}

static int uc_call_op(emu *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
                      emu_fault *fault, const emu_rewind *rw)
{
    return emu_uc_call_rewind(emu_uc_of(e), addr, args, nargs, eax, fault, rw);
}

static int uc_x87_st0_op(emu *e, double *value, uint8_t *raw)
{
    return emu_uc_x87_st0(emu_uc_of(e), value, raw);
}

static int uc_map_area_op(emu *e, uint32_t addr, uint32_t size, int prot, uint32_t guard,
                          uint8_t **host, ff_error *err)
{
    return emu_uc_map_area(emu_uc_of(e), addr, size, prot, guard, host, err);
}

static int uc_unmap_area_op(emu *e, uint32_t addr, ff_error *err)
{
    return emu_uc_unmap_area(emu_uc_of(e), addr, err);
}

static uint8_t *uc_host_op(emu *e, uint32_t addr, uint32_t len)
{
    return emu_uc_host(emu_uc_of(e), addr, len);
}

static int uc_patch_op(emu *e, uint32_t addr, const uint8_t *bytes, uint32_t len, ff_error *err)
{
    return emu_uc_patch(emu_uc_of(e), addr, bytes, len, err);
}

static int uc_unpatch_op(emu *e, uint32_t addr, ff_error *err)
{
    return emu_uc_unpatch(emu_uc_of(e), addr, err);
}

static uint32_t uc_stack_hot_op(const emu *e)
{
    return emu_uc_stack_hot(emu_uc_of_c(e));
}

static uint32_t uc_scratch_hot_op(const emu *e)
{
    return emu_uc_scratch_hot(emu_uc_of_c(e));
}

static uint64_t uc_last_insns_op(const emu *e)
{
    return emu_uc_last_insns(emu_uc_of_c(e));
}

static void uc_set_budget_op(emu *e, uint64_t budget)
{
    emu_uc_set_budget(emu_uc_of(e), budget);
}

static int uc_stub_return_op(emu *e, uint32_t addr, ff_error *err)
{
    return emu_uc_stub_return(emu_uc_of(e), addr, err);
}

static void uc_stub_set_op(emu *e, int on)
{
    emu_uc_stub_set(emu_uc_of(e), on);
}

static int uc_watch_writes_op(emu *e, uint32_t addr, uint32_t len, ff_error *err)
{
    return emu_uc_watch_writes(emu_uc_of(e), addr, len, err);
}

static void uc_watch_reset_op(emu *e)
{
    emu_uc_watch_reset(emu_uc_of(e));
}

static void uc_watch_result_op(emu *e, emu_writer *w)
{
    emu_uc_watch_result(emu_uc_of(e), w);
}

static int uc_unwatch_op(emu *e, ff_error *err)
{
    return emu_uc_unwatch(emu_uc_of(e), err);
}

static int uc_cover_start_op(emu *e, const struct emu_blockmap *m, uint8_t *hits, ff_error *err)
{
    return emu_uc_cover_start(emu_uc_of(e), m, hits, err);
}

static void uc_cover_stop_op(emu *e)
{
    emu_uc_cover_stop(emu_uc_of(e));
}

static int uc_calls_start_op(emu *e, const uint32_t *entries, unsigned n, const uint32_t *rets,
                             unsigned nrets, ff_error *err)
{
    return emu_uc_calls_start(emu_uc_of(e), entries, n, rets, nrets, err);
}

static int uc_calls_armed_op(const emu *e)
{
    return emu_uc_calls_armed(emu_uc_of_c(e));
}

static void uc_calls_record_op(emu *e, emu_callrec *recs, size_t cap)
{
    emu_uc_calls_record(emu_uc_of(e), recs, cap);
}

static size_t uc_calls_taken_op(const emu *e, size_t *total)
{
    return emu_uc_calls_taken(emu_uc_of_c(e), total);
}

static void uc_calls_stop_op(emu *e)
{
    emu_uc_calls_stop(emu_uc_of(e));
}

const emu_ops emu_unicorn_ops = {
    .kind = EMU_ENGINE_UNICORN,
    .caps = EMU_CAP_BIT(EMU_CAP_BUDGET) | EMU_CAP_BIT(EMU_CAP_STUB) | EMU_CAP_BIT(EMU_CAP_WATCH) |
            EMU_CAP_BIT(EMU_CAP_READ_LOG) | EMU_CAP_BIT(EMU_CAP_COVERAGE) |
            EMU_CAP_BIT(EMU_CAP_EXACT_FAULT),
    .info = uc_info,
    .room = uc_room,
    .open = uc_open_op,
    .close = uc_close_op,
    .call = uc_call_op,
    .x87_st0 = uc_x87_st0_op,
    .map_area = uc_map_area_op,
    .unmap_area = uc_unmap_area_op,
    .host = uc_host_op,
    .patch = uc_patch_op,
    .unpatch = uc_unpatch_op,
    .stack_hot = uc_stack_hot_op,
    .scratch_hot = uc_scratch_hot_op,
    .last_insns = uc_last_insns_op,
    .set_budget = uc_set_budget_op,
    .stub_return = uc_stub_return_op,
    .stub_set = uc_stub_set_op,
    .watch_writes = uc_watch_writes_op,
    .watch_reset = uc_watch_reset_op,
    .watch_result = uc_watch_result_op,
    .unwatch = uc_unwatch_op,
    .cover_start = uc_cover_start_op,
    .cover_stop = uc_cover_stop_op,
    .calls_start = uc_calls_start_op,
    .calls_armed = uc_calls_armed_op,
    .calls_record = uc_calls_record_op,
    .calls_taken = uc_calls_taken_op,
    .calls_stop = uc_calls_stop_op,
};
