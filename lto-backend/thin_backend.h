/* One distributed ThinLTO backend job (clang -c -fthinlto-index=) through
 * LLVM's lto::thinBackend. (C++, thin_backend.cpp.) */
#ifndef MTPC_THIN_BACKEND_H
#define MTPC_THIN_BACKEND_H

#include "mtpc/tools.h"

#endif
