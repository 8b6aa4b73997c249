/*
 * tests/fuzz/fz_lz4f.c: body of fuzz_lz4f (see fz.h): an FI compression-2
 * entry in either framing (the Remaster's 4ZL_ or u32 size + block),
 * decoded with the FI size taken from the input's first 4 bytes; and the
 * rest of the input written as a 4ZL_ entry by the archive writer and read
 * back (the result is known: the input). Never prints or aborts.
 */
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "corpus/archive.h"
#include "corpus/lz4f.h"
#include "tests/fuzz/fz.h"

#define LZ4F_NAME "fuzz.fs"

static int decode(const uint8_t *data, size_t size, fz_report *r)
{
    uint32_t fi_size = le_u32(data);
    uint8_t *out = NULL;
    arc_framing fr = ARC_FRAMING_NONE;
    ff_error err;
    if (lz4f_decode_entry(data + 4, size - 4, fi_size, LZ4F_NAME, &out, &fr, &err) < 0)
        return fz_rejected(r, &err, LZ4F_NAME, "lz4f_decode_entry");
    free(out);
    r->accepted++;
    if (fi_size > ARC_ENTRY_MAX) return fz_broken(r, "an entry above the limit was decoded");
    int tagged = size >= 16 && lz4f_is_tagged(data + 8);
    if ((fr == ARC_FRAMING_ZL4) != tagged)
        return fz_broken(r, "framing %s for an entry %s the tag", arc_framing_name(fr),
                         tagged ? "with" : "without");
    return 0;
}

static int round_trip(const uint8_t *data, size_t size, fz_report *r)
{
    arc_input in = {"x.dat", data, size, ARC_LZ4 | ARC_WRITE_4ZL};
    arc_image img;
    arc_entry *e = NULL;
    size_t n = 0;
    uint8_t *out = NULL;
    arc_framing fr;
    ff_error err;
    if (arc_build(&in, 1, &img, &err) < 0) return fz_broken(r, "arc_build: %s", err.reason);
    int rc = arc_index_parse(img.fi, img.fi_size, "fi", img.fl, img.fl_size, "fl", &e, &n, &err);
    if (rc == 0)
        rc = lz4f_decode_entry(img.fs, img.fs_size, (uint32_t)size, LZ4F_NAME, &out, &fr, &err);
    if (rc < 0)
        fz_broken(r, "round trip: %s", err.reason);
    else if (fr != ARC_FRAMING_ZL4 || (size && memcmp(out, data, size)))
        fz_broken(r, "round trip: the input does not come back in the 4ZL_ framing");
    free(out);
    arc_entries_free(e, n);
    arc_image_free(&img);
    return r->broken[0] ? -1 : 0;
}

int fz_lz4f_one(const uint8_t *data, size_t size, fz_report *r)
{
    fz_report_init(r);
    if (size >= 4 && decode(data, size, r) < 0) return -1;
    return round_trip(data, size < FZ_LZ4F_ROUND_TRIP ? size : FZ_LZ4F_ROUND_TRIP, r);
}
