/*
 * common/grow.h: the one growable array: room for need elements in an
 * array and its capacity, doubled (from a first capacity) until it fits,
 * with the size computation checked for overflow.
 *     if (GROW(list->items, list->cap, list->n + 1, 16) < 0) return -1;
 *     list->items[list->n++] = item;
 * Nothing here prints or exits; on failure the array and its capacity are
 * left as they were (still valid, still the caller's to free).
 */
#ifndef FF8_COMMON_GROW_H
#define FF8_COMMON_GROW_H

#include <stddef.h>

/*
 * Makes room for need elements of size bytes in the array whose address is
 * items (a T ** passed as void *) of capacity *cap: the new capacity is
 * first (when *cap is 0) doubled until it holds need. Returns 0, or -1 when
 * memory runs out or the size overflows (the array and *cap unchanged).
 */
int grow_array(void *items, size_t *cap, size_t need, size_t size, size_t first);

/* grow_array for an array lvalue arr (T *) and its size_t capacity lvalue cap. */
#define GROW(arr, cap, need, first) grow_array(&(arr), &(cap), (need), sizeof *(arr), (first))

#endif
