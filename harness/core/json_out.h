/*
 * harness/core/json_out.h: writing JSON the way every file of a run does
 * (report.json, the trace-set manifest): every string made valid UTF-8
 * (names come from files), hex numbers, a fault, and a run's identity
 * ("tool", "executable", "corpus", "modes"), so both files describe a run
 * and a fault in one shape. Must not read JSON, print or decide anything.
 */
#ifndef FF8_HARNESS_CORE_JSON_OUT_H
#define FF8_HARNESS_CORE_JSON_OUT_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "emu/engine/fault.h"
#include "harness/core/run_meta.h"

/* s as a valid UTF-8 JSON string ("" for NULL); NULL when out of memory. */
cJSON *json_string(const char *s);
/* o[key] = s as a valid UTF-8 string ("" for NULL). */
void json_add_str(cJSON *o, const char *key, const char *s);
/* s as a valid UTF-8 string, or null when s is NULL. */
cJSON *json_str_or_null(const char *s);
/* o[key] = "0x..." of v. */
void json_add_hex(cJSON *o, const char *key, uint32_t v);
/* A fault (null when f is NULL): kind, message, addresses, registers, import, disassembly. */
cJSON *json_fault(const emu_fault *f);
/* The run's identity ("tool", "executable", "corpus", "modes") added to o. */
void json_identity(cJSON *o, const run_meta *m);

#endif
