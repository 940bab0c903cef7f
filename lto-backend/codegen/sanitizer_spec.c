/* mtpc_options.sanitizers: a sanitizer's name and its settings, in the
 * spelling of LLVM's pass parameters ("memory<track-origins=2;recover>"). */
#include "sanitizer_spec.h"

#include <stdio.h>
#include <string.h>

static void set_defaults(mtpc_sanitizer_spec *spec) {
  memset(spec, 0, sizeof(*spec));
  spec->use_after_scope = 1;
  spec->use_after_return = 1;
  spec->odr_indicator = 1;
  spec->globals_gc = 1;
  spec->global_destructor = 1;
  spec->eager_checks = 1;
}

static int is(const char *word, size_t len, const char *name) {
  return strlen(name) == len && !strncmp(word, name, len);
}

static int read_address_setting(const char *word, size_t len, mtpc_sanitizer_spec *spec) {
  if (is(word, len, "recover"))
    spec->recover = 1;
  else if (is(word, len, "no-use-after-scope"))
    spec->use_after_scope = 0;
  else if (is(word, len, "use-after-return=never"))
    spec->use_after_return = 0;
  else if (is(word, len, "use-after-return=runtime"))
    spec->use_after_return = 1;
  else if (is(word, len, "use-after-return=always"))
    spec->use_after_return = 2;
  else if (is(word, len, "no-odr-indicator"))
    spec->odr_indicator = 0;
  else if (is(word, len, "no-globals-gc"))
    spec->globals_gc = 0;
  else if (is(word, len, "destructor=none"))
    spec->global_destructor = 0;
  else
    return 0;
  return 1;
}

static int read_memory_setting(const char *word, size_t len, mtpc_sanitizer_spec *spec) {
  if (is(word, len, "recover"))
    spec->recover = 1;
  else if (is(word, len, "no-eager-checks"))
    spec->eager_checks = 0;
  else if (len == strlen("track-origins=N") && !strncmp(word, "track-origins=", len - 1) &&
           word[len - 1] >= '0' && word[len - 1] <= '2')
    spec->track_origins = word[len - 1] - '0';
  else
    return 0;
  return 1;
}

/* The ';'-separated settings of `list` (up to the closing '>'). */
static int read_settings(const char *list, mtpc_sanitizer_spec *spec, char *why, size_t size) {
  size_t end = strcspn(list, ">");
  if (list[end] != '>' || list[end + 1]) {
    snprintf(why, size, "sanitizer settings '%s' do not end with '>'", list);
    return 1;
  }
  for (size_t at = 0; at < end;) {
    size_t len = strcspn(list + at, ";>");
    int known = spec->kind == MTPC_SANITIZER_ADDRESS ? read_address_setting(list + at, len, spec)
                : spec->kind == MTPC_SANITIZER_MEMORY ? read_memory_setting(list + at, len, spec)
                                                       : 0;
    if (!known) {
      snprintf(why, size, "unknown sanitizer setting '%.*s'", (int)len, list + at);
      return 1;
    }
    at += len + (list[at + len] == ';');
  }
  return 0;
}

int mtpc_sanitizer_spec_read(const char *text, mtpc_sanitizer_spec *spec, char *why, size_t size) {
  set_defaults(spec);
  if (!text || !*text)
    return 0;
  size_t len = strcspn(text, "<");
  if (is(text, len, "thread"))
    spec->kind = MTPC_SANITIZER_THREAD;
  else if (is(text, len, "address"))
    spec->kind = MTPC_SANITIZER_ADDRESS;
  else if (is(text, len, "memory"))
    spec->kind = MTPC_SANITIZER_MEMORY;
  else if (is(text, len, "dataflow"))
    spec->kind = MTPC_SANITIZER_DATAFLOW;
  else {
    snprintf(why, size,
             "sanitizers '%s': mtpc runs \"address\", \"memory\", \"thread\" or \"dataflow\"",
             text);
    return 1;
  }
  return text[len] ? read_settings(text + len + 1, spec, why, size) : 0;
}
