#include "fault.h"

#include <stdio.h>
#include <string.h>

/* Whether `spec` lists `site` (value NULL) or `site=value`. */
static int fault_listed(const char *spec, const char *site, const char *value) {
  char wanted[64];
  snprintf(wanted, sizeof wanted, value ? "%s=%s" : "%s", site, value);
  size_t length = strlen(wanted);
  while (spec && *spec) {
    size_t item = strcspn(spec, ",");
    if (item == length && strncmp(spec, wanted, length) == 0)
      return 1;
    spec += item + (spec[item] == ',');
  }
  return 0;
}

static int listed_for(const char *spec, const char *site, unsigned partition) {
  if (!spec)
    return 0;
  char number[16];
  snprintf(number, sizeof number, "%u", partition);
  return fault_listed(spec, site, "all") || fault_listed(spec, site, number);
}

int mtpc_fault_codegen(const char *spec, unsigned partition) {
  return listed_for(spec, "codegen", partition);
}

int mtpc_fault_reload(const char *spec, unsigned partition) {
  return listed_for(spec, "reload", partition);
}

int mtpc_fault_write(const char *spec) { return spec && fault_listed(spec, "write", NULL); }

int mtpc_fault_cache(const char *spec) { return spec && fault_listed(spec, "cache", NULL); }

int mtpc_fault_hold(const char *spec) { return spec && fault_listed(spec, "hold", NULL); }
