/*
 * emu/engine/emu.c: the public emu_* functions (emu/engine/emu.h), each sent to
 * the table of the engine it is given (emu/engine/emu_impl.h), and the kinds of
 * engine built in. A capability the table lacks is refused with the reason
 * or answered neutrally here, so that no engine has to fake a hook. Knows no
 * engine's internals. Nothing here prints or exits.
 */
#include "emu/engine/emu_impl.h"

#include <string.h>

static const char *const kind_names[] = {
#define EMU_ENGINE_NAME(name, json, what, emulated) json,
    EMU_ENGINE_MAP(EMU_ENGINE_NAME)
#undef EMU_ENGINE_NAME
};

static const int kind_emulated[] = {
#define EMU_ENGINE_EMULATED(name, json, what, emulated) emulated,
    EMU_ENGINE_MAP(EMU_ENGINE_EMULATED)
#undef EMU_ENGINE_EMULATED
};

static const char *const cap_names[] = {
#define EMU_CAP_NAME(name, json, what) json,
    EMU_CAP_MAP(EMU_CAP_NAME)
#undef EMU_CAP_NAME
};

static const char *const cap_whats[] = {
#define EMU_CAP_WHAT(name, json, what) what,
    EMU_CAP_MAP(EMU_CAP_WHAT)
#undef EMU_CAP_WHAT
};

const emu_ops *emu_engine_ops(emu_engine_kind kind)
{
    switch (kind) {
    case EMU_ENGINE_UNICORN:
        return &emu_unicorn_ops;
    case EMU_ENGINE_NATIVE:
        return &emu_native_ops;
    case EMU_ENGINE__COUNT:
        break;
    }
    return NULL;
}

const emu_ops *emu_engine_default(void)
{
    return &emu_unicorn_ops;
}

static const emu_ops *ops_or_default(const emu_ops *ops)
{
    return ops ? ops : emu_engine_default();
}

const char *emu_engine_kind_name(emu_engine_kind kind)
{
    return (unsigned)kind < EMU_ENGINE__COUNT ? kind_names[kind] : "?";
}

emu_engine_kind emu_engine_kind_of(const emu_ops *ops)
{
    return ops_or_default(ops)->kind;
}

emu_engine_kind emu_engine_kind_named(const char *name)
{
    for (unsigned k = 0; k < EMU_ENGINE__COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0) return (emu_engine_kind)k;
    return EMU_ENGINE__COUNT;
}

int emu_engine_emulated(const emu_ops *ops)
{
    emu_engine_kind kind = ops_or_default(ops)->kind;
    return (unsigned)kind < EMU_ENGINE__COUNT ? kind_emulated[kind] : 1;
}

const emu_ops *emu_engine_on_cpu(void)
{
    for (unsigned k = 0; k < EMU_ENGINE__COUNT; k++) {
        const emu_ops *ops = emu_engine_ops((emu_engine_kind)k);
        if (ops && !kind_emulated[k]) return ops;
    }
    return NULL;
}

unsigned emu_engine_caps(const emu_ops *ops)
{
    return ops_or_default(ops)->caps;
}

int emu_engine_one_per_process(const emu_ops *ops)
{
    return ops_or_default(ops)->one_per_process;
}

const char *emu_cap_name(emu_cap cap)
{
    return (unsigned)cap < EMU_CAP__COUNT ? cap_names[cap] : "?";
}

const char *emu_cap_what(emu_cap cap)
{
    return (unsigned)cap < EMU_CAP__COUNT ? cap_whats[cap] : "?";
}

int emu_engine_info_get(const emu_ops *ops, emu_engine_info *out, int probe, ff_error *err)
{
    ops = ops_or_default(ops);
    memset(out, 0, sizeof *out);
    int rc = ops->info(out, probe, err);
    out->kind = ops->kind;
    out->caps = ops->caps;
    return rc;
}

int emu_engine_room(const emu_ops *ops, unsigned engines, ff_error *err)
{
    ops = ops_or_default(ops);
    return ops->room ? ops->room(engines, err) : 0;
}

static int has(const emu *e, emu_cap cap)
{
    return (e->ops->caps & EMU_CAP_BIT(cap)) != 0;
}

static int refuse(const emu *e, emu_cap cap, ff_error *err)
{
    return ff_error_set(err, FF_E_UNSUPPORTED, NULL, -1, "the %s engine has no %s",
                        emu_engine_kind_name(e->ops->kind), emu_cap_what(cap));
}

int emu_open(const emu_config *cfg, emu **out, ff_error *err)
{
    *out = NULL;
    const emu_ops *ops = ops_or_default(cfg->engine);
    if (ops->open(cfg, out, err) != 0) return -1;
    (*out)->ops = ops;
    return 0;
}

void emu_close(emu *e)
{
    if (e) e->ops->close(e);
}

const emu_ops *emu_ops_of(const emu *e)
{
    return e->ops;
}

emu_engine_kind emu_kind(const emu *e)
{
    return e->ops->kind;
}

unsigned emu_caps(const emu *e)
{
    return e->ops->caps;
}

int emu_require(const emu *e, emu_cap cap, ff_error *err)
{
    return has(e, cap) ? 0 : refuse(e, cap, err);
}

int emu_call(emu *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
             emu_fault *fault)
{
    return e->ops->call(e, addr, args, nargs, eax, fault, NULL);
}

int emu_call_rewind(emu *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
                    emu_fault *fault, const emu_rewind *rw)
{
    return e->ops->call(e, addr, args, nargs, eax, fault, has(e, EMU_CAP_EXACT_FAULT) ? rw : NULL);
}

int emu_x87_st0(emu *e, double *value, uint8_t *raw)
{
    return e->ops->x87_st0(e, value, raw);
}

uint64_t emu_last_insns(const emu *e)
{
    return has(e, EMU_CAP_BUDGET) ? e->ops->last_insns(e) : 0;
}

void emu_set_budget(emu *e, uint64_t budget)
{
    if (has(e, EMU_CAP_BUDGET)) e->ops->set_budget(e, budget);
}

int emu_map_area(emu *e, uint32_t addr, uint32_t size, int prot, uint32_t guard, uint8_t **host,
                 ff_error *err)
{
    *host = NULL;
    return e->ops->map_area(e, addr, size, prot, guard, host, err);
}

int emu_unmap_area(emu *e, uint32_t addr, ff_error *err)
{
    return e->ops->unmap_area(e, addr, err);
}

uint8_t *emu_host(emu *e, uint32_t addr, uint32_t len)
{
    return e->ops->host(e, addr, len);
}

int emu_stub_return(emu *e, uint32_t addr, ff_error *err)
{
    return has(e, EMU_CAP_STUB) ? e->ops->stub_return(e, addr, err) : refuse(e, EMU_CAP_STUB, err);
}

void emu_stub_set(emu *e, int on)
{
    if (has(e, EMU_CAP_STUB)) e->ops->stub_set(e, on);
}

int emu_patch(emu *e, uint32_t addr, const uint8_t *bytes, uint32_t len, ff_error *err)
{
    return e->ops->patch(e, addr, bytes, len, err);
}

int emu_unpatch(emu *e, uint32_t addr, ff_error *err)
{
    return e->ops->unpatch(e, addr, err);
}

int emu_watch_writes(emu *e, uint32_t addr, uint32_t len, ff_error *err)
{
    return has(e, EMU_CAP_WATCH) ? e->ops->watch_writes(e, addr, len, err)
                                 : refuse(e, EMU_CAP_WATCH, err);
}

void emu_watch_reset(emu *e)
{
    if (has(e, EMU_CAP_WATCH)) e->ops->watch_reset(e);
}

void emu_watch_result(emu *e, emu_writer *w)
{
    if (has(e, EMU_CAP_WATCH))
        e->ops->watch_result(e, w);
    else
        memset(w, 0, sizeof *w);
}

int emu_unwatch(emu *e, ff_error *err)
{
    return has(e, EMU_CAP_WATCH) ? e->ops->unwatch(e, err) : 0;
}

int emu_cover_start(emu *e, const struct emu_blockmap *m, uint8_t *hits, ff_error *err)
{
    return has(e, EMU_CAP_COVERAGE) ? e->ops->cover_start(e, m, hits, err)
                                    : refuse(e, EMU_CAP_COVERAGE, err);
}

void emu_cover_stop(emu *e)
{
    if (has(e, EMU_CAP_COVERAGE)) e->ops->cover_stop(e);
}

int emu_calls_start(emu *e, const uint32_t *entries, unsigned n, const uint32_t *rets,
                    unsigned nrets, ff_error *err)
{
    return has(e, EMU_CAP_READ_LOG) ? e->ops->calls_start(e, entries, n, rets, nrets, err)
                                    : refuse(e, EMU_CAP_READ_LOG, err);
}

int emu_calls_armed(const emu *e)
{
    return has(e, EMU_CAP_READ_LOG) ? e->ops->calls_armed(e) : 0;
}

void emu_calls_record(emu *e, emu_callrec *recs, size_t cap)
{
    if (has(e, EMU_CAP_READ_LOG)) e->ops->calls_record(e, recs, cap);
}

size_t emu_calls_taken(const emu *e, size_t *total)
{
    if (has(e, EMU_CAP_READ_LOG)) return e->ops->calls_taken(e, total);
    if (total) *total = 0;
    return 0;
}

void emu_calls_stop(emu *e)
{
    if (has(e, EMU_CAP_READ_LOG)) e->ops->calls_stop(e);
}

uint32_t emu_scratch_base(const emu *e)
{
    (void)e;
    return EMU_SCRATCH_BASE;
}

uint32_t emu_stack_hot(const emu *e)
{
    return e->ops->stack_hot ? e->ops->stack_hot(e) : 0;
}

uint32_t emu_scratch_hot(const emu *e)
{
    return e->ops->scratch_hot ? e->ops->scratch_hot(e) : 0;
}
