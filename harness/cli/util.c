/*
 * harness/cli/util.c: what every subcommand needs: error printing (control
 * bytes escaped: names come from files), number parsing, the writability
 * check of output folders (files are read and written through corpus/fileio.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus/fileio.h"
#include "corpus/source.h"
#include "corpus/synth.h"
#include "harness/cli/cli.h"
#include "harness/core/levels.h"
#include "harness/core/modes.h"
#include "harness/core/strbuf.h"

/* Writes "ff8diff: " + prefix + text + newline, text shown as sb_safe shows it. */
static void put_line(const char *prefix, const char *text)
{
    strbuf b;
    sb_init(&b);
    sb_safe(&b, text);
    fprintf(stderr, "ff8diff: %s%s\n", prefix, strbuf_failed(&b) ? "(out of memory)" : b.s ? b.s : "");
    sb_free(&b);
}

char *cli_list_add(char *buf, size_t n, const char *sep, const char *word)
{
    size_t at = strnlen(buf, n);
    if (at < n) snprintf(buf + at, n - at, "%s%s", at ? sep : "", word);
    return buf;
}

void cli_usage_modes(FILE *out, const char *dflt)
{
    char words[96];
    fprintf(out, "  --modes LIST      a list of %s (default %s)\n",
            mode_list_words(words, sizeof words), dflt);
}

void cli_usage_levels(FILE *out, unsigned mask, const char *tail)
{
    char words[80];
    fprintf(out, "  --levels LIST     a list of %s%s\n",
            run_level_list_words(mask, words, sizeof words), tail);
}

void cli_usage_presets(FILE *out)
{
    char words[96] = "";
    for (int p = 0; p < SYNTH__PRESET_COUNT; p++) {
        char word[32];
        snprintf(word, sizeof word, "%s%s", synth_preset_name((synth_preset)p),
                 p == SYNTH_SMALL ? " (default)" : "");
        cli_list_add(words, sizeof words, p == SYNTH__PRESET_COUNT - 1 ? " or " : ", ", word);
    }
    fprintf(out, "  --preset NAME     synthetic corpus preset: %s\n", words);
}

char *cli_safe(const char *s, char *buf, size_t n)
{
    strbuf b;
    sb_init(&b);
    sb_safe(&b, s);
    /* Cut to fit, never inside a character (what sb_safe left is valid UTF-8). */
    size_t k = 0;
    const unsigned char *p = (const unsigned char *)(b.s ? b.s : "");
    while (p[k]) {
        size_t step = (size_t)utf8_seq_len(p + k);
        if (k + step >= n) break;
        k += step;
    }
    if (n) {
        memcpy(buf, p, k);
        buf[k] = '\0';
    }
    sb_free(&b);
    return buf;
}

void cli_print_error(const ff_error *err)
{
    char buf[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64];
    put_line("", ff_error_format(err, buf, sizeof buf));
}

static void put_va(const char *prefix, const char *fmt, va_list ap)
{
    char buf[2048];
    vsnprintf(buf, sizeof buf, fmt, ap);
    put_line(prefix, buf);
}

void cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_va("", fmt, ap);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_va("warning: ", fmt, ap);
    va_end(ap);
}

int cli_dir_writable(const char *dir, ff_error *err)
{
    if (fio_mkdirs(dir, err) < 0) return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return ff_error_set(err, FF_E_IO, dir, -1, "cannot open: %s", strerror(errno));
    char probe[64];
    snprintf(probe, sizeof probe, ".probe-%ld", (long)getpid());
    int rc = fio_write_at(fd, dir, probe, (const uint8_t *)"", 0, 1, err);
    if (rc == 0) unlinkat(fd, probe, 0);
    close(fd);
    if (rc < 0) ff_error_prefix(err, "the folder cannot be written");
    return rc;
}

int cli_parse_uint(const char *text, unsigned long lo, unsigned long hi, unsigned long *out)
{
    if (!text || !*text || *text == '-' || *text == '+') return -1;
    errno = 0;
    char *end;
    unsigned long v = strtoul(text, &end, 0);
    if (errno || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}
