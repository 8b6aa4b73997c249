/*
 * tests/support/ts.c: helpers of the regression-workflow suites. Test
 * code only.
 */
#include "common/file.h"
#include "common/le.h"
#include "tests/support/ts.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void *must(void *p)
{
    cr_assert(p != NULL, "out of memory");
    return p;
}

char *ts_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = must(malloc(n));
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

void ts_assert_error(const ff_error *err, ff_errkind kind, const char *file_suffix,
                     int64_t offset, const char *what)
{
    char msg[1024];
    ff_error_format(err, msg, sizeof msg);
    cr_assert_eq(err->kind, kind, "%s: kind %s, expected %s (%s)", what, ff_errkind_name(err->kind),
                 ff_errkind_name(kind), msg);
    if (file_suffix) {
        size_t a = strlen(err->file), b = strlen(file_suffix);
        cr_assert(a >= b && !strcmp(err->file + a - b, file_suffix),
                  "%s: error names file '%s', expected one ending in '%s' (%s)", what, err->file,
                  file_suffix, msg);
    }
    if (offset != -2)
        cr_assert_eq(err->offset, offset, "%s: offset %lld, expected %lld (%s)", what,
                     (long long)err->offset, (long long)offset, msg);
    cr_assert(err->reason[0], "%s: error without a reason", what);
}

/* Folders made by this test process (each test runs in its own process). */
#define TS_DIRS 8
static char made[TS_DIRS][4096];

char *ts_tempdir(void)
{
    const char *base = getenv("TMPDIR");
    char *t = ts_path(base && base[0] ? base : "/tmp", "ff8test-XXXXXX");
    cr_assert(mkdtemp(t) != NULL, "mkdtemp %s failed", t);
    for (int i = 0; i < TS_DIRS; i++)
        if (!made[i][0]) {
            snprintf(made[i], sizeof made[i], "%s", t);
            break;
        }
    return t;
}

static void rm_below(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char *p = ts_path(dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            rm_below(p);
            rmdir(p);
        } else {
            remove(p);
        }
        free(p);
    }
    closedir(d);
}

void ts_rmtree(char *path)
{
    if (!path) return;
    rm_below(path);
    rmdir(path);
    for (int i = 0; i < TS_DIRS; i++)
        if (!strcmp(made[i], path)) made[i][0] = '\0';
    free(path);
}

void ts_cleanup(void)
{
    for (int i = 0; i < TS_DIRS; i++)
        if (made[i][0]) {
            rm_below(made[i]);
            rmdir(made[i]);
            made[i][0] = '\0';
        }
}

char *ts_mkdir(const char *dir, const char *name)
{
    char *p = ts_path(dir, name);
    cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s failed", p);
    return p;
}

void ts_write_in(const char *dir, const char *name, const void *data, size_t size)
{
    char *p = ts_path(dir, name);
    ts_write(p, data, size);
    free(p);
}

char *ts_standin(const char *name)
{
    const char *bin = getenv("FF8DIFF_BINARY_DIR");
    cr_assert(bin, "FF8DIFF_BINARY_DIR is not set (run through ctest)");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/emu/standin", bin);
    return ts_path(dir, name);
}

void *ts_read_all(const char *path, size_t *size)
{
    char *s = ts_read(path, size);
    cr_assert(s != NULL, "cannot read %s", path);
    return s;
}

char *ts_read(const char *path, size_t *size)
{
    uint8_t *data;
    size_t n;
    if (file_read_all(path, &data, &n, NULL) < 0) return NULL;
    char *s = must(realloc(data, n + 1));
    s[n] = '\0';
    if (size) *size = n;
    return s;
}

void ts_write(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f != NULL, "cannot write %s", path);
    cr_assert(fwrite(data, 1, n, f) == n, "short write to %s", path);
    cr_assert(fclose(f) == 0, "cannot close %s", path);
}

void ts_copy_dir(const char *from, const char *to)
{
    cr_assert(mkdir(to, 0777) == 0, "cannot create %s", to);
    DIR *d = opendir(from);
    cr_assert(d != NULL, "cannot read %s", from);
    struct dirent *e;
    while ((e = readdir(d))) {
        char *src = ts_path(from, e->d_name);
        struct stat st;
        if (stat(src, &st) == 0 && S_ISREG(st.st_mode)) {
            size_t n;
            char *data = ts_read(src, &n);
            cr_assert(data != NULL, "cannot read %s", src);
            char *dst = ts_path(to, e->d_name);
            ts_write(dst, data, n);
            free(dst);
            free(data);
        }
        free(src);
    }
    closedir(d);
}

char **ts_lines(const char *path, size_t *n)
{
    char *text = ts_read(path, NULL);
    cr_assert(text != NULL, "cannot read %s", path);
    size_t cap = 64;
    char **v = must(malloc(cap * sizeof *v));
    *n = 0;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (*n == cap) v = must(realloc(v, (cap *= 2) * sizeof *v));
        v[*n] = must(strndup(p, len));
        (*n)++;
        p += len + (nl ? 1 : 0);
    }
    free(text);
    return v;
}

void ts_put_lines(const char *path, char **lines, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f != NULL, "cannot write %s", path);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n", lines[i]);
        free(lines[i]);
    }
    free(lines);
    cr_assert(fclose(f) == 0, "cannot close %s", path);
}

const char *ts_ff8diff(void)
{
    static char path[4096];
    const char *bin = getenv("FF8DIFF_BINARY_DIR");
    cr_assert(bin != NULL, "FF8DIFF_BINARY_DIR is not set (run through ctest)");
    snprintf(path, sizeof path, "%s/harness/ff8diff", bin);
    return path;
}

/* CMake's choice (tests/CMakeLists.txt), else Debian's interpreter, where the tests'
 * python3 packages are installed (a python3 earlier in PATH may be a version manager's
 * shim: a second or more per start). */
const char *ts_python(void)
{
    const char *p = getenv("FF8DIFF_PYTHON");
    if (p && *p) return p;
    return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

char *ts_source(const char *rel)
{
    const char *src = getenv("FF8DIFF_SOURCE_DIR");
    cr_assert(src != NULL, "FF8DIFF_SOURCE_DIR is not set (run through ctest)");
    return ts_path(src, rel);
}

static void run(const char *scratch, ts_out *o, const char *prefix, const char *fmt, va_list ap)
{
    char args[8192], cmd[12288];
    vsnprintf(args, sizeof args, fmt, ap);
    char *out = ts_path(scratch, "cmd.out"), *err = ts_path(scratch, "cmd.err");
    /* Braces and an export, so every command of a list gets the scratch cache and has
     * its output captured, not only the first's cache and the last one's output. */
    snprintf(cmd, sizeof cmd, "{ export FF8DIFF_CACHE_DIR='%s/cache'; %s%s\n} >'%s' 2>'%s'",
             scratch, prefix, args, out, err);
    int st = system(cmd);
    o->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    o->out = ts_read(out, NULL);
    o->err = ts_read(err, NULL);
    cr_assert(o->out && o->err, "no output of: %s", cmd);
    remove(out);
    remove(err);
    free(out);
    free(err);
}

void ts_cli(const char *scratch, ts_out *o, const char *fmt, ...)
{
    char prefix[4200];
    snprintf(prefix, sizeof prefix, "'%s' ", ts_ff8diff());
    va_list ap;
    va_start(ap, fmt);
    run(scratch, o, prefix, fmt, ap);
    va_end(ap);
}

void ts_sh(const char *scratch, ts_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    run(scratch, o, "", fmt, ap);
    va_end(ap);
}

void ts_out_free(ts_out *o)
{
    free(o->out);
    free(o->err);
    o->out = o->err = NULL;
}

const char *ts_chromium(void)
{
    const char *c = getenv("FF8DIFF_CHROMIUM");
    if (!c || !*c) c = "chromium";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", c);
    cr_assert_eq(system(cmd), 0,
                 "Chromium not found (%s): install Debian's chromium package or set "
                 "FF8DIFF_CHROMIUM to a Chromium binary",
                 c);
    return c;
}

void ts_chromium_run(const char *scratch, ts_out *o, const char *page, const char *flags)
{
    const char *c = ts_chromium();
    char *profile = ts_path(scratch, "chromium-profile-XXXXXX");
    cr_assert(mkdtemp(profile) != NULL, "cannot make a profile folder under %s", scratch);
    ts_sh(scratch, o,
          "timeout 120 '%s' --headless --no-sandbox --disable-gpu --disable-software-rasterizer "
          "--disable-background-networking --disable-component-update --disable-sync "
          "--no-first-run --user-data-dir='%s' %s 'file://%s'",
          c, profile, flags, page);
    free(profile);
}

char *ts_corpus(const char *scratch)
{
    char *dir = ts_path(scratch, "corpus");
    const char *built = getenv("FF8DIFF_SMALL_CORPUS");
    if (built && *built) {
        ts_copy_dir(built, dir);
        return dir;
    }
    ts_out o;
    ts_cli(scratch, &o, "corpus synth --out '%s' --preset small --seed 1", dir);
    cr_assert_eq(o.status, 0, "corpus synth failed: %s", o.err);
    ts_out_free(&o);
    return dir;
}

cJSON *ts_json(const char *path)
{
    char *text = ts_read(path, NULL);
    cr_assert(text != NULL, "cannot read %s", path);
    cJSON *j = cJSON_Parse(text);
    cr_assert(j != NULL, "%s is not JSON", path);
    free(text);
    return j;
}

char *ts_run_file(const char *reports_dir, const char *name)
{
    DIR *d = opendir(reports_dir);
    cr_assert(d != NULL, "no reports folder %s", reports_dir);
    char best[256] = "";
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && strcmp(e->d_name, best) > 0)
            snprintf(best, sizeof best, "%s", e->d_name);
    closedir(d);
    cr_assert(best[0], "no report in %s", reports_dir);
    char *dir = ts_path(reports_dir, best), *file = ts_path(dir, name);
    free(dir);
    return file;
}

cJSON *ts_report(const char *reports_dir)
{
    char *file = ts_run_file(reports_dir, "report.json");
    cJSON *j = ts_json(file);
    free(file);
    return j;
}

char *ts_quote(const char *s)
{
    size_t n = 3;
    for (const char *c = s; *c; c++) n += *c == '\'' ? 4 : 1;
    char *q = malloc(n), *w = q;
    cr_assert(q != NULL);
    *w++ = '\'';
    for (const char *c = s; *c; c++) {
        if (*c == '\'') {
            memcpy(w, "'\\''", 4);
            w += 4;
        } else {
            *w++ = *c;
        }
    }
    *w++ = '\'';
    *w = '\0';
    return q;
}

void ts_assert_schema(const char *scratch, const char *schema_rel, const char *files_sh)
{
    char *schema = ts_source(schema_rel), *script = ts_source("tests/js/schema.mjs");
    ts_out o;
    ts_sh(scratch, &o, "node '%s' '%s' %s", script, schema, files_sh);
    cr_assert_eq(o.status, 0,
                 "%s does not validate against %s (exit %d; 2: node or its packages missing, "
                 "see scripts/setup.sh):\n%s%s",
                 files_sh, schema_rel, o.status, o.out, o.err);
    ts_out_free(&o);
    free(script);
    free(schema);
}

void ts_assert_valid(const char *scratch, const char *report_json)
{
    char *quoted = ts_quote(report_json);
    ts_assert_schema(scratch, "reports/schema/report.schema.json", quoted);
    free(quoted);
}

double ts_num(const cJSON *root, const char *dotted)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", dotted);
    const cJSON *o = root;
    for (char *save, *w = strtok_r(buf, ".", &save); w; w = strtok_r(NULL, ".", &save))
        o = cJSON_GetObjectItemCaseSensitive(o, w);
    cr_assert(cJSON_IsNumber(o), "%s is not a number in the report", dotted);
    return o->valuedouble;
}

const cJSON *ts_result(const cJSON *report, const char *file, int clip, const char *mode)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(report, "results"))
    {
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(r, "file");
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(r, "clip");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(r, "mode");
        if (!strcmp(f->valuestring, file) && (int)c->valuedouble == clip &&
            !strcmp(m->valuestring, mode))
            return r;
    }
    return NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **ts_dat_names(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    cr_assert(d != NULL, "cannot read %s", dir);
    char **v = must(malloc(256 * sizeof *v));
    *n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".dat")) {
            cr_assert(*n < 256, "too many files in %s", dir);
            v[(*n)++] = must(strdup(e->d_name));
        }
    }
    closedir(d);
    qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

unsigned ts_dat_clips(const char *path, unsigned *bones)
{
    size_t size;
    unsigned char *d = (unsigned char *)ts_read(path, &size);
    cr_assert(d != NULL && size >= 16, "cannot read %s", path);
    uint32_t n = le_u32(d);
    unsigned clips = 0;
    *bones = 0;
    /* Section counts of the kinds that hold a skeleton and animations. */
    if (n == 11 || n == 7 || n == 10 || n == 8) {
        uint32_t skel = le_u32(d + 4), anim = le_u32(d + 4 + 4 * 2);
        cr_assert(skel < size && anim + 4 <= size, "%s: sections past the end", path);
        *bones = d[skel];
        clips = le_u32(d + anim);
    }
    free(d);
    return clips;
}

void ts_sha256(const char *path, char out[65])
{
    size_t size;
    char *d = ts_read(path, &size);
    cr_assert(d != NULL, "cannot read %s", path);
    unsigned char md[32];
    unsigned len = 0;
    cr_assert(EVP_Digest(d, size, md, &len, EVP_sha256(), NULL) == 1 && len == 32);
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
    free(d);
}

size_t ts_count(const char *hay, const char *needle)
{
    size_t n = 0, len = strlen(needle);
    for (const char *p = hay; (p = strstr(p, needle)); p += len)
        n++;
    return n;
}

void ts_assert_mem(const void *actual, const void *expected, size_t n, const char *what)
{
    const uint8_t *a = actual, *e = expected;
    size_t i = 0;
    while (i < n && a[i] == e[i])
        i++;
    if (i == n) return;
    char dump[2][200];
    size_t lo = i >= 8 ? i - 8 : 0, hi = i + 8 < n ? i + 8 : n;
    for (int side = 0; side < 2; side++) {
        const uint8_t *p = side ? e : a;
        size_t used = 0;
        for (size_t k = lo; k < hi && used + 6 < sizeof dump[side]; k++)
            used += (size_t)snprintf(dump[side] + used, sizeof dump[side] - used,
                                     k == i ? "[%02x]" : " %02x ", p[k]);
    }
    cr_assert_fail("%s: first difference at byte %zu (0x%zx)\n  actual:   %s\n  expected: %s", what,
                   i, i, dump[0], dump[1]);
}

void ts_mini_pe(uint8_t pe[TS_MINI_PE_SIZE], int dll)
{
    memset(pe, 0, TS_MINI_PE_SIZE);
    pe[0] = 'M';
    pe[1] = 'Z';
    le_put32(pe + 0x3C, 0x40);
    memcpy(pe + 0x40, "PE\0\0", 4);
    uint8_t *coff = pe + 0x44;
    le_put16(coff, 0x14C);                               /* i386 */
    le_put16(coff + 2, 1);                               /* one section */
    le_put16(coff + 16, 0xE0);                           /* optional header size */
    le_put16(coff + 18, dll ? 0x2102 : 0x0102);          /* executable, 32-bit, DLL */
    uint8_t *opt = pe + 0x58;
    le_put16(opt, 0x10B);
    le_put32(opt + 16, 0x1000);   /* entry */
    le_put32(opt + 28, 0x400000); /* image base */
    le_put32(opt + 32, 0x1000);   /* section alignment */
    le_put32(opt + 36, 0x200);    /* file alignment */
    le_put32(opt + 56, 0x2000);   /* SizeOfImage */
    le_put32(opt + 60, 0x200);    /* SizeOfHeaders */
    le_put16(opt + 68, 2);        /* GUI */
    le_put32(opt + 92, 16);       /* data directories */
    uint8_t *sec = opt + 0xE0;
    memcpy(sec, ".text", 5);
    le_put32(sec + 8, 0x10);
    le_put32(sec + 12, 0x1000);
    le_put32(sec + 16, 0x200);
    le_put32(sec + 20, 0x200);
    le_put32(sec + 36, 0x60000020);
    static const uint8_t code[] = {0x31, 0xC0, 0xC3};
    memcpy(pe + 0x200, code, sizeof code);
}
