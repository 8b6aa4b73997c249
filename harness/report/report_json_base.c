/*
 * harness/report/report_json_base.c: the pieces report.json is built with
 * (strings made valid UTF-8, an error, a fault with its registers and
 * disassembly, a divergence with its stream window, an array of ints),
 * declared in report_json_base.h and, for the two the trace-set manifest
 * shares, in report.h. They build from a run's results only and call no
 * section builder.
 */
#include <stdio.h>
#include <string.h>

#include "harness/core/field_model.h"
#include "harness/core/fields.h"
#include "harness/report/report.h"
#include "harness/report/report_json_base.h"

/*
 * Every string of the report goes through here: names and messages come
 * from files, and report.json must stay valid UTF-8 whatever they hold.
 */
cJSON *report_json_string(const char *s)
{
    if (!s) s = "";
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = utf8_seq_len(p);
        if (!n) break;
        p += n;
    }
    if (!*p) return cJSON_CreateString(s);
    strbuf b;
    sb_init(&b);
    sb_utf8(&b, s);
    cJSON *item = cJSON_CreateString(strbuf_failed(&b) ? "?" : b.s);
    sb_free(&b);
    return item;
}

void rj_add_str(cJSON *o, const char *key, const char *s)
{
    cJSON_AddItemToObject(o, key, report_json_string(s));
}

cJSON *rj_str_or_null(const char *s)
{
    return s ? report_json_string(s) : cJSON_CreateNull();
}

void rj_add_hex(cJSON *o, const char *key, uint32_t v)
{
    char buf[16];
    snprintf(buf, sizeof buf, "0x%x", v);
    rj_add_str(o, key, buf);
}

cJSON *report_json_error(const ff_error *e)
{
    if (!e) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    char msg[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64];
    rj_add_str(o, "kind", ff_errkind_name(e->kind));
    rj_add_str(o, "file", e->file);
    if (e->offset >= 0)
        cJSON_AddNumberToObject(o, "offset", (double)e->offset);
    else
        cJSON_AddNullToObject(o, "offset");
    rj_add_str(o, "reason", e->reason);
    rj_add_str(o, "message", ff_error_format(e, msg, sizeof msg));
    return o;
}

cJSON *report_json_fault(const emu_fault *f)
{
    if (!f) return cJSON_CreateNull();
    static const char *const regs[EMU__NREGS] = {"eax", "ecx", "edx", "ebx", "esp",
                                                 "ebp", "esi", "edi", "eip", "eflags"};
    cJSON *o = cJSON_CreateObject();
    rj_add_str(o, "kind", emu_fault_name(f->kind));
    rj_add_str(o, "message", emu_fault_message(f->kind));
    rj_add_hex(o, "routine", f->routine);
    rj_add_hex(o, "eip", f->eip);
    rj_add_hex(o, "address", f->addr);
    cJSON *r = cJSON_AddObjectToObject(o, "registers");
    for (int i = 0; i < EMU__NREGS; i++)
        rj_add_hex(r, regs[i], f->regs[i]);
    if (f->kind == EMU_FAULT_IMPORT) {
        cJSON *imp = cJSON_AddObjectToObject(o, "import");
        rj_add_str(imp, "dll", f->import_dll);
        rj_add_str(imp, "name", f->import_name);
        rj_add_hex(imp, "caller", f->caller);
    } else {
        cJSON_AddNullToObject(o, "import");
    }
    rj_add_str(o, "detail", f->detail);
    cJSON *dis = cJSON_AddArrayToObject(o, "disassembly");
    const char *p = f->disasm;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), p);
        cJSON_AddItemToArray(dis, report_json_string(line));
        p += len + (nl ? 1 : 0);
    }
    return o;
}

static cJSON *stream_json(const clip_result *r)
{
    cJSON *o = cJSON_CreateObject();
    char hex[RES_STREAM_BYTES * 3 + 1] = "", bits[RES_STREAM_BYTES * 9 + 1] = "";
    size_t h = 0, b = 0;
    for (unsigned i = 0; i < r->stream_len; i++) {
        h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", i ? " " : "", r->stream[i]);
        if (i) bits[b++] = ' ';
        for (int k = 0; k < 8; k++)
            bits[b++] = (char)('0' + ((r->stream[i] >> k) & 1));
    }
    bits[b] = '\0';
    cJSON_AddNumberToObject(o, "offset", (double)r->stream_off);
    rj_add_str(o, "hex", hex);
    rj_add_str(o, "bits_lsb_first", bits);
    /* The window is centred on the value's read: the tick's cursor may lie outside it. */
    if (r->cursor_file_off >= r->stream_off && r->cursor_file_off - r->stream_off < r->stream_len)
        cJSON_AddNumberToObject(o, "cursor_index", (double)(r->cursor_file_off - r->stream_off));
    else
        cJSON_AddNullToObject(o, "cursor_index");
    if (r->have_value && r->value_file_off >= r->stream_off) {
        cJSON *v = cJSON_AddObjectToObject(o, "value");
        rj_add_str(v, "routine", ref_routine_name((ref_routine)r->value_routine));
        cJSON_AddNumberToObject(v, "index", (double)(r->value_file_off - r->stream_off));
        cJSON_AddNumberToObject(v, "bit", r->value_bit);
        cJSON_AddNumberToObject(v, "bits", r->value_bits);
    } else {
        cJSON_AddNullToObject(o, "value");
    }
    return o;
}

cJSON *report_json_divergence(const clip_result *r)
{
    if (r->status != RES_MISMATCH) return cJSON_CreateNull();
    const cmp_divergence *d = &r->div;
    char name[64];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "tick", (double)d->tick);
    rj_add_str(o, "field", field_model_field_name(d->model, d->field, d->bone, name, sizeof name));
    rj_add_str(o, "field_kind", field_kind_name(d->field));
    if (field_is_per_bone(d->field))
        cJSON_AddNumberToObject(o, "bone", d->bone);
    else
        cJSON_AddNullToObject(o, "bone");
    cJSON_AddNumberToObject(o, "ref", d->ref);
    cJSON_AddNumberToObject(o, "orig", d->orig);
    cJSON *c = cJSON_AddObjectToObject(o, "cursor");
    cJSON_AddNumberToObject(c, "byte", d->cursor_off);
    cJSON_AddNumberToObject(c, "bit", d->cursor_bit);
    cJSON_AddNumberToObject(c, "file_offset", (double)r->cursor_file_off);
    cJSON_AddItemToObject(o, "stream", stream_json(r));
    cJSON_AddNumberToObject(o, "differing_fields", (double)d->differing);
    return o;
}

cJSON *report_json_ints(const int32_t *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}
