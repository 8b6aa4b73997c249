/*
 * emu/engine/unicorn/uc_watch.c: which instruction wrote a guest range during calls. Used
 * to name the original instruction behind a divergence: the harness
 * replays a clip up to the diverging call with a watch on the field's
 * bytes. A write hook restricted to the range; the image's translated code
 * is dropped when the watch is armed so that EIP is exact inside the hook
 * (blocks translated without a memory hook leave EIP at the block's start),
 * and again when it is cleared, so the other calls run at full speed.
 */
#include <stdio.h>
#include <string.h>

#include "emu/engine/unicorn/uc_internal.h"

static void on_write(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
                     void *user)
{
    (void)type;
    (void)addr;
    (void)size;
    emu_uc *e = user;
    uint32_t eip;
    /* 0 when Unicorn cannot say: no routine, no instruction is then named. */
    if (uc_reg_read(uc, UC_X86_REG_EIP, &eip) != UC_ERR_OK) eip = 0;
    e->watch.eip = eip;
    e->watch.value = (uint64_t)value;
    e->watch.size = size;
    e->watch.writes++;
}

/* Never called: its presence makes Unicorn keep EIP exact at memory accesses. */
static void on_pc_sync(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
                       void *user)
{
    (void)uc;
    (void)type;
    (void)addr;
    (void)size;
    (void)value;
    (void)user;
}

int emu_uc_drop_code(emu_uc *e, ff_error *err)
{
    uc_err ue = uc_ctl_remove_cache(e->uc, (uint64_t)e->image_base,
                                    (uint64_t)e->image_base + e->image_size);
    if (ue != UC_ERR_OK)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "cannot drop translated code: %s",
                            uc_strerror(ue));
    return 0;
}

int emu_uc_watch_writes(emu_uc *e, uint32_t addr, uint32_t len, ff_error *err)
{
    if (emu_uc_unwatch(e, err) < 0) return -1;
    if (len == 0) return ff_error_set(err, FF_E_USAGE, NULL, -1, "empty watch range");
    memset(&e->watch, 0, sizeof e->watch);
    uc_err ue = uc_hook_add(e->uc, &e->watch_hook, UC_HOOK_MEM_WRITE, (void *)on_write, e,
                            (uint64_t)addr, (uint64_t)addr + len - 1);
    if (ue != UC_ERR_OK)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "cannot add a write watch: %s",
                            uc_strerror(ue));
    e->watching = 1;
    return emu_uc_drop_code(e, err);
}

int emu_uc_unwatch(emu_uc *e, ff_error *err)
{
    if (!e->watching) return 0;
    uc_err ue = uc_hook_del(e->uc, e->watch_hook);
    if (ue != UC_ERR_OK)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "cannot remove the write watch: %s",
                            uc_strerror(ue));
    e->watching = 0;
    return emu_uc_drop_code(e, err);
}

void emu_uc_watch_reset(emu_uc *e)
{
    memset(&e->watch, 0, sizeof e->watch);
}

void emu_uc_watch_result(emu_uc *e, emu_writer *w)
{
    memset(w, 0, sizeof *w);
    w->writes = e->watch.writes;
    if (!w->writes) return;
    w->eip = e->watch.eip;
    w->size = e->watch.size;
    w->value = e->watch.value;
    /* The routine holding EIP by the routines' extents (a helper the profile does not list
     * is named as such, never as a profile routine plus an offset past its end). A walk
     * that runs out of memory leaves the routine unnamed. */
    emu_owner o;
    ff_error err;
    if (emu_owner_of(e->pe, e->pristine, &e->profile, w->eip, &o, &err) == 0 && o.known) {
        snprintf(w->routine, sizeof w->routine, "%s", o.routine);
        w->routine_in_profile = o.in_profile;
        w->routine_offset = o.offset;
    }
    uint8_t code[48];
    const uint8_t *host = emu_uc_host(e, w->eip, sizeof code);
    if (!host) return;
    memcpy(code, host, sizeof code);
    const uint8_t *p = code;
    size_t left = sizeof code;
    uint64_t a = w->eip;
    if (cs_disasm_iter(e->cs, &p, &left, &a, e->insn) &&
        snprintf(w->insn, sizeof w->insn, "%s%s%s", e->insn->mnemonic,
                 e->insn->op_str[0] ? " " : "", e->insn->op_str) >= (int)sizeof w->insn)
        memcpy(w->insn + sizeof w->insn - 4, "...", 4); /* long operands: cut, marked */
}

/*
 * Exact EIP for memory faults. Unicorn 2.0.1 reports a read or write fault
 * at the start of the translated block unless a read or write hook existed
 * when the block was translated: then it stores EIP before every access. A
 * hook always present would cost 70% on a Battle_ReadAnimation tick (loads
 * leave their fast path, measured with bench/emu), so it is switched on
 * only to replay a call that faulted: a hook on a page nothing maps, and
 * the image's code retranslated on the way in and out.
 */
int emu_uc_pc_sync(emu_uc *e, int on, ff_error *err)
{
    if (on == e->pc_sync) return 0;
    if (on) {
        uc_err ue = uc_hook_add(e->uc, &e->pc_sync_hook, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE,
                                (void *)on_pc_sync, e, 0xFFFFF000u, 0xFFFFFFFFu);
        if (ue != UC_ERR_OK)
            return ff_error_set(err, FF_E_EMU, NULL, -1, "cannot add a hook: %s", uc_strerror(ue));
    } else {
        uc_err ue = uc_hook_del(e->uc, e->pc_sync_hook);
        if (ue != UC_ERR_OK)
            return ff_error_set(err, FF_E_EMU, NULL, -1, "cannot remove a hook: %s",
                                uc_strerror(ue));
    }
    e->pc_sync = on;
    return emu_uc_drop_code(e, err);
}
