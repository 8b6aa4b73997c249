/*
 * emu/engine/image.c: emu_image (see emu/engine/game.h, emu/engine/image.h): an executable read
 * whole, checked against a profile (known hash, else fingerprints, else
 * refused), parsed as PE32 and laid out once. Read-only afterwards, so
 * engines on several threads share it. No printing, no exit.
 */
#include "emu/engine/image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/profiles/identify.h"

struct emu_image {
    pe_image pe;
    uint8_t *layout; /* size_of_image bytes */
    emu_profile profile;
    char sha256[65];
    int known; /* the SHA-256 is one of the profile's */
};

int emu_image_load_buffer(const uint8_t *data, size_t size, const char *name,
                          const emu_profile *profile, emu_image **out, char *warning,
                          size_t warning_size, ff_error *err)
{
    *out = NULL;
    if (warning && warning_size) warning[0] = '\0';
    identify_result *res = malloc(sizeof *res);
    emu_image *img = calloc(1, sizeof *img);
    if (!res || !img) {
        free(res);
        free(img);
        return ff_error_set(err, FF_E_NOMEM, name, -1, "out of memory");
    }
    if (identify_buffer(data, size, profile, 1, res, err) != 0) goto fail;
    const identify_match *m = &res->matches[0];
    if (m->verdict == IDENTIFY_REFUSED) {
        ff_error_set(err, FF_E_EXE, name, -1, "profile %s: %s", profile->name, m->reason);
        goto fail;
    }
    if (warning && warning_size) {
        const char *who = name ? name : "executable";
        if (m->verdict == IDENTIFY_UNKNOWN)
            snprintf(warning, warning_size, "%s: %s", who, m->reason);
        if (res->pe_warning[0]) {
            size_t used = strlen(warning);
            snprintf(warning + used, warning_size - used, "%s%s: %s", used ? "; " : "", who,
                     res->pe_warning);
        }
    }
    img->known = m->verdict == IDENTIFY_KNOWN;
    memcpy(img->sha256, res->sha256, sizeof img->sha256);
    img->profile = *profile;
    if (pe_parse(data, size, &img->pe, err) != 0) goto fail;
    if (pe_build_image(&img->pe, data, size, &img->layout, err) != 0) goto fail;
    free(res);
    *out = img;
    return 0;
fail:
    if (err && name && !err->file[0]) snprintf(err->file, sizeof err->file, "%s", name);
    free(res);
    emu_image_free(img);
    return -1;
}

int emu_image_load(const char *path, const emu_profile *profile, emu_image **out, char *warning,
                   size_t warning_size, ff_error *err)
{
    uint8_t *data;
    size_t size;
    *out = NULL;
    if (identify_read_file(path, &data, &size, err) != 0) return -1;
    int rc = emu_image_load_buffer(data, size, path, profile, out, warning, warning_size, err);
    free(data);
    return rc;
}

void emu_image_free(emu_image *img)
{
    if (!img) return;
    pe_free(&img->pe);
    free(img->layout);
    free(img);
}

int emu_image_known(const emu_image *img)
{
    return img->known;
}

const char *emu_image_sha256(const emu_image *img)
{
    return img->sha256;
}

const emu_profile *emu_image_profile(const emu_image *img)
{
    return &img->profile;
}

const pe_image *emu_image_pe(const emu_image *img)
{
    return &img->pe;
}

const uint8_t *emu_image_layout(const emu_image *img)
{
    return img->layout;
}
