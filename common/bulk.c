/*
 * common/bulk.c: large buffers on huge pages where the kernel grants them
 * (common/bulk.h). A refused request (no transparent huge pages, another
 * kernel) leaves a plain buffer: nothing depends on it but the page faults.
 */
#include "common/bulk.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void *bulk_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
#ifdef MADV_HUGEPAGE
    if (p && n >= BULK_HUGE) {
        long page = sysconf(_SC_PAGESIZE);
        uintptr_t a = (uintptr_t)p, start, end;
        if (page > 0) {
            start = (a + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
            end = (a + n) & ~((uintptr_t)page - 1);
            if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
        }
    }
#endif
    return p;
}
