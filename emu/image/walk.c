/*
 * emu/image/walk.c: a routine's own control flow walked with Capstone (see
 * emu/image/walk.h). Branch targets wait on a work list; a bitmap of the window
 * after the entry marks the instruction starts already decoded. Reads
 * only; no printing, no exit.
 */
#include "emu/image/walk.h"

#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#define MAX_WORK 4096 /* pending branch targets */

struct walker {
    csh cs;
    cs_insn *in;
    const pe_image *pe;
    const uint8_t *img; /* laid-out image, size_of_image bytes */
    uint8_t seen[WALK_WINDOW / 8];
    uint32_t work[MAX_WORK];
    unsigned nwork;
    size_t cap; /* of the routine's insns array */
    walk_entry_fn is_entry;
    void *arg;
};

int walk_open(const pe_image *pe, const uint8_t *layout, walker **out, ff_error *err)
{
    *out = NULL;
    walker *w = calloc(1, sizeof *w);
    if (!w) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    if (cs_open(CS_ARCH_X86, CS_MODE_32, &w->cs) != CS_ERR_OK) {
        free(w);
        return ff_error_set(err, FF_E_EMU, NULL, -1, "opening Capstone failed");
    }
    /* The walk reads operands from the detail: without it, no walk. */
    if (cs_option(w->cs, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK) {
        cs_close(&w->cs);
        free(w);
        return ff_error_set(err, FF_E_EMU, NULL, -1, "Capstone refused its detail mode");
    }
    w->in = cs_malloc(w->cs);
    if (!w->in) {
        cs_close(&w->cs);
        free(w);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    }
    w->pe = pe;
    w->img = layout;
    *out = w;
    return 0;
}

void walk_close(walker *w)
{
    if (!w) return;
    cs_free(w->in, 1);
    cs_close(&w->cs);
    free(w);
}

void walk_routine_free(walk_routine *r)
{
    if (!r) return;
    free(r->insns);
    r->insns = NULL;
    r->ninsns = 0;
}

int walk_in_code(const pe_image *pe, uint32_t addr)
{
    const pe_section *s = pe_section_at(pe, addr);
    return s && (s->characteristics & (PE_SCN_MEM_EXECUTE | PE_SCN_CNT_CODE)) != 0;
}

static int in_image(const walker *w, uint32_t a)
{
    return walk_in_image(w->pe, a);
}

/* The instruction's token: mnemonic and operand kinds, FNV-1a folded to 16 bits. */
static uint16_t token_of(const cs_insn *in)
{
    char text[64];
    size_t n = (size_t)snprintf(text, sizeof text, "%s", in->mnemonic);
    const cs_x86 *x = &in->detail->x86;
    for (unsigned k = 0; k < x->op_count && n < sizeof text - 4; k++) {
        const cs_x86_op *op = &x->operands[k];
        char kind = op->type == X86_OP_REG ? 'r' : op->type == X86_OP_IMM ? 'i' : 'm';
        n += (size_t)snprintf(text + n, sizeof text - n, "%c%c%u", k ? ',' : ' ', kind,
                              (unsigned)op->size);
    }
    uint32_t h = 2166136261u;
    for (size_t i = 0; text[i]; i++)
        h = (h ^ (uint8_t)text[i]) * 16777619u;
    return (uint16_t)((h >> 16) ^ (h & 0xFFFF));
}

static void add_call(walk_routine *r, uint32_t addr, int tail, uint32_t site)
{
    for (unsigned i = 0; i < r->ncalls; i++)
        if (r->calls[i].address == addr) {
            walk_target *t = &r->calls[i];
            t->first_site = site < t->first_site ? site : t->first_site;
            t->last_site = site > t->last_site ? site : t->last_site;
            return;
        }
    if (r->ncalls == WALK_MAX_CALLS) {
        r->truncated = 1;
        return;
    }
    r->calls[r->ncalls++] = (walk_target){addr, tail, site, site};
}

static void add_ref(walk_routine *r, uint32_t addr, int bare, int imm)
{
    for (unsigned i = 0; i < r->nrefs; i++)
        if (r->refs[i].address == addr) {
            r->refs[i].bare |= bare;
            r->refs[i].imm |= imm;
            return;
        }
    if (r->nrefs == WALK_MAX_REFS) {
        r->truncated = 1;
        return;
    }
    r->refs[r->nrefs++] = (walk_ref){addr, bare, imm};
}

static void note_refs(const walker *w, walk_routine *r, const cs_x86 *x, int branch)
{
    for (unsigned k = 0; k < x->op_count; k++) {
        const cs_x86_op *op = &x->operands[k];
        if (op->type == X86_OP_MEM) {
            uint32_t d = (uint32_t)op->mem.disp;
            int bare = op->mem.base == X86_REG_INVALID && op->mem.index == X86_REG_INVALID;
            if (op->mem.segment != X86_REG_INVALID && op->mem.segment != X86_REG_DS) continue;
            if ((bare && d >= 0x10000) || (d && in_image(w, d))) add_ref(r, d, bare, 0);
        } else if (op->type == X86_OP_IMM && !branch) {
            uint32_t v = (uint32_t)op->imm;
            if (in_image(w, v) && v != w->pe->image_base) add_ref(r, v, 0, 1);
        }
    }
}

static int push_insn(walker *w, walk_routine *r, uint32_t a, uint8_t size, uint16_t token)
{
    if (GROW(r->insns, w->cap, (size_t)r->ninsns + 1, 64) < 0) return -1;
    r->insns[r->ninsns++] = (walk_insn){a, size, token};
    return 0;
}

static int seen(const walker *w, const walk_routine *r, uint32_t a)
{
    uint32_t off = a - r->entry;
    return a < r->entry || off >= WALK_WINDOW || (w->seen[off / 8] >> (off % 8) & 1);
}

static void push_work(walker *w, walk_routine *r, uint32_t a)
{
    if (seen(w, r, a)) return;
    if (w->nwork == MAX_WORK) {
        r->truncated = 1;
        return;
    }
    w->work[w->nwork++] = a;
}

int walk_in_image(const pe_image *pe, uint32_t a)
{
    return a >= pe->image_base && a - pe->image_base < pe->size_of_image;
}

int walk_decode(csh cs, const pe_image *pe, const uint8_t *img, uint32_t a, cs_insn *in)
{
    if (!walk_in_image(pe, a)) return -1;
    const uint8_t *code = img + (a - pe->image_base);
    size_t left = pe->size_of_image - (a - pe->image_base);
    if (left > 16) left = 16;
    uint64_t addr = a;
    return cs_disasm_iter(cs, &code, &left, &addr, in) ? 0 : -1;
}

walk_flow walk_flow_of(csh cs, const cs_insn *in, uint32_t entry, walk_entry_fn is_entry, void *arg,
                       uint32_t *target)
{
    const cs_x86 *x = &in->detail->x86;
    unsigned id = in->id;
    int imm = x->op_count == 1 && x->operands[0].type == X86_OP_IMM;
    *target = imm ? (uint32_t)x->operands[0].imm : 0;
    if (id == X86_INS_RET || id == X86_INS_RETF || id == X86_INS_HLT || id == X86_INS_INT3 ||
        id == X86_INS_UD2)
        return WALK_END;
    if (id == X86_INS_CALL) return imm ? WALK_CALL : WALK_CALL_INDIRECT;
    if (id == X86_INS_JMP) {
        if (!imm) return WALK_JUMP_INDIRECT;
        uint32_t t = *target;
        if (t < entry || t - entry >= WALK_WINDOW || (t != entry && is_entry && is_entry(arg, t)))
            return WALK_TAIL;
        return WALK_JUMP;
    }
    if (cs_insn_group(cs, in, CS_GRP_JUMP) && imm) return WALK_BRANCH;
    *target = 0;
    return WALK_NEXT;
}

/* Decodes one path from a; returns when it ends (-1: out of memory). */
static int walk_path(walker *w, walk_routine *r, uint32_t a)
{
    for (;;) {
        if (seen(w, r, a)) return 0;
        if (!in_image(w, a) || r->ninsns >= WALK_MAX_INSNS) {
            r->truncated |= r->ninsns >= WALK_MAX_INSNS;
            return 0;
        }
        uint32_t off = a - r->entry;
        w->seen[off / 8] |= (uint8_t)(1u << (off % 8));
        if (walk_decode(w->cs, w->pe, w->img, a, w->in) != 0) return 0;
        const cs_x86 *x = &w->in->detail->x86;
        int branch = w->in->id == X86_INS_CALL || cs_insn_group(w->cs, w->in, CS_GRP_JUMP);
        if (push_insn(w, r, a, (uint8_t)w->in->size, token_of(w->in)) != 0) return -1;
        note_refs(w, r, x, branch);
        uint32_t target;
        switch (walk_flow_of(w->cs, w->in, r->entry, w->is_entry, w->arg, &target)) {
        case WALK_END: return 0;
        case WALK_CALL: add_call(r, target, 0, a); break;
        case WALK_CALL_INDIRECT: r->nindirect++; break;
        case WALK_JUMP_INDIRECT: r->nindirect++; return 0;
        case WALK_TAIL: add_call(r, target, 1, a); return 0;
        case WALK_JUMP: a = target; continue;
        case WALK_BRANCH: push_work(w, r, target); break;
        case WALK_NEXT: break;
        }
        a = (uint32_t)(w->in->address + w->in->size);
    }
}

static int by_address(const void *a, const void *b)
{
    const walk_insn *x = a, *y = b;
    return x->address < y->address ? -1 : x->address > y->address;
}

int walk_routine_at(walker *w, uint32_t entry, walk_entry_fn is_entry, void *arg, walk_routine *out,
                    ff_error *err)
{
    memset(out, 0, sizeof *out);
    out->entry = entry;
    if (!in_image(w, entry) || !pe_section_at(w->pe, entry)) {
        snprintf(out->error, sizeof out->error, "entry 0x%X lies outside every section", entry);
        return 0;
    }
    memset(w->seen, 0, sizeof w->seen);
    w->nwork = 0;
    w->cap = 0;
    w->is_entry = is_entry;
    w->arg = arg;
    int rc = walk_path(w, out, entry);
    if (rc == 0 && out->ninsns == 0) {
        snprintf(out->error, sizeof out->error, "no instruction decodes at 0x%X", entry);
        return 0;
    }
    while (rc == 0 && w->nwork)
        rc = walk_path(w, out, w->work[--w->nwork]);
    if (rc != 0) {
        walk_routine_free(out);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory walking 0x%X", entry);
    }
    out->decoded = 1;
    qsort(out->insns, out->ninsns, sizeof *out->insns, by_address);
    return 0;
}

uint32_t walk_extent(const walk_routine *r)
{
    if (!r->decoded || !r->ninsns) return 0;
    const walk_insn *last = &r->insns[r->ninsns - 1];
    return last->address + last->size - r->entry;
}

int walk_covers(const walk_routine *r, uint32_t addr)
{
    size_t lo = 0, hi = r->ninsns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->insns[mid].address <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0) return 0;
    const walk_insn *in = &r->insns[lo - 1];
    return addr - in->address < in->size;
}

unsigned walk_pattern_similarity(const uint16_t *a, size_t na, const uint16_t *b, size_t nb)
{
    if (!na || !nb) return 0;
    if (na == nb && memcmp(a, b, na * sizeof *a) == 0) return 100;
    /* Longest common subsequence, one row at a time. */
    uint32_t *row = calloc(nb + 1, sizeof *row);
    if (!row) return 0;
    for (size_t i = 1; i <= na; i++) {
        uint32_t diag = 0;
        for (size_t j = 1; j <= nb; j++) {
            uint32_t up = row[j];
            row[j] = a[i - 1] == b[j - 1] ? diag + 1 : (up > row[j - 1] ? up : row[j - 1]);
            diag = up;
        }
    }
    uint64_t lcs = row[nb];
    free(row);
    unsigned pct = (unsigned)(200 * lcs / (na + nb));
    return pct >= 100 ? 99 : pct;
}
