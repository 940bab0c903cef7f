/* Recursive descent over RFC 8259 JSON; strings are decoded to UTF-8. */
#define _GNU_SOURCE
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_DEPTH 256

typedef struct reader {
  const char *text, *at, *end;
  char *error;
  unsigned depth;
} reader;

static json *fail(reader *r, const char *what) {
  if (!r->error) {
    unsigned line = 1, column = 1;
    for (const char *p = r->text; p < r->at; p++, column++)
      if (*p == '\n') {
        line++;
        column = 0;
      }
    r->error = xasprintf("line %u, column %u: %s", line, column, what);
  }
  return NULL;
}

static void skip_space(reader *r) {
  while (r->at < r->end && strchr(" \t\r\n", *r->at) && *r->at)
    r->at++;
}

static json *new_value(json_kind kind) {
  json *v = calloc(1, sizeof(*v));
  if (!v)
    abort();
  v->kind = kind;
  return v;
}

static int literal(reader *r, const char *word) {
  size_t len = strlen(word);
  if ((size_t)(r->end - r->at) < len || memcmp(r->at, word, len) != 0)
    return 0;
  r->at += len;
  return 1;
}

static int hex4(reader *r, unsigned *out) {
  *out = 0;
  for (int i = 0; i < 4; i++, r->at++) {
    if (r->at >= r->end)
      return 0;
    char c = *r->at;
    unsigned digit = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
    if (digit == 16)
      return 0;
    *out = *out * 16 + digit;
  }
  return 1;
}

static void put_utf8(char *out, size_t *len, unsigned cp) {
  if (cp < 0x80) {
    out[(*len)++] = (char)cp;
  } else if (cp < 0x800) {
    out[(*len)++] = (char)(0xc0 | cp >> 6);
    out[(*len)++] = (char)(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out[(*len)++] = (char)(0xe0 | cp >> 12);
    out[(*len)++] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[(*len)++] = (char)(0x80 | (cp & 0x3f));
  } else {
    out[(*len)++] = (char)(0xf0 | cp >> 18);
    out[(*len)++] = (char)(0x80 | (cp >> 12 & 0x3f));
    out[(*len)++] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[(*len)++] = (char)(0x80 | (cp & 0x3f));
  }
}

/* \uXXXX, with a surrogate pair as one code point. */
static int unicode_escape(reader *r, unsigned *cp) {
  if (!hex4(r, cp))
    return 0;
  if (*cp < 0xd800 || *cp > 0xdfff)
    return 1;
  unsigned low;
  if (*cp > 0xdbff || !literal(r, "\\u") || !hex4(r, &low) || low < 0xdc00 || low > 0xdfff)
    return 0;
  *cp = 0x10000 + ((*cp - 0xd800) << 10) + (low - 0xdc00);
  return 1;
}

static int escape(reader *r, char *out, size_t *len) {
  static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
  char c = *r->at++;
  const char *known = c ? strchr(from, c) : NULL;
  if (known) {
    out[(*len)++] = to[known - from];
    return 1;
  }
  unsigned cp;
  if (c != 'u' || !unicode_escape(r, &cp))
    return 0;
  put_utf8(out, len, cp);
  return 1;
}

static char *string_body(reader *r) {
  r->at++; /* the opening quote */
  /* Decoded text is never longer than the escaped source. */
  char *out = xmalloc((size_t)(r->end - r->at) + 1);
  size_t len = 0;
  for (;;) {
    if (r->at >= r->end) {
      free(out);
      return (char *)fail(r, "unterminated string");
    }
    char c = *r->at;
    if (c == '"')
      break;
    if ((unsigned char)c < 0x20) {
      free(out);
      return (char *)fail(r, "control character in a string");
    }
    r->at++;
    if (c != '\\') {
      out[len++] = c;
    } else if (r->at >= r->end || !escape(r, out, &len)) {
      free(out);
      return (char *)fail(r, "bad escape in a string");
    }
  }
  r->at++;
  out[len] = '\0';
  return out;
}

static json *value(reader *r);

static json *number(reader *r) {
  const char *start = r->at;
  if (r->at < r->end && *r->at == '-')
    r->at++;
  size_t digits = strspn(r->at, "0123456789");
  if (digits == 0 || (size_t)(r->end - r->at) < digits)
    return fail(r, "expected a value");
  r->at += digits;
  if (r->at < r->end && *r->at == '.') {
    r->at++;
    if (!(digits = strspn(r->at, "0123456789")))
      return fail(r, "bad number");
    r->at += digits;
  }
  if (r->at < r->end && (*r->at == 'e' || *r->at == 'E')) {
    r->at++;
    if (r->at < r->end && (*r->at == '+' || *r->at == '-'))
      r->at++;
    if (!(digits = strspn(r->at, "0123456789")))
      return fail(r, "bad number");
    r->at += digits;
  }
  json *v = new_value(JSON_NUMBER);
  v->text = xasprintf("%.*s", (int)(r->at - start), start);
  return v;
}

static void append(json *v, char *key, json *item) {
  v->items = realloc(v->items, (v->count + 1) * sizeof(*v->items));
  if (v->kind == JSON_OBJECT)
    v->keys = realloc(v->keys, (v->count + 1) * sizeof(*v->keys));
  if (!v->items || (v->kind == JSON_OBJECT && !v->keys))
    abort();
  if (v->kind == JSON_OBJECT)
    v->keys[v->count] = key;
  v->items[v->count++] = item;
}

/* An array or object: its elements, separated by commas, up to `close`. */
static json *container(reader *r, json_kind kind, char close) {
  if (++r->depth > MAX_DEPTH)
    return fail(r, "nested too deeply");
  json *v = new_value(kind);
  r->at++;
  skip_space(r);
  if (r->at < r->end && *r->at == close) {
    r->at++;
    r->depth--;
    return v;
  }
  for (;;) {
    char *key = NULL;
    skip_space(r);
    if (kind == JSON_OBJECT) {
      if (r->at >= r->end || *r->at != '"' || !(key = string_body(r)))
        goto bad;
      skip_space(r);
      if (r->at >= r->end || *r->at++ != ':') {
        free(key);
        fail(r, "expected ':'");
        goto bad;
      }
    }
    json *item = value(r);
    if (!item) {
      free(key);
      goto bad;
    }
    append(v, key, item);
    skip_space(r);
    if (r->at < r->end && *r->at == ',') {
      r->at++;
      continue;
    }
    if (r->at < r->end && *r->at == close) {
      r->at++;
      r->depth--;
      return v;
    }
    fail(r, r->at >= r->end ? "unexpected end of file"
            : close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    goto bad;
  }
bad:
  fail(r, "expected a string key");
  json_free(v);
  return NULL;
}

static json *value(reader *r) {
  skip_space(r);
  if (r->at >= r->end)
    return fail(r, "unexpected end of file");
  json *v;
  switch (*r->at) {
  case '{':
    return container(r, JSON_OBJECT, '}');
  case '[':
    return container(r, JSON_ARRAY, ']');
  case '"': {
    char *text = string_body(r);
    if (!text)
      return NULL;
    v = new_value(JSON_STRING);
    v->text = text;
    return v;
  }
  }
  int is_true = literal(r, "true");
  if (is_true || literal(r, "false")) {
    v = new_value(JSON_BOOL);
    v->boolean = is_true;
    return v;
  }
  if (literal(r, "null"))
    return new_value(JSON_NULL);
  return number(r);
}

json *json_parse(const char *text, size_t size, char **error) {
  /* The scanners below stop at a NUL; a copy guarantees one at the end. */
  char *copy = xmalloc(size + 1);
  memcpy(copy, text, size);
  copy[size] = '\0';
  reader r = {copy, copy, copy + size, NULL, 0};
  json *v = value(&r);
  if (v) {
    skip_space(&r);
    if (r.at != r.end) {
      json_free(v);
      v = fail(&r, "text after the value");
    }
  }
  free(copy);
  *error = r.error;
  return v;
}

void json_free(json *v) {
  if (!v)
    return;
  for (size_t i = 0; i < v->count; i++) {
    json_free(v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->text);
  free(v);
}

const json *json_get(const json *object, const char *key) {
  if (!object || object->kind != JSON_OBJECT)
    return NULL;
  for (size_t i = 0; i < object->count; i++)
    if (!strcmp(object->keys[i], key))
      return object->items[i];
  return NULL;
}

const char *json_kind_name(json_kind kind) {
  static const char *const names[] = {"null", "a boolean", "a number", "a string", "an array",
                                      "an object"};
  return names[kind];
}
