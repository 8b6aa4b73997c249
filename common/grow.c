/*
 * common/grow.c: grow_array.
 */
#include "common/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int grow_array(void *items, size_t *cap, size_t need, size_t size, size_t first)
{
    if (need <= *cap) return 0;
    if (size == 0) return -1;
    size_t ncap = *cap ? *cap : (first ? first : 1);
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) return -1;
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / size) return -1;
    void *old;
    memcpy(&old, items, sizeof old);
    void *p = realloc(old, ncap * size);
    if (!p) return -1;
    memcpy(items, &p, sizeof p);
    *cap = ncap;
    return 0;
}
