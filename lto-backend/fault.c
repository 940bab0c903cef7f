#include "fault.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether MTPC_FAULT lists `site` (value NULL) or `site=value`. */
static int fault_listed(const char *site, const char *value) {
  char wanted[64];
  snprintf(wanted, sizeof wanted, value ? "%s=%s" : "%s", site, value);
  size_t length = strlen(wanted);
  for (const char *spec = getenv("MTPC_FAULT"); spec && *spec;) {
    size_t item = strcspn(spec, ",");
    if (item == length && strncmp(spec, wanted, length) == 0)
      return 1;
    spec += item + (spec[item] == ',');
  }
  return 0;
}

int mtpc_fault_codegen(unsigned partition) {
  char number[16];
  snprintf(number, sizeof number, "%u", partition);
  return fault_listed("codegen", "all") || fault_listed("codegen", number);
}

int mtpc_fault_write(void) { return fault_listed("write", NULL); }
