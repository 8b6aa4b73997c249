/*
 * tests/hostile/test_hostile_signals.c: exit codes that mean one thing, through
 * the built ff8diff:
 *   - SIGINT after mismatches were found: 130 (not 1), SIGTERM: 143, both
 *     with the partial report written and marked interrupted in all four
 *     formats (report.json, index.html, summary.md, junit.xml);
 *   - an address-space limit too small for the emulator (ulimit -v 600000):
 *     3 with a message, no verdict;
 *   - a report that cannot be written (a file-size limit: a full disk): 3,
 *     no half-written report left;
 *   - --out naming a file: 2 before any work (nothing emulated);
 *   - report folders left by killed runs: removed by the next run in that
 *     --out, unless a run is writing there.
 * Signals are sent once a unit has finished (an entry appears in the results
 * cache), whatever the machine's speed: no sleeps decide an outcome.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/hostile/hs.h"

static char *scratch, *cache, *logs;

static void setup(void)
{
    scratch = ts_tempdir();
    cache = ts_path(scratch, "cache");
    logs = ts_path(scratch, "logs");
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p '%s' '%s'", cache, logs);
    ts_out_free(&o);
}

static void cleanup(void)
{
    free(cache);
    free(logs);
    ts_rmtree(scratch);
}

/* report.json of the only run in out validates against reports/schema. */
static void assert_valid(const char *out)
{
    char *json = ts_run_file(out, "report.json");
    ts_assert_valid(scratch, json);
    free(json);
}

/* The text of the only run's part (index.html, summary.md, junit.xml). */
static char *part(const char *out, const char *name)
{
    ts_out o;
    ts_sh(scratch, &o, "cat '%s'/*/%s", out, name);
    cr_assert_eq(o.status, 0, "no %s", name);
    char *s = strdup(o.out);
    ts_out_free(&o);
    return s;
}

/* A mutant on the vanilla corpus, stopped by sig once a unit is done: the exit status. */
static int interrupted_run(int sig, const char *out)
{
    char *corpus = ts_path(scratch, "vanilla");
    ts_out o;
    ts_cli(scratch, &o, "corpus synth --preset vanilla --out '%s'", corpus);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    char *mutant = hs_standin("standin_mut_a.exe");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("FF8DIFF_CACHE_DIR", cache, 1);
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
        execl(hs_cli(), "ff8diff", "run", "-q", "--jobs", "2", "--exe", mutant, "--profile",
              "standin", "--corpus", corpus, "--out", out, (char *)NULL);
        _exit(127);
    }
    for (int waited = 0;; waited++) {
        ts_out f;
        ts_sh(scratch, &f, "find '%s/results' -name '*.bin' 2>/dev/null | head -1", cache);
        int some = f.out[0] != '\0';
        ts_out_free(&f);
        if (some) break;
        cr_assert(waitpid(pid, NULL, WNOHANG) == 0, "the run ended before it was interrupted");
        cr_assert(waited < 2400, "no unit finished in 120 s");
        usleep(50000);
    }
    cr_assert_eq(kill(pid, sig), 0);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st), "ff8diff died of signal %d: no handler took it", WTERMSIG(st));
    free(mutant);
    free(corpus);
    return WEXITSTATUS(st);
}

static void assert_interrupted(const char *out, const char *sig)
{
    cJSON *r = ts_report(out);
    const cJSON *run = cJSON_GetObjectItem(r, "run");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(run, "interrupted")));
    cr_assert_str_eq(cJSON_GetObjectItem(run, "interrupted_by")->valuestring, sig);
    cr_assert(ts_num(r, "totals.mismatch") > 0, "mismatches were found before the signal");
    cr_assert(ts_num(r, "totals.not_run") > 0, "stopped early");
    cJSON_Delete(r);
    assert_valid(out);
    char *html = part(out, "index.html"), *md = part(out, "summary.md"),
         *xml = part(out, "junit.xml");
    char want[64];
    snprintf(want, sizeof want, "<strong>Interrupted</strong> by %s", sig);
    cr_assert(strstr(html, want), "index.html: %s", want);
    snprintf(want, sizeof want, "> **Interrupted** by %s", sig);
    cr_assert(strstr(md, want), "summary.md: %s", want);
    snprintf(want, sizeof want, "the run was interrupted by %s", sig);
    cr_assert(strstr(xml, "<testsuite name=\"run\"") &&
                  strstr(xml, "<error type=\"interrupted\"") && strstr(xml, want),
              "junit.xml does not say the run was interrupted");
    free(html);
    free(md);
    free(xml);
    ts_out o;
    ts_sh(scratch, &o, "find '%s' -name '.*.tmp'", out);
    cr_assert_str_eq(o.out, "", "a temporary report folder is left: %s", o.out);
    ts_out_free(&o);
}

Test(signals, sigint_after_mismatches_exits_130_with_the_report, .init = setup, .fini = cleanup,
     .timeout = 600)
{
    char *out = ts_path(scratch, "reports");
    int st = interrupted_run(SIGINT, out);
    cr_assert_eq(st, 130, "SIGINT after mismatches: exit %d", st);
    assert_interrupted(out, "SIGINT");
    free(out);
}

Test(signals, sigterm_exits_143_with_the_report, .init = setup, .fini = cleanup, .timeout = 600)
{
    char *out = ts_path(scratch, "reports");
    int st = interrupted_run(SIGTERM, out);
    cr_assert_eq(st, 143, "SIGTERM: exit %d", st);
    assert_interrupted(out, "SIGTERM");
    free(out);
}

Test(signals, no_room_for_the_emulator_exits_3, .init = setup, .fini = cleanup, .timeout = 120,
     .disabled = HS_SANITIZED)
{
    char *corpus = ts_corpus(scratch), *out = ts_path(scratch, "reports");
    const char *run[] = {hs_cli(),     "run",    "-q", "--engine", "unicorn",
                         "--no-cache", "--jobs", "1",  "--corpus", corpus,
                         "--out",      out,      NULL};
    /* ulimit -v 600000: Unicorn cannot reserve its code buffer (on Unicorn whatever
     * FF8DIFF_ENGINE says: the address-space room is Unicorn's). */
    int st = hs_run_limited(run, cache, logs, 600000ull * 1024, 0);
    char *err = hs_log(logs, "stderr"), *text = hs_log(logs, "stdout");
    cr_assert_eq(st, 3, "exit %d: %s", st, err);
    cr_assert(strstr(err, "address space") && strstr(err, "internal or resource error"), "%s",
              err);
    cr_assert(!strstr(text, "match"), "no verdict is printed: %s", text);
    free(err);
    free(text);
    free(out);
    free(corpus);
}

Test(signals, a_report_that_cannot_be_written_exits_3, .init = setup, .fini = cleanup,
     .timeout = 120)
{
    char *corpus = ts_corpus(scratch), *out = ts_path(scratch, "reports");
    const char *run[] = {hs_cli(),     "run",     "-q",     "--engine", "unicorn",
                         "--no-cache", "--modes", "normal", "--corpus", corpus,
                         "--out",      out,       NULL};
    /* No file may pass 4 KiB: report.json does. On Unicorn whatever FF8DIFF_ENGINE says: the
     * native engine's guest memory is a memfd, whose size the same limit caps (it cannot open). */
    int st = hs_run_limited(run, cache, logs, 0, 4096);
    char *err = hs_log(logs, "stderr");
    cr_assert_eq(st, 3, "exit %d: %s", st, err);
    cr_assert(strstr(err, "the report could not be written"), "%s", err);
    free(err);
    ts_out o;
    ts_sh(scratch, &o, "ls -A '%s' | grep -v '^.ff8diff-reports.lock$'", out);
    cr_assert_str_eq(o.out, "", "a half-written report is left: %s", o.out);
    ts_out_free(&o);
    free(out);
    free(corpus);
}

Test(signals, out_naming_a_file_is_refused_before_any_work, .init = setup, .fini = cleanup,
     .timeout = 120)
{
    char *corpus = ts_corpus(scratch), *file = ts_path(scratch, "report.txt");
    ts_write(file, "mine", 4);
    const char *run[] = {hs_cli(), "run", "-q", "--corpus", corpus, "--out", file, NULL};
    int st = hs_run(run, cache, logs);
    char *err = hs_log(logs, "stderr");
    cr_assert_eq(st, 2, "exit %d: %s", st, err);
    cr_assert(strstr(err, "report.txt") && strstr(err, "not a folder"), "%s", err);
    free(err);
    ts_out o;
    ts_sh(scratch, &o, "find '%s' -name '*.bin' | wc -l", cache);
    cr_assert_eq(atoi(o.out), 0, "the run emulated before refusing --out");
    ts_out_free(&o);
    free(file);
    free(corpus);
}

Test(signals, report_folders_of_killed_runs_are_cleaned, .init = setup, .fini = cleanup,
     .timeout = 120)
{
    char *corpus = ts_corpus(scratch), *out = ts_path(scratch, "reports");
    char *dead = ts_path(out, ".20200101-000000-dead.tmp");
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p '%s' && echo '{' > '%s/report.json' && ln -s /etc/passwd '%s/x'",
          dead, dead, dead);
    cr_assert_eq(o.status, 0);
    ts_out_free(&o);
    const char *run[] = {hs_cli(), "run", "-q", "--modes", "normal", "--corpus", corpus, "--out",
                         out, NULL};
    /* A run writing its report in that folder (it holds the lock shared): nothing removed. */
    char *lockpath = ts_path(out, ".ff8diff-reports.lock");
    int lock = open(lockpath, O_RDWR | O_CREAT, 0644);
    cr_assert(lock >= 0);
    cr_assert_eq(flock(lock, LOCK_SH), 0);
    int st = hs_run(run, cache, logs);
    cr_assert_eq(st, 0);
    cr_assert_eq(access(dead, F_OK), 0, "removed while a report was being written");
    close(lock);
    /* No writer: the next run removes it, and says so. */
    st = hs_run(run, cache, logs);
    char *err = hs_log(logs, "stderr");
    cr_assert_eq(st, 0, "%s", err);
    cr_assert(strstr(err, "removed 1 unfinished report folder"), "%s", err);
    cr_assert_neq(access(dead, F_OK), 0, "the dead run's folder is left");
    cr_assert_eq(access("/etc/passwd", F_OK), 0);
    free(err);
    free(lockpath);
    free(dead);
    free(out);
    free(corpus);
}
