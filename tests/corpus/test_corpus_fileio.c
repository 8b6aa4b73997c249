/*
 * tests/corpus/test_corpus_fileio.c: the file-system layer under every
 * read and write of ff8diff. Writes never follow a link they did not
 * create (one planted at the old predictable temporary name, one at the
 * destination), leave no temporary file behind, and fio_write_new never
 * replaces anything. Reads take regular files only, refuse a FIFO without
 * blocking and a file above the caller's limit without reading it.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file.h"
#include "corpus/fileio.h"
#include "tests/corpus/ct.h"

static char *dir;

static void setup(void)
{
    dir = ts_tempdir();
}

static void teardown(void)
{
    ts_cleanup();
}

/* Whole file into a NUL-terminated buffer of at most 255 bytes. */
static void read_text(const char *path, char *buf)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "%s cannot be read", path);
    size_t n = fread(buf, 1, 255, f);
    buf[n] = '\0';
    fclose(f);
}

/* Names in dir other than the ones given (temporary files left behind). */
static int strangers(const char *d, const char *const *known, size_t nknown)
{
    DIR *dd = opendir(d);
    cr_assert(dd);
    int n = 0;
    for (struct dirent *e; (e = readdir(dd));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        int ok = 0;
        for (size_t i = 0; i < nknown; i++) ok |= !strcmp(e->d_name, known[i]);
        n += !ok;
    }
    closedir(dd);
    return n;
}

Test(fileio, write_never_follows_a_link_planted_at_the_temporary_name, .init = setup,
     .fini = teardown)
{
    /* The old writer opened "NAME.tmp.<pid>" with O_TRUNC, following a link planted there. */
    char *victim = ts_path(dir, "victim"), *dst = ts_path(dir, "c0m001.dat");
    ts_write_in(dir, "victim", "precious", 8);
    char planted[4200];
    snprintf(planted, sizeof planted, "%s.tmp.%ld", dst, (long)getpid());
    cr_assert_eq(symlink(victim, planted), 0);
    ff_error err;
    TS_OK(fio_write_atomic(dst, (const uint8_t *)"new bytes", 9, &err), &err);
    char got[256];
    read_text(victim, got);
    cr_assert_str_eq(got, "precious", "the write went through the planted link");
    read_text(dst, got);
    cr_assert_str_eq(got, "new bytes");
    struct stat st;
    cr_assert_eq(lstat(planted, &st), 0);
    cr_assert(S_ISLNK(st.st_mode), "the planted link itself is left alone");
    free(victim);
    free(dst);
}

Test(fileio, a_link_at_the_destination_is_replaced_not_followed, .init = setup, .fini = teardown)
{
    char *victim = ts_path(dir, "victim"), *dst = ts_path(dir, "out.json");
    ts_write_in(dir, "victim", "precious", 8);
    cr_assert_eq(symlink(victim, dst), 0);
    ff_error err;
    TS_OK(fio_write_atomic(dst, (const uint8_t *)"{}", 2, &err), &err);
    char got[256];
    read_text(victim, got);
    cr_assert_str_eq(got, "precious");
    struct stat st;
    cr_assert_eq(lstat(dst, &st), 0);
    cr_assert(S_ISREG(st.st_mode), "the link was replaced by a regular file");
    const char *known[] = {"victim", "out.json"};
    cr_assert_eq(strangers(dir, known, 2), 0, "a temporary file was left behind");
    free(victim);
    free(dst);
}

Test(fileio, write_new_replaces_nothing, .init = setup, .fini = teardown)
{
    char *a = ts_path(dir, "a.dat"), *link = ts_path(dir, "link.dat"),
         *dangling = ts_path(dir, "dangling.dat"), *fresh = ts_path(dir, "fresh.dat");
    ts_write_in(dir, "a.dat", "old", 3);
    cr_assert_eq(symlink(a, link), 0);
    cr_assert_eq(symlink("/nonexistent/ff8diff-target", dangling), 0);
    ff_error err;
    const char *const taken[] = {a, link, dangling};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(fio_write_new(taken[i], (const uint8_t *)"new", 3, &err), -1, "%s",
                     taken[i]);
        ts_assert_error(&err, FF_E_IO, NULL, -2, taken[i]);
        cr_assert(strstr(err.reason, "exists"), "%s: %s", taken[i], err.reason);
    }
    char got[256];
    read_text(a, got);
    cr_assert_str_eq(got, "old");
    TS_OK(fio_write_new(fresh, (const uint8_t *)"new", 3, &err), &err);
    read_text(fresh, got);
    cr_assert_str_eq(got, "new");
    const char *known[] = {"a.dat", "link.dat", "dangling.dat", "fresh.dat"};
    cr_assert_eq(strangers(dir, known, 4), 0, "a temporary file was left behind");
    free(a);
    free(link);
    free(dangling);
    free(fresh);
}

Test(fileio, a_failed_write_leaves_no_temporary_file, .init = setup, .fini = teardown)
{
    /* The destination is a folder: the rename fails after the data was written. */
    char *sub = ts_mkdir(dir, "taken");
    ff_error err;
    cr_assert_eq(fio_write_atomic(sub, (const uint8_t *)"x", 1, &err), -1);
    ts_assert_error(&err, FF_E_IO, NULL, -2, "destination is a folder");
    const char *known[] = {"taken"};
    cr_assert_eq(strangers(dir, known, 1), 0, "a temporary file was left behind");
    free(sub);
}

Test(fileio, new_folder_refuses_an_existing_name_or_link, .init = setup, .fini = teardown)
{
    char *fresh = ts_path(dir, ".run.tmp"), *link = ts_path(dir, ".other.tmp");
    char *target = ts_mkdir(dir, "elsewhere");
    cr_assert_eq(symlink(target, link), 0);
    ff_error err;
    TS_OK(fio_mkdir_new(fresh, &err), &err);
    cr_assert(fio_is_dir(fresh));
    cr_assert_eq(fio_mkdir_new(fresh, &err), -1, "an existing folder is not new");
    cr_assert_eq(fio_mkdir_new(link, &err), -1, "a link to a folder is not a new folder");
    ts_assert_error(&err, FF_E_IO, ".other.tmp", -2, "link");
    free(fresh);
    free(link);
    free(target);
}

Test(fileio, reads_refuse_a_fifo_without_blocking, .init = setup, .fini = teardown, .timeout = 20)
{
    /* Opening a FIFO for reading blocks until a writer comes: none will. */
    char *fifo = ts_path(dir, "pipe.dat");
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    uint8_t *data = NULL;
    size_t size = 0;
    ff_error err;
    cr_assert_eq(file_read_all(fifo, &data, &size, &err), -1);
    ts_assert_error(&err, FF_E_IO, "pipe.dat", -1, "fifo");
    cr_assert(strstr(err.reason, "not a regular file"), "%s", err.reason);
    cr_assert_null(data);
    free(fifo);
}

Test(fileio, reads_refuse_devices_through_links, .init = setup, .fini = teardown, .timeout = 20)
{
    char *link = ts_path(dir, "zero.jsonl");
    cr_assert_eq(symlink("/dev/zero", link), 0);
    uint8_t *data = NULL;
    size_t size = 0;
    ff_error err;
    cr_assert_eq(file_read_all(link, &data, &size, &err), -1);
    cr_assert(strstr(err.reason, "not a regular file"), "%s", err.reason);
    free(link);
}

Test(fileio, reads_above_the_limit_are_refused_before_reading, .init = setup, .fini = teardown)
{
    /* A 2 GiB sparse file: reading it whole would take 2 GiB of memory. */
    char *big = ts_path(dir, "big.dat");
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    cr_assert_eq(ftruncate(fd, (off_t)2 << 30), 0);
    close(fd);
    uint8_t *data = NULL;
    size_t size = 0;
    ff_error err;
    cr_assert_eq(file_read(big, 0, 64u << 20, &data, &size, &err), -1);
    ts_assert_error(&err, FF_E_RANGE, "big.dat", -1, "2 GiB file");
    cr_assert(strstr(err.reason, "2147483648 bytes") && strstr(err.reason, "64 MiB"), "%s",
              err.reason);
    cr_assert_null(data);
    /* At the limit exactly, the file is read. */
    ts_write_in(dir, "small.dat", "0123456789", 10);
    char *small = ts_path(dir, "small.dat");
    TS_OK(file_read(small, 0, 10, &data, &size, &err), &err);
    cr_assert_eq(size, 10);
    free(data);
    cr_assert_eq(file_read(small, 0, 9, &data, &size, &err), -1);
    free(small);
    free(big);
}

Test(fileio, nofollow_reads_refuse_a_link, .init = setup, .fini = teardown)
{
    ts_write_in(dir, "real.bin", "abc", 3);
    char *real = ts_path(dir, "real.bin"), *link = ts_path(dir, "link.bin");
    cr_assert_eq(symlink(real, link), 0);
    uint8_t *data = NULL;
    size_t size = 0;
    ff_error err;
    cr_assert_eq(file_read(link, FILE_NOFOLLOW, 0, &data, &size, &err), -1);
    TS_OK(file_read(link, 0, 0, &data, &size, &err), &err);
    cr_assert_eq(size, 3);
    free(data);
    free(real);
    free(link);
}
