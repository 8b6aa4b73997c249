/*
 * harness/traces/traceset.c: manifest.json of a recorded trace folder, written
 * from a run's results and read back for `check`.
 */
#include "harness/traces/traceset.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/json_read.h"
#include "common/path.h"
#include "corpus/fileio.h"
#include "harness/core/json_out.h"
#include "harness/traces/json_keys.h"
#include "harness/traces/trace_json.h"

/* ---- faults read back (written by json_fault, as in report.json) ---- */

static const char *const reg_names[EMU__NREGS] = {"eax", "ecx", "edx", "ebx", "esp",
                                                  "ebp", "esi", "edi", "eip", "eflags"};

static int hex_of(const cJSON *o, const char *key, uint32_t *v)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(s) || strncmp(s->valuestring, "0x", 2) != 0) return -1;
    char *end;
    unsigned long x = strtoul(s->valuestring + 2, &end, 16);
    if (*end || end == s->valuestring + 2 || x > 0xFFFFFFFFul) return -1;
    *v = (uint32_t)x;
    return 0;
}

/* The string at key into dst (n bytes); -1 when it is missing or longer than dst holds. */
static int text_of(const cJSON *o, const char *key, char *dst, size_t n)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(s) || strlen(s->valuestring) >= n) return -1;
    snprintf(dst, n, "%s", s->valuestring);
    return 0;
}

/* The disassembly lines joined with '\n', as emu_fault holds them. */
static int disasm_of(const cJSON *o, char *dst, size_t n)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(o, "disassembly"), *line;
    if (!cJSON_IsArray(arr)) return -1;
    size_t used = 0;
    dst[0] = '\0';
    cJSON_ArrayForEach(line, arr)
    {
        if (!cJSON_IsString(line)) return -1;
        int k = snprintf(dst + used, n - used, "%s%s", used ? "\n" : "", line->valuestring);
        if (k < 0 || (size_t)k >= n - used) break; /* as much as fits, like the writer */
        used += (size_t)k;
    }
    return 0;
}

static int fault_from_json(const cJSON *o, emu_fault *f)
{
    memset(f, 0, sizeof *f);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(o, "kind");
    if (!cJSON_IsString(kind)) return -1;
    int k = -1;
    for (int i = 0; i < EMU_FAULT__COUNT && k < 0; i++)
        if (strcmp(emu_fault_name((emu_fault_kind)i), kind->valuestring) == 0) k = i;
    const cJSON *regs = cJSON_GetObjectItemCaseSensitive(o, "registers");
    const cJSON *imp = cJSON_GetObjectItemCaseSensitive(o, "import");
    if (k < 0 || hex_of(o, "routine", &f->routine) < 0 || hex_of(o, "eip", &f->eip) < 0 ||
        hex_of(o, "address", &f->addr) < 0 || !cJSON_IsObject(regs) ||
        !(cJSON_IsObject(imp) || cJSON_IsNull(imp)) ||
        text_of(o, "detail", f->detail, sizeof f->detail) < 0 ||
        disasm_of(o, f->disasm, sizeof f->disasm) < 0)
        return -1;
    if (cJSON_IsObject(imp) && (text_of(imp, "dll", f->import_dll, sizeof f->import_dll) < 0 ||
                                text_of(imp, "name", f->import_name, sizeof f->import_name) < 0 ||
                                hex_of(imp, "caller", &f->caller) < 0))
        return -1;
    for (int i = 0; i < EMU__NREGS; i++)
        if (hex_of(regs, reg_names[i], &f->regs[i]) < 0) return -1;
    f->kind = (emu_fault_kind)k;
    return 0;
}

/* ---- writing ---- */

static int trace_present(const char *dir, const char *name, mode_id m, int compressed, char *file,
                         size_t n)
{
    char path[4600];
    tj_file_name(file, n, name, m, compressed);
    /* A path too long to build names no file that can be there. */
    return path_join(path, sizeof path, dir, file, NULL) == 0 && access(path, R_OK) == 0;
}

static void add_fault(cJSON *fa, const clip_result *c)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "mode", mode_name(c->mode));
    cJSON_AddNumberToObject(e, "anim", c->clip);
    cJSON_AddNumberToObject(e, "ticks", c->orig_ticks);
    cJSON_AddItemToObject(e, "fault", json_fault(c->fault));
    cJSON_AddItemToArray(fa, e);
}

static cJSON *file_json(const char *dir, const run_meta *m, const run_results *r, size_t fi,
                        int compressed, uint64_t *ntraces, uint64_t *nfaults)
{
    const run_file *f = &r->files[fi];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "name", json_string(f->name));
    cJSON_AddStringToObject(o, "sha256", f->sha256);
    cJSON_AddItemToObject(o, "origin", json_str_or_null(f->origin));
    cJSON_AddNumberToObject(o, "size", (double)f->size);
    cJSON_AddItemToObject(o, "kind", json_str_or_null(f->parsed ? dat_kind_name(f->kind) : NULL));
    cJSON_AddNumberToObject(o, "bones", f->bones);
    cJSON_AddNumberToObject(o, "clips", f->clips);
    cJSON_AddStringToObject(o, "status", f->parsed ? "ok" : "bad_input");
    if (f->parsed) {
        cJSON_AddNullToObject(o, "error");
    } else {
        char msg[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64];
        cJSON_AddItemToObject(o, "error", json_string(ff_error_format(&f->error, msg, sizeof msg)));
    }
    cJSON *tr = cJSON_AddObjectToObject(o, "traces");
    for (int k = 0; f->parsed && dat_kind_has_model(f->kind) && k < MODE__COUNT; k++) {
        char file[600];
        if ((m->modes & (1u << k)) &&
            trace_present(dir, f->name, (mode_id)k, compressed, file, sizeof file)) {
            cJSON_AddItemToObject(tr, mode_name((mode_id)k), json_string(file));
            (*ntraces)++;
        }
    }
    cJSON *fa = cJSON_AddArrayToObject(o, "faults");
    for (size_t i = 0; i < r->nresults; i++) {
        const clip_result *c = &r->results[i];
        if (c->file != fi || !c->fault || c->clip < 0) continue;
        add_fault(fa, c);
        (*nfaults)++;
    }
    return o;
}

/* One entity's entry: its pair, its files' SHA-256, its trace files and faults. */
static cJSON *entity_json(const char *dir, const run_meta *m, const run_results *r,
                          size_t ei, int compressed, uint64_t *ntraces, uint64_t *nfaults)
{
    const res_entity *en = &r->entities[ei];
    const run_file *b = &r->files[en->body], *w = en->weapon >= 0 ? &r->files[en->weapon] : NULL;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "body", json_string(b->name));
    cJSON_AddItemToObject(o, "weapon", json_str_or_null(w ? w->name : NULL));
    cJSON_AddStringToObject(o, "body_sha256", b->sha256);
    cJSON_AddItemToObject(o, "weapon_sha256", json_str_or_null(w ? w->sha256 : NULL));
    cJSON *tr = cJSON_AddObjectToObject(o, "traces");
    for (int k = 0; k < MODE__COUNT; k++) {
        char file[1200], path[5400];
        tj_entity_file_name(file, sizeof file, b->name, w ? w->name : NULL, (mode_id)k, compressed);
        if ((m->modes & (1u << k)) && en->clips &&
            path_join(path, sizeof path, dir, file, NULL) == 0 && access(path, R_OK) == 0) {
            cJSON_AddItemToObject(tr, mode_name((mode_id)k), json_string(file));
            (*ntraces)++;
        }
    }
    cJSON *fa = cJSON_AddArrayToObject(o, "faults");
    for (size_t i = 0; i < r->nentity_results; i++) {
        const entity_result *er = &r->entity_results[i];
        if (er->entity != ei || !er->r.fault) continue;
        add_fault(fa, &er->r);
        (*nfaults)++;
    }
    return o;
}

static cJSON *build(const char *dir, const run_meta *m, const run_results *r, int compressed)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    char now[32];
    run_meta_now_iso(now, sizeof now);
    cJSON_AddStringToObject(root, "format", TSET_FORMAT);
    cJSON_AddStringToObject(root, "created", now);
    cJSON_AddNumberToObject(root, "trace_format", 1);
    json_identity(root, m);
    cJSON_AddStringToObject(root, "bone_matrices",
                            m->pose_level       ? "compared"
                            : m->keep_matrices ? "original"
                                               : "replaced_by_return");
    /* The pose level: the traces carry "mat", "world", "placed" under this convention. */
    if (r->pose.source != POSE_CONV_NONE) {
        cJSON *pose = cJSON_AddObjectToObject(root, "pose");
        cJSON_AddStringToObject(pose, "convention", r->pose.chosen);
        cJSON_AddStringToObject(pose, "source", pose_conv_source_name(r->pose.source));
    } else {
        cJSON_AddNullToObject(root, "pose");
    }
    cJSON_AddBoolToObject(root, "compressed", compressed);
    cJSON_AddItemToObject(root, "compression",
                          compressed ? cJSON_CreateString("lz4-frame") : cJSON_CreateNull());
    cJSON *files = cJSON_AddArrayToObject(root, "files");
    uint64_t ntraces = 0, nfaults = 0, clips = 0;
    for (size_t i = 0; i < r->nfiles; i++) {
        cJSON_AddItemToArray(files, file_json(dir, m, r, i, compressed, &ntraces, &nfaults));
        if (r->files[i].parsed && dat_kind_has_model(r->files[i].kind)) clips += r->files[i].clips;
    }
    if (r->nentities) {
        cJSON *ents = cJSON_AddArrayToObject(root, "entities");
        for (size_t i = 0; i < r->nentities; i++)
            cJSON_AddItemToArray(ents,
                                 entity_json(dir, m, r, i, compressed, &ntraces, &nfaults));
    }
    cJSON *t = cJSON_AddObjectToObject(root, "totals");
    cJSON_AddNumberToObject(t, "files", (double)r->nfiles);
    cJSON_AddNumberToObject(t, "entities", (double)r->nentities);
    cJSON_AddNumberToObject(t, "trace_files", (double)ntraces);
    cJSON_AddNumberToObject(t, "clips", (double)clips);
    cJSON_AddNumberToObject(t, "faults", (double)nfaults);
    return root;
}

int tset_write(const char *dir, const run_meta *m, const run_results *r, int compressed,
               ff_error *err)
{
    cJSON *root = build(dir, m, r, compressed);
    char *text = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text) return ff_error_set(err, FF_E_NOMEM, TSET_MANIFEST, -1, "out of memory");
    char path[4200];
    if (path_join(path, sizeof path, dir, TSET_MANIFEST, err) < 0) {
        cJSON_free(text);
        return -1;
    }
    strbuf b;
    sb_init(&b);
    sb_puts(&b, text);
    sb_putc(&b, '\n');
    cJSON_free(text);
    int rc = strbuf_failed(&b) ? ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory")
                               : fio_write_atomic(path, (const uint8_t *)b.s, b.len, err);
    sb_free(&b);
    return rc;
}

/* ---- reading ---- */

static int bad(ff_error *err, const char *path, const char *what)
{
    return ff_error_set(err, FF_E_FORMAT, path, -1, "not an %s manifest: %s", TSET_FORMAT, what);
}

static int opt_text(const cJSON *o, const char *key, char *dst, size_t n)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsNull(s) || !s) {
        dst[0] = '\0';
        return 0;
    }
    return text_of(o, key, dst, n);
}

static int read_head(const cJSON *root, tset *s, const char *path, ff_error *err)
{
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, TSET_FORMAT) != 0)
        return bad(err, path, "\"format\" missing or not \"" TSET_FORMAT "\"");
    const cJSON *tool = cJSON_GetObjectItemCaseSensitive(root, "tool");
    const cJSON *exe = cJSON_GetObjectItemCaseSensitive(root, "executable");
    const cJSON *corp = cJSON_GetObjectItemCaseSensitive(root, "corpus");
    if (!cJSON_IsObject(tool) || text_of(tool, "version", s->version, sizeof s->version) < 0)
        return bad(err, path, "\"tool.version\" missing");
    if (!cJSON_IsObject(exe) || opt_text(exe, "path", s->exe_path, sizeof s->exe_path) < 0 ||
        opt_text(exe, "sha256", s->exe_sha256, sizeof s->exe_sha256) < 0 ||
        opt_text(exe, "profile", s->profile, sizeof s->profile) < 0 ||
        text_of(exe, "verdict", s->verdict, sizeof s->verdict) < 0)
        return bad(err, path, "\"executable\" missing or incomplete");
    if (!cJSON_IsObject(corp) || opt_text(corp, "path", s->corpus_path, sizeof s->corpus_path) < 0)
        return bad(err, path, "\"corpus\" missing or incomplete");
    const cJSON *syn = cJSON_GetObjectItemCaseSensitive(corp, "synthetic");
    if (cJSON_IsObject(syn)) {
        const cJSON *seed = cJSON_GetObjectItemCaseSensitive(syn, "seed");
        /* Range before the cast: converting a double past 2^64 is undefined. */
        if (text_of(syn, "preset", s->preset, sizeof s->preset) < 0 || !cJSON_IsNumber(seed) ||
            !(seed->valuedouble >= 0 && seed->valuedouble < 18446744073709551616.0))
            return bad(err, path, "\"corpus.synthetic\" incomplete");
        s->synthetic = 1;
        s->seed = (uint64_t)seed->valuedouble;
    }
    const cJSON *modes = cJSON_GetObjectItemCaseSensitive(root, "modes"), *m;
    if (!cJSON_IsArray(modes)) return bad(err, path, "\"modes\" missing");
    cJSON_ArrayForEach(m, modes)
    {
        int id = cJSON_IsString(m) ? mode_from_name(m->valuestring) : -1;
        if (id < 0) return bad(err, path, "\"modes\" holds an unknown mode");
        s->modes |= 1u << id;
    }
    s->compressed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "compressed"));
    const cJSON *pose = cJSON_GetObjectItemCaseSensitive(root, "pose");
    if (cJSON_IsObject(pose)) {
        ref_pose_opts o;
        ff_error e;
        if (text_of(pose, "convention", s->pose_convention, sizeof s->pose_convention) < 0 ||
            ref_pose_opts_parse(s->pose_convention, &o, &e) < 0)
            return bad(err, path, "\"pose.convention\" is not a pose convention");
        s->pose = 1;
    } else if (pose && !cJSON_IsNull(pose)) {
        return bad(err, path, "\"pose\" is neither null nor an object");
    }
    return 0;
}

static int read_faults(const cJSON *arr, tset_file *f, const char *path, ff_error *err)
{
    if (!cJSON_IsArray(arr)) return bad(err, path, "a file's \"faults\" is not an array");
    int n = cJSON_GetArraySize(arr);
    f->faults = calloc(n ? (size_t)n : 1, sizeof *f->faults);
    if (!f->faults) return ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        tset_fault *t = &f->faults[f->nfaults];
        const cJSON *mode = cJSON_GetObjectItemCaseSensitive(e, "mode");
        const cJSON *anim = cJSON_GetObjectItemCaseSensitive(e, "anim");
        const cJSON *ticks = cJSON_GetObjectItemCaseSensitive(e, "ticks");
        int m = cJSON_IsString(mode) ? mode_from_name(mode->valuestring) : -1;
        if (m < 0 || !cJSON_IsNumber(anim) || anim->valuedouble < 0 || anim->valuedouble > 255 ||
            !cJSON_IsNumber(ticks) || ticks->valuedouble < 0 || ticks->valuedouble > 4096 ||
            fault_from_json(cJSON_GetObjectItemCaseSensitive(e, "fault"), &t->fault) < 0) {
            char what[400];
            snprintf(what, sizeof what, "fault record %zu of %s is incomplete", f->nfaults,
                     f->name);
            return bad(err, path, what);
        }
        t->mode = (mode_id)m;
        t->anim = (uint32_t)anim->valuedouble;
        t->ticks = (uint32_t)ticks->valuedouble;
        f->nfaults++;
    }
    return 0;
}

static int read_file(const cJSON *o, tset_file *f, const char *path, ff_error *err)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
    const cJSON *sha = cJSON_GetObjectItemCaseSensitive(o, "sha256");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(o, "status");
    const cJSON *traces = cJSON_GetObjectItemCaseSensitive(o, "traces");
    if (!cJSON_IsString(name) || !cJSON_IsString(sha) || strlen(sha->valuestring) > 64 ||
        !cJSON_IsString(status) || !cJSON_IsObject(traces))
        return bad(err, path, "a file entry lacks name, sha256, status or traces");
    if (!(f->name = strdup(name->valuestring)))
        return ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    snprintf(f->sha256, sizeof f->sha256, "%s", sha->valuestring);
    f->ok = strcmp(status->valuestring, "ok") == 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, traces)
    {
        int m = mode_from_name(t->string);
        if (m < 0 || !cJSON_IsString(t) || strchr(t->valuestring, '/'))
            return bad(err, path, "a file's \"traces\" names an unknown mode or a path");
        free(f->trace[m]);
        if (!(f->trace[m] = strdup(t->valuestring)))
            return ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    }
    return read_faults(cJSON_GetObjectItemCaseSensitive(o, "faults"), f, path, err);
}

static int read_entity(const cJSON *o, tset_entity *e, const char *path, ff_error *err)
{
    const cJSON *body = cJSON_GetObjectItemCaseSensitive(o, "body");
    const cJSON *weapon = cJSON_GetObjectItemCaseSensitive(o, "weapon");
    const cJSON *traces = cJSON_GetObjectItemCaseSensitive(o, "traces");
    if (!cJSON_IsString(body) || !(cJSON_IsString(weapon) || cJSON_IsNull(weapon)) ||
        text_of(o, "body_sha256", e->body_sha256, sizeof e->body_sha256) < 0 ||
        opt_text(o, "weapon_sha256", e->weapon_sha256, sizeof e->weapon_sha256) < 0 ||
        !cJSON_IsObject(traces))
        return bad(err, path, "an entity entry lacks body, weapon, their sha256 or traces");
    char pair[2 * TJ_NAME_MAX + 2];
    tj_pair_name(pair, sizeof pair, body->valuestring,
                 cJSON_IsString(weapon) ? weapon->valuestring : NULL);
    if (!(e->body = strdup(body->valuestring)) || !(e->f.name = strdup(pair)) ||
        (cJSON_IsString(weapon) && !(e->weapon = strdup(weapon->valuestring))))
        return ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    e->f.ok = 1;
    const cJSON *t;
    cJSON_ArrayForEach(t, traces)
    {
        int m = mode_from_name(t->string);
        if (m < 0 || !cJSON_IsString(t) || strchr(t->valuestring, '/'))
            return bad(err, path, "an entity's \"traces\" names an unknown mode or a path");
        free(e->f.trace[m]);
        if (!(e->f.trace[m] = strdup(t->valuestring)))
            return ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    }
    return read_faults(cJSON_GetObjectItemCaseSensitive(o, "faults"), &e->f, path, err);
}

static int cmp_entity(const void *a, const void *b)
{
    return strcmp(((const tset_entity *)a)->f.name, ((const tset_entity *)b)->f.name);
}

static int read_entities(const cJSON *root, tset *s, const char *path, ff_error *err)
{
    const cJSON *ents = cJSON_GetObjectItemCaseSensitive(root, "entities"), *o;
    if (!ents) return 0; /* recorded before the entity level, or without it */
    if (!cJSON_IsArray(ents)) return bad(err, path, "\"entities\" is not an array");
    int n = cJSON_GetArraySize(ents);
    s->entities = calloc(n ? (size_t)n : 1, sizeof *s->entities);
    if (!s->entities) return ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    cJSON_ArrayForEach(o, ents)
    {
        if (read_entity(o, &s->entities[s->nentities++], path, err) < 0) return -1;
    }
    qsort(s->entities, s->nentities, sizeof *s->entities, cmp_entity);
    for (size_t i = 1; i < s->nentities; i++)
        if (strcmp(s->entities[i - 1].f.name, s->entities[i].f.name) == 0)
            return bad(err, path, "an entity is listed twice");
    return 0;
}

static int cmp_file(const void *a, const void *b)
{
    return strcmp(((const tset_file *)a)->name, ((const tset_file *)b)->name);
}

static int read_files(const cJSON *root, tset *s, const char *path, ff_error *err)
{
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(root, "files"), *o;
    if (!cJSON_IsArray(files)) return bad(err, path, "\"files\" missing");
    int n = cJSON_GetArraySize(files);
    s->files = calloc(n ? (size_t)n : 1, sizeof *s->files);
    if (!s->files) return ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    cJSON_ArrayForEach(o, files)
    {
        if (read_file(o, &s->files[s->nfiles++], path, err) < 0) return -1;
    }
    qsort(s->files, s->nfiles, sizeof *s->files, cmp_file);
    for (size_t i = 1; i < s->nfiles; i++)
        if (strcmp(s->files[i - 1].name, s->files[i].name) == 0)
            return bad(err, path, "a file is listed twice");
    return 0;
}

int tset_load(const char *dir, tset **out, ff_error *err)
{
    *out = NULL;
    char path[4200];
    if (path_join(path, sizeof path, dir, TSET_MANIFEST, err) < 0) return -1;
    if (access(path, F_OK) != 0) return 0;
    uint8_t *data;
    size_t size;
    if (file_read(path, 0, TSET_MANIFEST_MAX, &data, &size, err) < 0) return -1;
    /* Some tens of values a file and a fault: 4 M values hold any corpus. */
    static const json_read_limits lim = {1u << 22, 32};
    cJSON *root = NULL;
    int parsed = json_read_doc((const char *)data, size, &lim, path, &root, err);
    free(data);
    if (parsed < 0) return -1;
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return ff_error_set(err, FF_E_FORMAT, path, -1, "not valid JSON: not an object");
    }
    char key[256], what[320];
    if (json_keys_duplicate(root, key, sizeof key)) {
        cJSON_Delete(root);
        snprintf(what, sizeof what, "key \"%s\" appears twice in one object", key);
        return bad(err, path, what);
    }
    tset *s = calloc(1, sizeof *s);
    int rc = s ? 0 : ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    if (rc == 0) rc = read_head(root, s, path, err);
    if (rc == 0) rc = read_files(root, s, path, err);
    if (rc == 0) rc = read_entities(root, s, path, err);
    cJSON_Delete(root);
    if (rc < 0) {
        tset_free(s);
        return -1;
    }
    *out = s;
    return 1;
}

static void file_free(tset_file *f)
{
    free(f->name);
    for (int m = 0; m < MODE__COUNT; m++) free(f->trace[m]);
    free(f->faults);
}

void tset_free(tset *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nfiles; i++) file_free(&s->files[i]);
    for (size_t i = 0; i < s->nentities; i++) {
        file_free(&s->entities[i].f);
        free(s->entities[i].body);
        free(s->entities[i].weapon);
    }
    free(s->files);
    free(s->entities);
    free(s);
}

const tset_entity *tset_find_entity(const tset *s, const char *body, const char *weapon)
{
    char pair[2 * TJ_NAME_MAX + 2];
    tj_pair_name(pair, sizeof pair, body, weapon);
    tset_entity key;
    memset(&key, 0, sizeof key);
    key.f.name = pair;
    return s->nentities ? bsearch(&key, s->entities, s->nentities, sizeof *s->entities, cmp_entity)
                        : NULL;
}

const tset_file *tset_find(const tset *s, const char *name)
{
    tset_file key;
    memset(&key, 0, sizeof key);
    key.name = (char *)name;
    return bsearch(&key, s->files, s->nfiles, sizeof *s->files, cmp_file);
}

const tset_fault *tset_fault_of(const tset_file *f, mode_id mode, uint32_t anim)
{
    for (size_t i = 0; i < f->nfaults; i++)
        if (f->faults[i].mode == mode && f->faults[i].anim == anim) return &f->faults[i];
    return NULL;
}
