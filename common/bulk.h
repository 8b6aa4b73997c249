/*
 * common/bulk.h: a buffer of many megabytes that is written whole (an archive
 * entry decompressed, a file read in): from BULK_HUGE bytes on, the kernel is
 * asked for huge pages where it grants them on request (Linux's transparent
 * huge pages in "madvise" mode), so that filling it takes one page fault per
 * 2 MiB instead of one per 4 KiB. Smaller buffers are plain malloc. free() it.
 * Nothing here prints or exits.
 */
#ifndef FF8_COMMON_BULK_H
#define FF8_COMMON_BULK_H

#include <stddef.h>

#define BULK_HUGE (4u << 20)

/* n bytes (at least one) from malloc, huge pages asked for from BULK_HUGE on; NULL when
 * memory runs out. */
void *bulk_alloc(size_t n);

#endif
