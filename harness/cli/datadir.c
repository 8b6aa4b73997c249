/*
 * harness/cli/datadir.c: the files that come with ff8diff (the stand-in
 * engine, the profiles, the report schema), found relative to the running
 * binary, never through a path fixed at build time:
 *   installed:   <bindir>/FF8DIFF_DATA_REL = <prefix>/share/ff8diff/
 *                  standin/standin.exe, profiles/<name>.json,
 *                  schema/report.schema.json
 *   build tree:  <build>/harness/ff8diff finds
 *                  <build>/harness/FF8DIFF_STANDIN_BUILD_REL
 * so an installed tree can be moved as a whole and still works.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/path.h"
#include "emu/profiles/identify.h"
#include "emu/profiles/profile_builtin.h"
#include "harness/cli/cli.h"

#ifndef FF8DIFF_DATA_REL
#define FF8DIFF_DATA_REL "../share/ff8diff"
#endif
#ifndef FF8DIFF_STANDIN_BUILD_REL
#define FF8DIFF_STANDIN_BUILD_REL "../emu/standin/standin.exe"
#endif

/* The folder holding the running binary; -1 when it cannot be told. */
static int self_dir(char *buf, size_t n)
{
    char path[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
    if (len <= 0) return -1;
    path[len] = '\0';
    char *slash = strrchr(path, '/');
    if (!slash) return -1;
    *slash = '\0';
    return snprintf(buf, n, "%s", path[0] ? path : "/") < (int)n ? 0 : -1;
}

int cli_data_dir(char *buf, size_t n)
{
    char dir[PATH_MAX], joined[PATH_MAX + 64];
    if (self_dir(dir, sizeof dir) != 0) return -1;
    if (path_join(joined, sizeof joined, dir, FF8DIFF_DATA_REL, NULL) < 0) return -1;
    char *real = realpath(joined, NULL);
    if (!real) return -1;
    int rc = snprintf(buf, n, "%s", real) < (int)n ? 0 : -1;
    free(real);
    return rc;
}

void cli_standin_path(char *buf, size_t n)
{
    const char *env = getenv("FF8DIFF_STANDIN");
    char dir[PATH_MAX];
    if (env && *env) {
        snprintf(buf, n, "%s", env);
        return;
    }
    if (cli_data_dir(dir, sizeof dir) == 0) {
        if (path_join(buf, n, dir, "standin/standin.exe", NULL) == 0 && access(buf, F_OK) == 0)
            return;
    }
    if (self_dir(dir, sizeof dir) == 0) {
        if (path_join(buf, n, dir, FF8DIFF_STANDIN_BUILD_REL, NULL) == 0 && access(buf, F_OK) == 0)
            return;
    }
    snprintf(buf, n, "standin.exe");
}

int cli_profile_arg(const char *arg, emu_profile *out, ff_error *err)
{
    for (unsigned i = 0; i < profile_builtin_count(); i++) {
        if (profile_builtin(i, out, err) != 0) return -1;
        if (strcmp(out->name, arg) == 0) return 0;
    }
    char dir[PATH_MAX], path[PATH_MAX + 128];
    if (access(arg, F_OK) != 0 && !strchr(arg, '/') && cli_data_dir(dir, sizeof dir) == 0) {
        if (path_format(path, sizeof path, NULL, "%s/profiles/%s.json", dir, arg) == 0 &&
            access(path, F_OK) == 0)
            return profile_load_file(path, out, err);
    }
    return identify_profile_arg(arg, out, err);
}
