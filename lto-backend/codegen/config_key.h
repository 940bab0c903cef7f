/* What of an lto::Config keys the partition cache (C++, config_key.cpp: LLVM-C
 * has no Config). */
#ifndef MTPC_CONFIG_KEY_H
#define MTPC_CONFIG_KEY_H

#include "pipeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every field of the settings' Config that can change an object, as
 * "field=value" lines (profiles and pass plugins by their contents too);
 * the Config lent by a linker as much as one built from the options.
 * malloc'ed; NULL when memory is out. */
char *mtpc_bridge_describe_config(const mtpc_bridge_settings *settings);

/* Whether the Config asks for outputs besides the object that a cache hit
 * would not write: optimization remarks, printed passes, statistics. */
int mtpc_bridge_config_writes_more(const mtpc_bridge_settings *settings);

/* Whether the Config's pipeline reads function names: sample and
 * context-sensitive profiles (used or written) and their remapping, a basic
 * block sections list, and LLVM options, which may name functions. */
int mtpc_bridge_config_reads_names(const mtpc_bridge_settings *settings);

#ifdef __cplusplus
}
#endif

#endif
