#include "fault.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of `site` in MTPC_FAULT: "" for a bare site, NULL if absent. */
static const char *fault_value(const char *site, char *buffer, size_t size) {
  const char *spec = getenv("MTPC_FAULT");
  size_t length = strlen(site);
  while (spec && *spec) {
    size_t item = strcspn(spec, ",");
    if (item >= length && strncmp(spec, site, length) == 0 &&
        (item == length || spec[length] == '=')) {
      size_t value = item > length ? item - length - 1 : 0;
      if (value >= size)
        value = size - 1;
      memcpy(buffer, spec + item - value, value);
      buffer[value] = '\0';
      return buffer;
    }
    spec += item + (spec[item] == ',');
  }
  return NULL;
}

int mtpc_fault_codegen(unsigned partition) {
  char value[32];
  if (!fault_value("codegen", value, sizeof value))
    return 0;
  char expected[16];
  snprintf(expected, sizeof expected, "%u", partition);
  return strcmp(value, "all") == 0 || strcmp(value, expected) == 0;
}

int mtpc_fault_write(void) {
  char value[8];
  return fault_value("write", value, sizeof value) != NULL;
}
