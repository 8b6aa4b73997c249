/*
 * emu/engine/unicorn/uc_fault.c: the Capstone disassembly the Unicorn engine
 * attaches to a fault: from the start of the basic
 * block that was running (known to the block hook) through a few
 * instructions past EIP, EIP marked with '>'. No printing, no exit.
 */
#include "emu/engine/unicorn/uc_internal.h"

#include <stdio.h>
#include <string.h>

#define DIS_AFTER 4   /* instructions shown after EIP */
#define DIS_BEFORE 16 /* at most this many lines kept before EIP */
#define DIS_SPAN 4096 /* at most this many bytes from the block start to EIP */
#define DIS_LINE 224

/* Reads up to len guest bytes at addr, stopping at the first unreadable page. */
static size_t read_guest(emu_uc *e, uint32_t addr, uint8_t *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        uint64_t a = (uint64_t)addr + got;
        if (a > UINT32_MAX) break;
        size_t chunk = EMU_PAGE - (size_t)(a & (EMU_PAGE - 1));
        if (chunk > len - got) chunk = len - got;
        if (uc_mem_read(e->uc, a, buf + got, chunk) != UC_ERR_OK) break;
        got += chunk;
    }
    return got;
}

typedef struct dis_out {
    char lines[DIS_BEFORE][DIS_LINE]; /* ring of lines before EIP */
    unsigned nbefore, first;
    char tail[EMU_DISASM_MAX];
    size_t tail_len;
    int dropped;
} dis_out;

static void add_line(dis_out *o, int at_eip, int after, uint64_t addr, const cs_insn *in)
{
    char line[DIS_LINE];
    snprintf(line, sizeof line, "%c0x%llx: %s%s%s\n", at_eip ? '>' : ' ', (unsigned long long)addr,
             in->mnemonic, in->op_str[0] ? " " : "", in->op_str);
    if (at_eip || after) {
        size_t n = strlen(line);
        if (o->tail_len + n < sizeof o->tail) {
            memcpy(o->tail + o->tail_len, line, n + 1);
            o->tail_len += n;
        }
        return;
    }
    unsigned slot = (o->first + o->nbefore) % DIS_BEFORE;
    if (o->nbefore == DIS_BEFORE) {
        o->first = (o->first + 1) % DIS_BEFORE;
        o->dropped = 1;
    } else {
        o->nbefore++;
    }
    memcpy(o->lines[slot], line, sizeof line);
}

static void add_note(dis_out *o, const char *note)
{
    size_t n = strlen(note);
    if (o->tail_len + n < sizeof o->tail) {
        memcpy(o->tail + o->tail_len, note, n + 1);
        o->tail_len += n;
    }
}

void emu_uc_fault_disasm(emu_uc *e, emu_fault *f)
{
    uint8_t buf[DIS_SPAN + 64];
    dis_out o;
    memset(&o, 0, sizeof o);
    uint32_t start = e->block_addr, eip = f->eip;
    int eip_in_block = eip >= start && eip - start < DIS_SPAN;
    size_t want = eip_in_block ? (size_t)(eip - start) + 64 : (size_t)e->block_size;
    if (want > sizeof buf) want = sizeof buf;
    size_t got = read_guest(e, start, buf, want);
    const uint8_t *code = buf;
    size_t left = got;
    uint64_t a = start;
    cs_insn *in = e->insn;
    int seen_eip = 0, after = 0;
    while (left && cs_disasm_iter(e->cs, &code, &left, &a, in)) {
        int at = in->address == eip;
        if (!eip_in_block && in->address + in->size > (uint64_t)start + e->block_size) break;
        if (eip_in_block && !seen_eip && in->address > eip) {
            add_note(&o, "  (EIP falls inside the previous instruction)\n");
            seen_eip = 1;
        }
        add_line(&o, at, seen_eip, in->address, in);
        if (at) seen_eip = 1;
        if (seen_eip && ++after > DIS_AFTER) break;
    }
    if (!seen_eip) {
        char note[96];
        uint8_t b;
        snprintf(note, sizeof note, ">0x%x: %s\n", eip,
                 eip == EMU_SENTINEL + 1     ? "(back at the return sentinel: the routine returned)"
                 : read_guest(e, eip, &b, 1) ? "(could not be decoded)"
                                             : "(not mapped)");
        add_note(&o, note);
    }
    size_t used = 0;
    if (o.dropped) used += (size_t)snprintf(f->disasm, sizeof f->disasm, "  ...\n");
    for (unsigned i = 0; i < o.nbefore && used < sizeof f->disasm; i++) {
        const char *l = o.lines[(o.first + i) % DIS_BEFORE];
        used += (size_t)snprintf(f->disasm + used, sizeof f->disasm - used, "%s", l);
    }
    if (used < sizeof f->disasm) snprintf(f->disasm + used, sizeof f->disasm - used, "%s", o.tail);
}
