/*
 * emu/structure.c: the structural check of identify_routines (see
 * emu/identify.h). Each routine is disassembled from its entry with
 * Capstone, following its own control flow (the rules of emu/structure.h:
 * conditional jumps both ways, unconditional jumps inside it, stop at
 * ret/hlt/int3/ud2 and at indirect jumps; a direct jmp to another routine's
 * entry, or out of the window around the entry, is a tail call). Reads
 * only; no printing, no exit.
 */
#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "emu/identify.h"
#include "emu/pe.h"
#include "emu/structure.h"

#define WINDOW STRUCTURE_WINDOW
#define MAX_WORK 4096   /* pending branch targets */
#define MAX_INSNS 20000 /* instructions decoded per routine */

typedef struct walker {
    csh cs;
    cs_insn *in;
    const pe_image *pe;
    const uint8_t *img; /* laid-out image, size_of_image bytes */
    const emu_profile *p;
    uint8_t seen[WINDOW / 8];
    uint32_t work[MAX_WORK];
    unsigned nwork;
} walker;

static int parse_hex(const char *s, uint32_t *out)
{
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return -1;
    char *end;
    unsigned long long v = strtoull(s + 2, &end, 16);
    if (*end || v > UINT32_MAX) return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Names addr: routine, global, or the import whose IAT slot it is. */
static void name_of(const walker *w, uint32_t addr, char *out, size_t cap)
{
    out[0] = '\0';
    for (unsigned i = 0; i < w->p->nroutines; i++)
        if (w->p->routines[i].address == addr) {
            snprintf(out, cap, "%s", w->p->routines[i].name);
            return;
        }
    for (unsigned i = 0; i < w->p->nglobals; i++) {
        const profile_global *g = &w->p->globals[i];
        if (addr >= g->address && addr - g->address < g->size) {
            snprintf(out, cap, "%s", g->name);
            return;
        }
    }
    const pe_import *imp = pe_import_at_slot(w->pe, addr);
    if (imp) snprintf(out, cap, "%s!%s", imp->dll, imp->name);
}

static void add_target(const walker *w, identify_target *list, unsigned *n, int *trunc,
                       uint32_t addr, int tail)
{
    for (unsigned i = 0; i < *n; i++)
        if (list[i].address == addr) return;
    if (*n == IDENTIFY_MAX_CALLS) {
        *trunc = 1;
        return;
    }
    identify_target *t = &list[(*n)++];
    t->address = addr;
    t->tail = tail;
    name_of(w, addr, t->name, sizeof t->name);
}

int structure_in_image(const pe_image *pe, uint32_t a)
{
    return a >= pe->image_base && a - pe->image_base < pe->size_of_image;
}

static int in_image(const walker *w, uint32_t a)
{
    return structure_in_image(w->pe, a);
}

static int is_global(const walker *w, uint32_t a)
{
    for (unsigned i = 0; i < w->p->nglobals; i++)
        if (a >= w->p->globals[i].address && a - w->p->globals[i].address < w->p->globals[i].size)
            return 1;
    return 0;
}

static int is_entry_of_other(const emu_profile *p, uint32_t a, uint32_t self)
{
    if (a == self) return 0;
    for (unsigned i = 0; i < p->nroutines; i++)
        if (p->routines[i].address == a) return 1;
    return 0;
}

structure_flow structure_flow_of(csh cs, const cs_insn *in, const emu_profile *p, uint32_t entry,
                                 uint32_t *target)
{
    const cs_x86 *x = &in->detail->x86;
    unsigned id = in->id;
    int imm = x->op_count == 1 && x->operands[0].type == X86_OP_IMM;
    *target = imm ? (uint32_t)x->operands[0].imm : 0;
    if (id == X86_INS_RET || id == X86_INS_RETF || id == X86_INS_HLT || id == X86_INS_INT3 ||
        id == X86_INS_UD2)
        return STRUCTURE_END;
    if (id == X86_INS_CALL) return imm ? STRUCTURE_CALL : STRUCTURE_CALL_INDIRECT;
    if (id == X86_INS_JMP) {
        if (!imm) return STRUCTURE_JUMP_INDIRECT;
        if (is_entry_of_other(p, *target, entry) || *target < entry ||
            *target - entry >= WINDOW)
            return STRUCTURE_TAIL;
        return STRUCTURE_JUMP;
    }
    if (cs_insn_group(cs, in, CS_GRP_JUMP) && imm) return STRUCTURE_BRANCH;
    *target = 0;
    return STRUCTURE_NEXT;
}

int structure_decode(csh cs, const pe_image *pe, const uint8_t *img, uint32_t a, cs_insn *in)
{
    if (!structure_in_image(pe, a)) return -1;
    const uint8_t *code = img + (a - pe->image_base);
    size_t left = pe->size_of_image - (a - pe->image_base);
    if (left > 16) left = 16;
    uint64_t addr = a;
    return cs_disasm_iter(cs, &code, &left, &addr, in) ? 0 : -1;
}

static void push(walker *w, identify_routine *r, uint32_t a)
{
    uint32_t off = a - r->address;
    if (a < r->address || off >= WINDOW || (w->seen[off / 8] >> (off % 8) & 1)) return;
    if (w->nwork == MAX_WORK) {
        r->truncated = 1;
        return;
    }
    w->work[w->nwork++] = a;
}

static void note_refs(walker *w, identify_routine *r, const cs_x86 *x)
{
    for (unsigned k = 0; k < x->op_count; k++) {
        const cs_x86_op *op = &x->operands[k];
        if (op->type != X86_OP_MEM) continue;
        uint32_t d = (uint32_t)op->mem.disp;
        if (in_image(w, d) || is_global(w, d))
            add_target(w, r->refs, &r->nrefs, &r->truncated, d, 0);
    }
}

/* Decodes one path from a; returns when it ends. */
static void walk_path(walker *w, identify_routine *r, uint32_t a)
{
    for (;;) {
        uint32_t off = a - r->address;
        if (a < r->address || off >= WINDOW || (w->seen[off / 8] >> (off % 8) & 1)) return;
        if (!in_image(w, a) || r->insns >= MAX_INSNS) {
            r->truncated |= r->insns >= MAX_INSNS;
            return;
        }
        w->seen[off / 8] |= (uint8_t)(1u << (off % 8));
        if (structure_decode(w->cs, w->pe, w->img, a, w->in) != 0) return;
        r->insns++;
        note_refs(w, r, &w->in->detail->x86);
        uint32_t target;
        switch (structure_flow_of(w->cs, w->in, w->p, r->address, &target)) {
        case STRUCTURE_END:
            return;
        case STRUCTURE_CALL:
            add_target(w, r->calls, &r->ncalls, &r->truncated, target, 0);
            break;
        case STRUCTURE_CALL_INDIRECT:
            r->nindirect++;
            break;
        case STRUCTURE_JUMP_INDIRECT:
            r->nindirect++;
            return;
        case STRUCTURE_TAIL:
            add_target(w, r->calls, &r->ncalls, &r->truncated, target, 1);
            return;
        case STRUCTURE_JUMP:
            a = target;
            continue;
        case STRUCTURE_BRANCH:
            push(w, r, target);
            break;
        case STRUCTURE_NEXT:
            break;
        }
        a = (uint32_t)(w->in->address + w->in->size);
    }
}

static void compare(const walker *w, identify_routine *r, const profile_routine *pr)
{
    r->callees_checked = pr->callees_known;
    if (!pr->callees_known) return;
    uint32_t expected[PROFILE_MAX_CALLEES];
    for (unsigned k = 0; k < pr->ncallees; k++) {
        const profile_routine *t = profile_find_routine(w->p, pr->callees[k]);
        expected[k] = t ? t->address : 0;
        if (!t && parse_hex(pr->callees[k], &expected[k]) != 0) expected[k] = 0;
        int found = 0;
        for (unsigned i = 0; i < r->ncalls; i++)
            found |= r->calls[i].address == expected[k];
        if (!found) snprintf(r->missing[r->nmissing++], 64, "%s", pr->callees[k]);
    }
    for (unsigned i = 0; i < r->ncalls; i++) {
        int ok = 0;
        for (unsigned k = 0; k < pr->ncallees; k++)
            ok |= r->calls[i].address == expected[k];
        if (!ok && r->nunexpected < IDENTIFY_MAX_CALLS)
            r->unexpected[r->nunexpected++] = r->calls[i];
    }
}

static void check_routine(walker *w, const profile_routine *pr, identify_routine *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", pr->name);
    r->address = pr->address;
    if (!in_image(w, pr->address) || !pe_section_at(w->pe, pr->address)) {
        snprintf(r->error, sizeof r->error, "entry 0x%X lies outside every section", pr->address);
        return;
    }
    memset(w->seen, 0, sizeof w->seen);
    w->nwork = 0;
    walk_path(w, r, pr->address);
    if (r->insns == 0) {
        snprintf(r->error, sizeof r->error, "no instruction decodes at 0x%X", pr->address);
        return;
    }
    r->decoded = 1;
    while (w->nwork)
        walk_path(w, r, w->work[--w->nwork]);
    compare(w, r, pr);
}

int identify_routines(const uint8_t *data, size_t size, const emu_profile *p,
                      identify_structure *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    snprintf(out->profile, sizeof out->profile, "%s", p->name);
    pe_image pe;
    if (pe_parse(data, size, &pe, err) != 0) return -1;
    walker *w = calloc(1, sizeof *w);
    uint8_t *img = malloc(pe.size_of_image);
    int rc = -1;
    if (!w || !img) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        goto done;
    }
    if (pe_build_image(&pe, data, size, img, pe.size_of_image, err) != 0) goto done;
    if (cs_open(CS_ARCH_X86, CS_MODE_32, &w->cs) != CS_ERR_OK) {
        ff_error_set(err, FF_E_EMU, NULL, -1, "opening Capstone failed");
        goto done;
    }
    cs_option(w->cs, CS_OPT_DETAIL, CS_OPT_ON);
    w->in = cs_malloc(w->cs);
    if (!w->in) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        goto close;
    }
    w->pe = &pe;
    w->img = img;
    w->p = p;
    out->nroutines = p->nroutines;
    for (unsigned i = 0; i < p->nroutines; i++) {
        identify_routine *r = &out->routines[i];
        check_routine(w, &p->routines[i], r);
        if (!r->decoded || r->nmissing || r->nunexpected) out->nproblems++;
    }
    rc = 0;
    cs_free(w->in, 1);
close:
    cs_close(&w->cs);
done:
    free(img);
    free(w);
    pe_free(&pe);
    return rc;
}
