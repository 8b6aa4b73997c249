/*
 * harness/traces/json_keys.h: duplicate keys in JSON read from files (trace
 * lines, trace-set manifests). cJSON keeps both members of {"a":1,"a":2} and
 * its lookups return the first, while other readers (Python's json) take the
 * last: the same file would read differently in two tools. Such a file is
 * refused as malformed instead.
 *
 * Reads only; nothing here prints or exits.
 */
#ifndef FF8_HARNESS_TRACES_JSON_KEYS_H
#define FF8_HARNESS_TRACES_JSON_KEYS_H

#include <cjson/cJSON.h>
#include <stddef.h>

/*
 * 1 when some object in the tree under item holds one key twice (compared
 * byte for byte), with the first such key's dotted path ("cmd.frame",
 * "files[3].name") in where (n bytes, cut to fit); 0 when every key is
 * unique (where is then ""). An object of k members costs O(k log k) at
 * most; when memory runs out the check answers 1 (where "?"): refused
 * rather than trusted.
 */
int json_keys_duplicate(const cJSON *item, char *where, size_t n);

#endif
