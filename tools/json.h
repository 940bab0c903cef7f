/* A small JSON reader, enough for DTLTO's job files. */
#ifndef MTPC_TOOLS_JSON_H
#define MTPC_TOOLS_JSON_H

#include <stddef.h>

typedef enum json_kind { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_kind;

typedef struct json json;
struct json {
  json_kind kind;
  char *text;      /* JSON_STRING: decoded UTF-8; JSON_NUMBER: as written */
  int boolean;
  json **items;    /* JSON_ARRAY: elements; JSON_OBJECT: values */
  char **keys;     /* JSON_OBJECT */
  size_t count;
};

/* Parses `size` bytes. NULL on error, with *error (free()) saying where:
 * "line L, column C: ...". */
json *json_parse(const char *text, size_t size, char **error);
void json_free(json *value);
/* The member `key` of an object, or NULL. */
const json *json_get(const json *object, const char *key);
const char *json_kind_name(json_kind kind);

#endif
