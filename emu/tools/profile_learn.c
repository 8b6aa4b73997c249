/*
 * emu/tools/profile_learn.c: the build-time tool ff8-profile-learn:
 *   ff8-profile-learn PROFILE.json EXE OUT.json
 * reads a profile and the executable it describes, gives each routine the
 * pattern, size and instruction count its code has there, and its callees
 * in call order, with the locator's own code (locate_learn), and writes the
 * result. The build runs it on the stand-in's profile before embedding it.
 * Refuses an
 * executable whose fingerprints do not hold: the profile must describe it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "emu/image/locate.h"
#include "emu/image/pe.h"
#include "emu/image/profile.h"

static int fail(const ff_error *err)
{
    char buf[1024];
    fprintf(stderr, "ff8-profile-learn: %s\n", ff_error_format(err, buf, sizeof buf));
    return 1;
}

/* Every fingerprint of p holds in data. */
static int check_fingerprints(const emu_profile *p, const uint8_t *data, size_t size, ff_error *err)
{
    pe_image pe;
    if (pe_parse(data, size, &pe, err) != 0) return -1;
    int rc = 0;
    for (unsigned i = 0; i < p->nfingerprints && rc == 0; i++) {
        uint8_t got[PROFILE_FP_MAX_BYTES];
        const profile_fingerprint *f = &p->fingerprints[i];
        if (pe_read_va(&pe, data, size, f->address, got, f->len, err) != 0 ||
            memcmp(got, f->bytes, f->len) != 0)
            rc = ff_error_set(err, FF_E_EXE, NULL, -1,
                              "fingerprint at 0x%X does not hold: not the profile's build",
                              f->address);
    }
    pe_free(&pe);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fputs("usage: ff8-profile-learn PROFILE.json EXE OUT.json\n", stderr);
        return 2;
    }
    ff_error err;
    ff_error_clear(&err);
    emu_profile *p = malloc(sizeof *p);
    size_t size = 0;
    uint8_t *data = NULL;
    char *text = NULL;
    int rc = 1;
    if (!p) return 1;
    if (profile_load_file(argv[1], p, &err) != 0 || file_read(argv[2], 0, PE_MAX_IMAGE_SIZE, &data, &size, &err) != 0 ||
        check_fingerprints(p, data, size, &err) != 0 || locate_learn(data, size, p, &err) != 0) {
        rc = fail(&err);
        goto done;
    }
    text = profile_to_json(p);
    FILE *f = text ? fopen(argv[3], "wb") : NULL;
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "ff8-profile-learn: cannot write %s\n", argv[3]);
        goto done;
    }
    rc = 0;
done:
    free(text);
    free(data);
    free(p);
    return rc;
}
