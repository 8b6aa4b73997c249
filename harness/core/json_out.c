/*
 * harness/core/json_out.c: the JSON pieces report.json and the trace-set
 * manifest are both written with (json_out.h): strings made valid UTF-8,
 * hex numbers, a fault with its registers and disassembly, a run's
 * identity. Build from their arguments only.
 */
#include "harness/core/json_out.h"

#include <stdio.h>
#include <string.h>

#include "harness/core/modes.h"
#include "harness/core/strbuf.h"
#include "harness/version.h"

/*
 * Every string of the report goes through here: names and messages come
 * from files, and report.json must stay valid UTF-8 whatever they hold.
 */
cJSON *json_string(const char *s)
{
    if (!s) s = "";
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x20 ? 1 : sb_shown(p, ""); /* C0 is cJSON's to escape */
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

void json_add_str(cJSON *o, const char *key, const char *s)
{
    cJSON_AddItemToObject(o, key, json_string(s));
}

cJSON *json_str_or_null(const char *s)
{
    return s ? json_string(s) : cJSON_CreateNull();
}

void json_add_hex(cJSON *o, const char *key, uint32_t v)
{
    char buf[16];
    snprintf(buf, sizeof buf, "0x%x", v);
    json_add_str(o, key, buf);
}

cJSON *json_fault(const emu_fault *f)
{
    if (!f) return cJSON_CreateNull();
    static const char *const regs[EMU__NREGS] = {"eax", "ecx", "edx", "ebx", "esp",
                                                 "ebp", "esi", "edi", "eip", "eflags"};
    cJSON *o = cJSON_CreateObject();
    json_add_str(o, "kind", emu_fault_name(f->kind));
    json_add_str(o, "message", emu_fault_message(f->kind));
    json_add_hex(o, "routine", f->routine);
    json_add_hex(o, "eip", f->eip);
    json_add_hex(o, "address", f->addr);
    cJSON *r = cJSON_AddObjectToObject(o, "registers");
    for (int i = 0; i < EMU__NREGS; i++)
        json_add_hex(r, regs[i], f->regs[i]);
    if (f->kind == EMU_FAULT_IMPORT) {
        cJSON *imp = cJSON_AddObjectToObject(o, "import");
        json_add_str(imp, "dll", f->import_dll);
        json_add_str(imp, "name", f->import_name);
        json_add_hex(imp, "caller", f->caller);
    } else {
        cJSON_AddNullToObject(o, "import");
    }
    json_add_str(o, "detail", f->detail);
    cJSON *dis = cJSON_AddArrayToObject(o, "disassembly");
    const char *p = f->disasm;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), p);
        cJSON_AddItemToArray(dis, json_string(line));
        p += len + (nl ? 1 : 0);
    }
    return o;
}

/* tool.engine: kind, version, capabilities, what it does not see (when it says), and the
 * kind's own facts under its name. */
static void json_engine(cJSON *tool, const emu_engine_info *in)
{
    cJSON *en = cJSON_AddObjectToObject(tool, "engine");
    const char *kind = emu_engine_kind_name(in->kind);
    json_add_str(en, "kind", kind);
    json_add_str(en, "version", in->version);
    cJSON *caps = cJSON_AddArrayToObject(en, "capabilities");
    for (unsigned c = 0; c < EMU_CAP__COUNT; c++)
        if (in->caps & EMU_CAP_BIT(c))
            cJSON_AddItemToArray(caps, json_string(emu_cap_name((emu_cap)c)));
    if (in->limits[0]) json_add_str(en, "limits", in->limits);
    if (!in->nfacts) return;
    cJSON *facts = cJSON_AddObjectToObject(en, kind);
    for (unsigned i = 0; i < in->nfacts; i++) {
        const emu_engine_fact *f = &in->facts[i];
        if (f->is_number)
            cJSON_AddNumberToObject(facts, f->name, f->number);
        else
            json_add_str(facts, f->name, f->text);
    }
}

void json_identity(cJSON *o, const run_meta *m)
{
    cJSON *tool = cJSON_AddObjectToObject(o, "tool");
    json_add_str(tool, "name", "ff8diff");
    json_add_str(tool, "version", FF8DIFF_VERSION);
    if (m->engine)
        json_engine(tool, m->engine);
    else
        cJSON_AddNullToObject(tool, "engine");
    cJSON *exe = cJSON_AddObjectToObject(o, "executable");
    cJSON_AddItemToObject(exe, "path", json_str_or_null(m->exe_path));
    cJSON_AddItemToObject(exe, "sha256", json_str_or_null(m->exe_sha256));
    cJSON_AddItemToObject(exe, "profile", json_str_or_null(m->profile));
    cJSON_AddItemToObject(exe, "profile_source", json_str_or_null(m->profile_source));
    json_add_str(exe, "verdict", m->exe_verdict ? m->exe_verdict : "none");
    json_add_str(exe, "warning", m->exe_warning ? m->exe_warning : "");
    if (m->located_from) {
        cJSON *loc = cJSON_AddObjectToObject(exe, "profile_located");
        json_add_str(loc, "from_profile", m->located_from);
        json_add_str(loc, "executable", m->located_exe ? m->located_exe : "");
        json_add_str(loc, "patterns", m->located_patterns ? m->located_patterns : "");
        json_add_str(loc, "tool", m->located_tool ? m->located_tool : "");
    } else {
        cJSON_AddNullToObject(exe, "profile_located");
    }
    cJSON *c = cJSON_AddObjectToObject(o, "corpus");
    cJSON_AddItemToObject(c, "path", json_str_or_null(m->corpus_path));
    cJSON_AddItemToObject(c, "kind", json_str_or_null(m->corpus_kind));
    cJSON_AddItemToObject(c, "description", json_str_or_null(m->corpus_description));
    if (m->corpus_release) {
        cJSON *p = cJSON_AddObjectToObject(c, "provenance");
        json_add_str(p, "release", m->corpus_release);
        cJSON_AddItemToObject(p, "archive", json_str_or_null(m->corpus_archive));
        cJSON_AddItemToObject(p, "zzz_entry", json_str_or_null(m->corpus_zzz_entry));
        if (m->corpus_zzz_entry)
            cJSON_AddNumberToObject(p, "zzz_offset", (double)m->corpus_zzz_offset);
        else
            cJSON_AddNullToObject(p, "zzz_offset");
        cJSON_AddItemToObject(p, "lang", json_str_or_null(m->corpus_lang));
    } else {
        cJSON_AddNullToObject(c, "provenance");
    }
    if (m->synthetic_preset) {
        cJSON *s = cJSON_AddObjectToObject(c, "synthetic");
        json_add_str(s, "preset", m->synthetic_preset);
        cJSON_AddNumberToObject(s, "seed", (double)m->synthetic_seed);
    } else {
        cJSON_AddNullToObject(c, "synthetic");
    }
    cJSON *modes = cJSON_AddArrayToObject(o, "modes");
    for (int i = 0; i < MODE__COUNT; i++)
        if (m->modes & (1u << i)) cJSON_AddItemToArray(modes, json_string(mode_name(i)));
}
