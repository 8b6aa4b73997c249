/*
 * tests/hostile/hs.c: helpers of the hostile-input suites (see hs.h).
 */
#define _XOPEN_SOURCE 700
#include "common/le.h"
#include "tests/hostile/hs.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/file.h"
#include "corpus/synth.h"

const char *const hs_modes[4] = {"normal", "slow", "fast", "slow+fast"};

void hs_write(const char *dir, const char *name, const void *data, size_t size)
{
    char *p = ts_path(dir, name);
    ts_write(p, data, size);
    free(p);
}

uint8_t *hs_monster(unsigned bones, unsigned nclips, const uint8_t *frames, uint64_t seed,
                    size_t *size)
{
    synth_clip_spec clip[16];
    cr_assert(nclips <= 16, "hs_monster: at most 16 clips");
    for (unsigned i = 0; i < nclips; i++)
        clip[i] = (synth_clip_spec){frames[i], (uint8_t)(i & 1), SYNTH_CLIP_RANDOM};
    synth_file_spec spec = {DAT_MONSTER, seed, seed + 1, bones, nclips, clip, 64};
    uint8_t *data;
    ff_error e;
    cr_assert(synth_build_file(&spec, &data, size, &e) == 0, "synth_build_file: %s", e.reason);
    return data;
}

unsigned hs_clips(const uint8_t *data, size_t size)
{
    /* Kinds with a model: 11, 7, 10 and 8 sections (docs/engine.md section 6). */
    if (size < 16) return 0;
    uint32_t n = le_u32(data);
    if (n != 11 && n != 7 && n != 10 && n != 8) return 0;
    uint32_t anim = le_u32(data + 12); /* section 2 */
    cr_assert(anim + 4 <= size, "hs_clips: animation section past the end");
    return le_u32(data + anim);
}

static char *bin_path(const char *rel)
{
    const char *root = getenv("FF8DIFF_BINARY_DIR");
    cr_assert(root && root[0], "FF8DIFF_BINARY_DIR is not set (run through ctest)");
    return ts_path(root, rel);
}

const char *hs_cli(void)
{
    static char *cli; /* one per test process */
    if (!cli) cli = bin_path("harness/ff8diff");
    cr_assert(access(cli, X_OK) == 0, "%s is not built", cli);
    return cli;
}

char *hs_standin(const char *name)
{
    const char *dir = getenv("FF8DIFF_STANDIN_DIR");
    char *p = dir && dir[0] ? ts_path(dir, name) : NULL;
    if (!p) p = ts_standin(name);
    cr_assert(access(p, R_OK) == 0, "%s is not built", p);
    return p;
}

int hs_run(const char *const *argv, const char *cache_dir, const char *log_dir)
{
    return hs_run_limited(argv, cache_dir, log_dir, 0, 0);
}

int hs_run_limited(const char *const *argv, const char *cache_dir, const char *log_dir,
                   uint64_t as_bytes, uint64_t fsize_bytes)
{
    char *out = ts_path(log_dir, "stdout"), *err = ts_path(log_dir, "stderr");
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork failed");
    if (pid == 0) {
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(126);
        setenv("FF8DIFF_CACHE_DIR", cache_dir, 1);
        struct rlimit as = {as_bytes, as_bytes}, fs = {fsize_bytes, fsize_bytes};
        if (as_bytes && setrlimit(RLIMIT_AS, &as) != 0) _exit(125);
        if (fsize_bytes && setrlimit(RLIMIT_FSIZE, &fs) != 0) _exit(125);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    cr_assert(waitpid(pid, &st, 0) == pid, "waitpid failed");
    free(out);
    free(err);
    if (WIFSIGNALED(st)) return 128 + WTERMSIG(st);
    return WEXITSTATUS(st);
}

char *hs_log(const char *log_dir, const char *name)
{
    char *p = ts_path(log_dir, name);
    char *s = ts_read(p, NULL);
    cr_assert(s, "no %s", p);
    free(p);
    return s;
}

cJSON *hs_report(const char *out_dir)
{
    DIR *d = opendir(out_dir);
    cr_assert(d, "no reports folder %s", out_dir);
    char *found = NULL;
    int runs = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.') continue;
        runs++;
        free(found);
        found = ts_path(out_dir, de->d_name);
    }
    closedir(d);
    cr_assert(runs == 1 && found, "%s holds %d runs, expected 1", out_dir, runs);
    char *path = ts_path(found, "report.json");
    uint8_t *text;
    size_t size;
    ff_error e;
    cr_assert(file_read_all(path, &text, &size, &e) == 0, "%s: %s", path, e.reason);
    cJSON *report = cJSON_ParseWithLength((const char *)text, size);
    cr_assert(report, "%s is not valid JSON", path);
    free(text);
    free(path);
    free(found);
    return report;
}

double hs_num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(cJSON_IsNumber(v), "report: \"%s\" missing or not a number", key);
    return v->valuedouble;
}

const char *hs_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(cJSON_IsString(v), "report: \"%s\" missing or not a string", key);
    return v->valuestring;
}

const cJSON *hs_result(const cJSON *report, const char *file, int clip, const char *mode)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(report, "results"))
    {
        if (strcmp(hs_str(r, "file"), file) == 0 && (int)hs_num(r, "clip") == clip &&
            strcmp(hs_str(r, "mode"), mode) == 0)
            return r;
    }
    return NULL;
}

const cJSON *hs_manifest(const cJSON *report, const char *file)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(report, "manifest"))
    {
        if (strcmp(hs_str(m, "name"), file) == 0) return m;
    }
    return NULL;
}
