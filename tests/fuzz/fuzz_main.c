/*
 * tests/fuzz/fuzz_main.c: the libFuzzer entry point of one target, chosen
 * at compile time (-DFZ_TARGET_DAT, _ARCHIVE, _PE, _TRACE, _ZZZ
 * or _LZ4F). The body is
 * the shared function of fz.h; a broken contract is reported on stderr and
 * aborts, so libFuzzer saves the input as a crash.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/fuzz/fz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_report r;
#if defined(FZ_TARGET_DAT)
    int rc = fz_dat_one(data, size, &r);
#elif defined(FZ_TARGET_ARCHIVE)
    int rc = fz_archive_one(data, size, &r);
#elif defined(FZ_TARGET_PE)
    int rc = fz_pe_one(data, size, FZ_PE_FUZZ_IMAGE, &r);
#elif defined(FZ_TARGET_TRACE)
    int rc = fz_trace_one(data, size, &r);
#elif defined(FZ_TARGET_ZZZ)
    int rc = fz_zzz_one(data, size, &r);
#elif defined(FZ_TARGET_LZ4F)
    int rc = fz_lz4f_one(data, size, &r);
#else
#error "define one of FZ_TARGET_DAT, _ARCHIVE, _PE, _TRACE, _ZZZ, _LZ4F"
#endif
    if (rc < 0) {
        fprintf(stderr, "broken contract: %s\n", r.broken);
        abort();
    }
    return 0;
}
