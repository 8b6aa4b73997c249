/*
 * common/json_read.h: JSON text read from a file (a trace line, a manifest,
 * a report, a profile, a pairs list) into a cJSON tree at a bounded cost.
 *
 * cJSON's own parser spends about 80 bytes per value whatever the text
 * spends on it ("[1,1,1,..." costs 40 times its size), cannot tell memory
 * running out from a syntax error, and stops at the first value (bytes after
 * it go unnoticed unless the caller looks). Here a streaming parser (yajl)
 * reads the text and the tree is built value by value, counted against a
 * limit, so that:
 *   - the text is exactly one JSON value, optionally after a UTF-8 BOM and
 *     followed only by whitespace (space, tab, CR, LF); anything else is a
 *     syntax error at its byte offset;
 *   - a text holding more than max_values values or nested deeper than
 *     max_depth is refused before more is built (JSON_READ_LIMIT), so the
 *     tree costs at most about 80 bytes times max_values plus the text;
 *   - an allocation that fails is JSON_READ_NOMEM, never a syntax error.
 * Strings are taken as bytes (not checked as UTF-8, as cJSON does); a
 * string's "\u0000" ends it, as in cJSON. Numbers are read with strtod over
 * their whole text.
 *
 * Nothing here prints or exits; no state is kept between calls.
 */
#ifndef FF8_COMMON_JSON_READ_H
#define FF8_COMMON_JSON_READ_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "common/error.h"

typedef enum json_read_kind {
    JSON_READ_OK = 0,
    JSON_READ_SYNTAX, /* not one JSON value followed by whitespace */
    JSON_READ_LIMIT,  /* more values or deeper nesting than allowed */
    JSON_READ_NOMEM   /* an allocation failed */
} json_read_kind;

typedef struct json_read_limits {
    size_t max_values;  /* values in the whole text (objects and arrays count) */
    unsigned max_depth; /* nesting of objects and arrays, at most JSON_READ_DEPTH_MAX */
} json_read_limits;

#define JSON_READ_DEPTH_MAX 256u

typedef struct json_read_error {
    json_read_kind kind;
    size_t offset; /* byte offset in the text where the problem was found: the last
                    * byte of the token at fault, the text's length at its end */
    char why[120]; /* a sentence without offset: "trailing garbage", ... */
} json_read_error;

/*
 * Parses text (len bytes, no terminator needed) into *out (the caller's to
 * cJSON_Delete). Returns 0, or -1 with *e filled and *out NULL.
 */
int json_read(const char *text, size_t len, const json_read_limits *lim, cJSON **out,
              json_read_error *e);

/*
 * json_read for a whole file's text (source names it in errors): a syntax
 * error is FF_E_FORMAT "not valid JSON: why" at its byte offset, a limit
 * FF_E_RANGE, memory FF_E_NOMEM. Returns 0, or -1 with err.
 */
int json_read_doc(const char *text, size_t len, const json_read_limits *lim, const char *source,
                  cJSON **out, ff_error *err);

#endif
