/*
 * harness/cli/identify_evidence.c: what `ff8diff identify` prints beside
 * its verdict (emu/profiles/identify.h): the profile's evidence bytes and
 * version dwords, each held or not, the build the dwords name, each
 * routine's size and instruction count against the profile's, and the
 * files of the 2019 Remaster. `ff8diff run` states the size differences of
 * an unknown build with cli_size_differences.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/profiles/identify.h"
#include "harness/cli/cli.h"

static void print_bytes(const uint8_t *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        printf("%s%02X", i ? " " : "", b[i]);
}

static void print_version(const identify_version *v)
{
    if (!v->nchecked) return;
    printf("  version dwords (FFNx's):");
    for (unsigned k = 0; k < v->ndwords; k++) {
        if (v->readable[k])
            printf("%s [0x%X] = 0x%08X", k ? "," : "", v->address[k], v->found[k]);
        else
            printf("%s [0x%X] outside the image", k ? "," : "", v->address[k]);
    }
    if (v->match < 0)
        printf(": no build the profile lists (evidence only)\n");
    else
        printf(": %s, %s%s\n", v->build, v->language,
               v->match == v->own ? " (the profile's own build)"
               : v->own >= 0      ? " (NOT the profile's own build)"
                                  : "");
}

void cli_identify_print_evidence(const identify_match *m)
{
    for (unsigned i = 0; i < m->nevidence; i++) {
        const identify_evidence *e = &m->evidence[i];
        printf("  evidence 0x%08X %s: ", e->bytes.address, e->bytes.held ? "holds" : "differs");
        print_bytes(e->bytes.expected, e->bytes.len);
        if (!e->bytes.held) {
            printf(" expected, found ");
            if (e->bytes.found_len)
                print_bytes(e->bytes.found, e->bytes.found_len);
            else
                printf("(outside the image)");
        }
        printf(" (%s)\n", e->what);
    }
    print_version(&m->version);
}

/* The routines of p walked in the file at path, or NULL (said). */
static identify_structure *walk_file(const char *path, const emu_profile *p)
{
    uint8_t *data;
    size_t size;
    ff_error err;
    if (identify_read_file(path, &data, &size, &err) < 0) {
        cli_print_error(&err);
        return NULL;
    }
    identify_structure *s = malloc(sizeof *s);
    int rc = s ? identify_routines(data, size, p, s, &err) : -1;
    free(data);
    if (rc < 0) {
        if (s)
            cli_print_error(&err);
        else
            cli_fail("out of memory");
        free(s);
        return NULL;
    }
    return s;
}

/* "227 instructions, 0x2C2 bytes" as the profile gives (want) or as found. */
static void size_words(const identify_routine *r, int want, char *buf, size_t n)
{
    unsigned insns = want ? r->want_insns : r->insns;
    uint32_t size = want ? r->want_size : r->size;
    const char *s = insns == 1 ? "" : "s";
    if (r->want_insns && r->want_size)
        snprintf(buf, n, "%u instruction%s, 0x%X bytes", insns, s, size);
    else if (r->want_insns)
        snprintf(buf, n, "%u instruction%s", insns, s);
    else
        snprintf(buf, n, "0x%X bytes", size);
}

void cli_identify_print_size(const identify_routine *r, const char *indent)
{
    if (!r->want_size && !r->want_insns) return;
    char want[64], got[64];
    size_words(r, 1, want, sizeof want);
    size_words(r, 0, got, sizeof got);
    if (!r->decoded)
        printf("%s%s: the profile says %s; not decoded here\n", indent, r->name, want);
    else if (r->size_held && r->insns_held)
        printf("%s%s: %s, as the profile says\n", indent, r->name, want);
    else
        printf("%s%s: the profile says %s, found %s: DIFFERS\n", indent, r->name, want, got);
}

int cli_size_differences(const char *path, const emu_profile *p, char *buf, size_t n)
{
    buf[0] = '\0';
    identify_structure *s = walk_file(path, p);
    if (!s) return -1;
    size_t used = 0;
    for (unsigned i = 0; i < s->nroutines && used < n; i++) {
        const identify_routine *r = &s->routines[i];
        if ((!r->want_size && !r->want_insns) || (r->decoded && r->size_held && r->insns_held))
            continue;
        char want[64], got[64];
        size_words(r, 1, want, sizeof want);
        size_words(r, 0, got, sizeof got);
        used += (size_t)snprintf(buf + used, n - used, "%s%s %s -> %s", used ? "; " : "", r->name,
                                 want, r->decoded ? got : "not decoded");
    }
    int differ = (int)s->nsize_differ;
    free(s);
    return differ;
}

int cli_identify_print_sizes(const char *path, const emu_profile *p, identify_verdict verdict)
{
    identify_structure *s = walk_file(path, p);
    if (!s) return -1;
    if (s->nsized) {
        printf("routine sizes (evidence, profile %s): %u of %u as the profile says\n", p->name,
               s->nsized - s->nsize_differ, s->nsized);
        for (unsigned i = 0; i < s->nroutines; i++)
            cli_identify_print_size(&s->routines[i], "  ");
    }
    if (verdict == IDENTIFY_UNKNOWN && s->nsize_differ)
        cli_warn("unknown build: every fingerprint holds, so it runs; %u routine%s differ%s in "
                 "size from profile %s (listed above): results hold only as far as they do "
                 "what the profile's build does",
                 s->nsize_differ, s->nsize_differ == 1 ? "" : "s", s->nsize_differ == 1 ? "s" : "",
                 p->name);
    free(s);
    return 0;
}
