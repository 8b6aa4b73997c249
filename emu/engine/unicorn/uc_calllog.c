/*
 * emu/engine/unicorn/uc_calllog.c: recording the calls of a few routines during replays
 * (emu_calls_start, emu/engine/emu.h): a UC_HOOK_CODE on exactly each entry
 * address and each return site. At an entry, ESP points at the return
 * address, the arguments follow it; at a return site (the ret about to
 * run), EAX holds the result and ESP is back where it was at the entry.
 * The hooks exist only between start and stop; the image's translated code
 * is dropped both times so they apply at once and cost nothing after. Only
 * calls made while a recording is on are kept: between recordings a hook
 * returns at once, so the replays of one explanation phase share their
 * translated code (dropping it for every replay made Unicorn 2.0.1
 * translate anew into fresh code buffer each time: hundreds of MiB over
 * thousands of replays). Never prints or exits.
 */
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "emu/engine/unicorn/uc_internal.h"

#define NOT_KEPT 0xFFFFFFFFu

static uint32_t reg(uc_engine *uc, int id)
{
    uint32_t v = 0;
    uc_reg_read(uc, id, &v);
    return v;
}

static uint32_t guest_u32(emu_uc *e, uint32_t addr)
{
    const uint8_t *p = emu_uc_host(e, addr, 4);
    return p ? le_u32(p) : 0;
}

static void guest_copy8(emu_uc *e, uint32_t addr, uint8_t out[8])
{
    const uint8_t *p = emu_uc_host(e, addr, 8);
    if (p)
        memcpy(out, p, 8);
    else
        memset(out, 0, 8);
}

static void on_entry(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)size;
    emu_uc *e = user;
    if (!e->call_recs) return;
    unsigned r = 0;
    while (r < e->ncall_entries && e->call_entries[r] != (uint32_t)addr)
        r++;
    if (r == e->ncall_entries) return;
    uint32_t esp = reg(uc, UC_X86_REG_ESP);
    uint32_t idx = NOT_KEPT;
    e->call_total++;
    if (e->call_n < e->call_cap) {
        idx = (uint32_t)e->call_n++;
        emu_callrec *c = &e->call_recs[idx];
        memset(c, 0, sizeof *c);
        c->routine = (uint16_t)r;
        c->depth = (uint16_t)e->call_depth;
        c->esp = esp;
        c->ret_addr = guest_u32(e, esp);
        c->args[0] = guest_u32(e, esp + 4);
        c->args[1] = guest_u32(e, esp + 8);
        guest_copy8(e, c->args[0], c->in);
    }
    if (e->call_depth < EMU_CALL_MAX_DEPTH) {
        e->call_pending[e->call_depth] = idx;
        e->call_pending_esp[e->call_depth] = esp;
        e->call_depth++;
    }
}

static void on_return(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)addr;
    (void)size;
    emu_uc *e = user;
    if (!e->call_recs) return;
    uint32_t esp = reg(uc, UC_X86_REG_ESP), eax = reg(uc, UC_X86_REG_EAX);
    /* Every pending call entered at or below this ESP ends here: the one
     * returning, the ones that tail-called into it, and any deeper one whose
     * own return was missed. */
    while (e->call_depth && e->call_pending_esp[e->call_depth - 1] <= esp) {
        e->call_depth--;
        uint32_t idx = e->call_pending[e->call_depth];
        if (idx == NOT_KEPT) continue;
        emu_callrec *c = &e->call_recs[idx];
        c->eax = eax;
        c->returned = e->call_pending_esp[e->call_depth] == esp;
        guest_copy8(e, c->args[0], c->out);
    }
}

static void remove_hooks(emu_uc *e)
{
    for (unsigned i = 0; i < e->ncall_hooks; i++)
        uc_hook_del(e->uc, e->call_hooks[i]);
    free(e->call_hooks);
    free(e->call_entries);
    e->call_hooks = NULL;
    e->call_entries = NULL;
    e->ncall_hooks = e->ncall_entries = 0;
}

int emu_uc_calls_start(emu_uc *e, const uint32_t *entries, unsigned n, const uint32_t *rets,
                       unsigned nrets, ff_error *err)
{
    emu_uc_calls_stop(e);
    e->call_hooks = calloc((size_t)n + nrets + 1, sizeof *e->call_hooks);
    e->call_entries = malloc(((size_t)n + 1) * sizeof *e->call_entries);
    if (!e->call_hooks || !e->call_entries) {
        remove_hooks(e);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    }
    memcpy(e->call_entries, entries, n * sizeof *entries);
    e->ncall_entries = n;
    for (unsigned i = 0; i < n + nrets; i++) {
        uint32_t a = i < n ? entries[i] : rets[i - n];
        uc_err ue =
            uc_hook_add(e->uc, &e->call_hooks[e->ncall_hooks], UC_HOOK_CODE,
                        (void *)(i < n ? on_entry : on_return), e, (uint64_t)a, (uint64_t)a);
        if (ue != UC_ERR_OK) {
            remove_hooks(e);
            return ff_error_set(err, FF_E_EMU, NULL, -1, "cannot add a code hook at 0x%x: %s", a,
                                uc_strerror(ue));
        }
        e->ncall_hooks++;
    }
    if (emu_uc_drop_code(e, err) < 0) {
        remove_hooks(e);
        return -1;
    }
    return 0;
}

int emu_uc_calls_armed(const emu_uc *e)
{
    return e->call_hooks != NULL;
}

void emu_uc_calls_record(emu_uc *e, emu_callrec *recs, size_t cap)
{
    e->call_recs = recs;
    e->call_cap = recs ? cap : 0;
    e->call_n = e->call_total = 0;
    e->call_depth = 0;
}

size_t emu_uc_calls_taken(const emu_uc *e, size_t *total)
{
    if (total) *total = e->call_total;
    return e->call_n;
}

void emu_uc_calls_stop(emu_uc *e)
{
    emu_uc_calls_record(e, NULL, 0);
    if (!e->call_hooks) return;
    remove_hooks(e);
    emu_uc_drop_code(e, NULL);
}
