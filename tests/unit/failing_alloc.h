/* Forced into every C file of the library copy that test_out_of_memory.c
 * links (tests/CMakeLists.txt): the C library's allocation and free calls go
 * through the test's counters, which can make any one of them fail. */
#ifndef MTPC_FAILING_ALLOC_H
#define MTPC_FAILING_ALLOC_H

/* Included ahead of each file's own first line, which may want GNU's. */
#define _GNU_SOURCE
#include <stdlib.h>

void *mtpc_test_malloc(size_t size);
void *mtpc_test_calloc(size_t count, size_t size);
void *mtpc_test_realloc(void *ptr, size_t size);
void mtpc_test_free(void *ptr);

#define malloc(size) mtpc_test_malloc(size)
#define calloc(count, size) mtpc_test_calloc(count, size)
#define realloc(ptr, size) mtpc_test_realloc(ptr, size)
#define free(ptr) mtpc_test_free(ptr)

#endif
