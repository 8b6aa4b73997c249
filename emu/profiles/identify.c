/*
 * emu/profiles/identify.c: hash and fingerprint checks of an executable against
 * profiles (see emu/profiles/identify.h). Reads only; never runs the file, never
 * prints or exits.
 */
#include "emu/profiles/identify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file.h"
#include "common/sha256.h"
#include "emu/image/pe.h"
#include "emu/profiles/identify_internal.h"
#include "emu/profiles/profile_builtin.h"

#define IDENTIFY_MAX_FILE PE_MAX_IMAGE_SIZE

static const char *const verdict_names[] = {
#define IDENTIFY_VERDICT_NAME(name, json, msg) json,
    IDENTIFY_VERDICT_MAP(IDENTIFY_VERDICT_NAME)
#undef IDENTIFY_VERDICT_NAME
};

static const char *const verdict_messages[] = {
#define IDENTIFY_VERDICT_MSG(name, json, msg) msg,
    IDENTIFY_VERDICT_MAP(IDENTIFY_VERDICT_MSG)
#undef IDENTIFY_VERDICT_MSG
};

const char *identify_verdict_name(identify_verdict v)
{
    return (unsigned)v < IDENTIFY__COUNT ? verdict_names[v] : "?";
}

const char *identify_verdict_message(identify_verdict v)
{
    return (unsigned)v < IDENTIFY__COUNT ? verdict_messages[v] : "?";
}

/* "83 EC 08" into buf. */
static void hex_bytes(const uint8_t *b, unsigned n, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n && used + 4 < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%02X", i ? " " : "", b[i]);
}

void identify_check_bytes(const pe_image *pe, const uint8_t *data, size_t size,
                     const profile_fingerprint *f, identify_fp *o)
{
    memset(o, 0, sizeof *o);
    o->address = f->address;
    o->len = f->len;
    memcpy(o->expected, f->bytes, f->len);
    for (unsigned i = 0; i < f->len; i++) {
        if ((uint64_t)f->address + i > UINT32_MAX ||
            pe_read_va(pe, data, size, f->address + i, &o->found[i], 1, NULL) != 0)
            break;
        o->found_len = i + 1;
    }
    o->held = o->found_len == f->len && memcmp(o->found, o->expected, f->len) == 0;
}

static void refuse_fps(identify_match *m)
{
    size_t used = (size_t)snprintf(m->reason, sizeof m->reason, "refused: ");
    int first = 1;
    for (unsigned i = 0; i < m->nfp && used < sizeof m->reason; i++) {
        const identify_fp *f = &m->fp[i];
        if (f->held) continue;
        char exp[PROFILE_FP_MAX_BYTES * 3 + 1], got[PROFILE_FP_MAX_BYTES * 3 + 1];
        hex_bytes(f->expected, f->len, exp, sizeof exp);
        hex_bytes(f->found, f->found_len, got, sizeof got);
        used += (size_t)snprintf(m->reason + used, sizeof m->reason - used,
                                 "%sfingerprint at 0x%X expected %s, found %s%s", first ? "" : "; ",
                                 f->address, exp, f->found_len ? got : "nothing",
                                 f->found_len < f->len ? " (outside the image)" : "");
        first = 0;
    }
}

static void match_profile(const pe_image *pe, const uint8_t *data, size_t size, const char *sha,
                          const emu_profile *p, identify_match *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->profile, sizeof m->profile, "%s", p->name);
    for (unsigned i = 0; i < p->nhashes; i++)
        if (strcmp(p->sha256[i], sha) == 0) m->hash_match = 1;
    m->nfp = p->nfingerprints;
    int all = p->nfingerprints > 0;
    for (unsigned i = 0; i < p->nfingerprints; i++) {
        identify_check_bytes(pe, data, size, &p->fingerprints[i], &m->fp[i]);
        all &= m->fp[i].held;
    }
    identify_check_evidence(pe, data, size, p, m);
    if (pe->image_base != p->image_base) {
        m->verdict = IDENTIFY_REFUSED;
        snprintf(m->reason, sizeof m->reason,
                 "refused: image base 0x%X differs from the profile's 0x%X", pe->image_base,
                 p->image_base);
    } else if (m->hash_match) {
        m->verdict = IDENTIFY_KNOWN;
        snprintf(m->reason, sizeof m->reason, "known build %s (SHA-256 matches)", p->name);
    } else if (all) {
        m->verdict = IDENTIFY_UNKNOWN;
        snprintf(m->reason, sizeof m->reason,
                 "unknown build (SHA-256 %.16s... is not %s's), fingerprints hold: runs with a "
                 "warning",
                 sha, p->name);
    } else {
        m->verdict = IDENTIFY_REFUSED;
        if (!p->nfingerprints)
            snprintf(m->reason, sizeof m->reason,
                     "refused: unknown SHA-256 and the profile has no fingerprints");
        else
            refuse_fps(m);
    }
}

int identify_buffer(const uint8_t *data, size_t size, const emu_profile *profiles, unsigned n,
                    identify_result *out, ff_error *err)
{
    return identify_buffer_named(data, size, NULL, profiles, n, out, err);
}

int identify_buffer_named(const uint8_t *data, size_t size, const char *name,
                          const emu_profile *profiles, unsigned n, identify_result *out,
                          ff_error *err)
{
    memset(out, 0, sizeof *out);
    out->accepted = -1;
    out->size = size;
    if (n > IDENTIFY_MAX_PROFILES)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "too many profiles (%u)", n);
    if (sha256_hex(data, size, out->sha256, err) != 0) return -1;
    pe_image pe;
    ff_error perr;
    ff_error_clear(&perr);
    out->nmatches = n;
    if (pe_parse(data, size, &pe, &perr) != 0) {
        ff_error_format(&perr, out->pe_reason, sizeof out->pe_reason);
        for (unsigned i = 0; i < n; i++) {
            identify_match *m = &out->matches[i];
            memset(m, 0, sizeof *m);
            snprintf(m->profile, sizeof m->profile, "%s", profiles[i].name);
            m->verdict = IDENTIFY_REFUSED;
            snprintf(m->reason, sizeof m->reason, "refused: not a PE32 i386 executable (%.400s)",
                     out->pe_reason);
        }
        return 0;
    }
    out->is_pe = 1;
    snprintf(out->pe_warning, sizeof out->pe_warning, "%s", pe.warning);
    for (unsigned i = 0; i < n; i++)
        match_profile(&pe, data, size, out->sha256, &profiles[i], &out->matches[i]);
    for (unsigned i = 0; i < n && out->accepted < 0; i++)
        if (out->matches[i].verdict == IDENTIFY_KNOWN) out->accepted = (int)i;
    for (unsigned i = 0; i < n && out->accepted < 0; i++)
        if (out->matches[i].verdict == IDENTIFY_UNKNOWN) out->accepted = (int)i;
    identify_remaster(name, &pe, out);
    pe_free(&pe);
    return 0;
}

int identify_read_file(const char *path, uint8_t **data, size_t *size, ff_error *err)
{
    *data = NULL;
    *size = 0;
    return file_read(path, 0, IDENTIFY_MAX_FILE, data, size, err);
}

int identify_file(const char *path, const emu_profile *profile, identify_result *out, ff_error *err)
{
    emu_profile *all = NULL;
    const emu_profile *use = profile;
    unsigned n = 1;
    if (!profile) {
        n = profile_builtin_count();
        if (n > IDENTIFY_MAX_PROFILES) n = IDENTIFY_MAX_PROFILES;
        all = malloc(n * sizeof *all);
        if (!all) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        for (unsigned i = 0; i < n; i++)
            if (profile_builtin(i, &all[i], err) != 0) {
                free(all);
                return -1;
            }
        use = all;
    }
    uint8_t *data;
    size_t size;
    int rc = identify_read_file(path, &data, &size, err);
    if (rc == 0) {
        rc = identify_buffer_named(data, size, path, use, n, out, err);
        free(data);
    }
    free(all);
    return rc;
}

int identify_profile_arg(const char *name_or_path, emu_profile *out, ff_error *err)
{
    for (unsigned i = 0; i < profile_builtin_count(); i++) {
        if (profile_builtin(i, out, err) != 0) return -1;
        if (strcmp(out->name, name_or_path) == 0) return 0;
    }
    return profile_load_file(name_or_path, out, err);
}
