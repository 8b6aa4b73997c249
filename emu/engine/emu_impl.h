/*
 * emu/engine/emu_impl.h: what an engine implements behind emu/engine/emu.h: its
 * table of operations and the head every engine's state starts with. For the
 * engines (emu/engine/unicorn/) and emu/engine/emu.c, which dispatches; levels
 * never include it.
 *
 * The dispatcher sets emu.ops after open, checks the capability flag before
 * calling an optional entry, and gives the refusal or the neutral answer the
 * public contract states when the flag is off. An entry may be NULL only when
 * its flag is off. Engines must not print or exit.
 */
#ifndef FF8_EMU_ENGINE_EMU_IMPL_H
#define FF8_EMU_ENGINE_EMU_IMPL_H

#include "emu/engine/emu.h"

/* The head of every engine's state: its state struct begins with it. */
struct emu {
    const emu_ops *ops;
};

struct emu_ops {
    emu_engine_kind kind;
    unsigned caps; /* EMU_CAP_BIT flags */
    int one_per_process; /* its guest memory lies at fixed addresses of the process */

    /* Always present. */
    int (*info)(emu_engine_info *out, int probe, ff_error *err); /* kind and caps set by caller */
    int (*room)(unsigned engines, ff_error *err);                /* NULL: no limit to check */
    int (*open)(const emu_config *cfg, emu **out, ff_error *err);
    void (*close)(emu *e);
    /* rw NULL: no replay (the dispatcher passes NULL without EXACT_FAULT). */
    int (*call)(emu *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
                emu_fault *fault, const emu_rewind *rw);
    int (*x87_st0)(emu *e, double *value, uint8_t *raw);
    int (*map_area)(emu *e, uint32_t addr, uint32_t size, int prot, uint32_t guard, uint8_t **host,
                    ff_error *err);
    int (*unmap_area)(emu *e, uint32_t addr, ff_error *err);
    uint8_t *(*host)(emu *e, uint32_t addr, uint32_t len);
    int (*patch)(emu *e, uint32_t addr, const uint8_t *bytes, uint32_t len, ff_error *err);
    int (*unpatch)(emu *e, uint32_t addr, ff_error *err);
    uint32_t (*stack_hot)(const emu *e);   /* may be NULL */
    uint32_t (*scratch_hot)(const emu *e); /* may be NULL */

    /* BUDGET */
    uint64_t (*last_insns)(const emu *e);
    void (*set_budget)(emu *e, uint64_t budget);
    /* STUB */
    int (*stub_return)(emu *e, uint32_t addr, ff_error *err);
    void (*stub_set)(emu *e, int on);
    /* WATCH */
    int (*watch_writes)(emu *e, uint32_t addr, uint32_t len, ff_error *err);
    void (*watch_reset)(emu *e);
    void (*watch_result)(emu *e, emu_writer *w);
    int (*unwatch)(emu *e, ff_error *err);
    /* COVERAGE */
    int (*cover_start)(emu *e, const struct emu_blockmap *m, uint8_t *hits, ff_error *err);
    void (*cover_stop)(emu *e);
    /* READ_LOG */
    int (*calls_start)(emu *e, const uint32_t *entries, unsigned n, const uint32_t *rets,
                       unsigned nrets, ff_error *err);
    int (*calls_armed)(const emu *e);
    void (*calls_record)(emu *e, emu_callrec *recs, size_t cap);
    size_t (*calls_taken)(const emu *e, size_t *total);
    void (*calls_stop)(emu *e);
};

/* The Unicorn engine's table (emu/engine/unicorn/uc_ops.c). */
extern const emu_ops emu_unicorn_ops;
/* The native engine's table (emu/engine/native/nat_ops.c). */
extern const emu_ops emu_native_ops;

#endif
