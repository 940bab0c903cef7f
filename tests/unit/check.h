/* A minimal test harness: CHECK records a failure and goes on; each test
 * file's main ends with CHECK_SUMMARY, which prints "N passed, M failed". */
#ifndef MTPC_CHECK_H
#define MTPC_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                                      \
  do {                                                                                   \
    if (cond) {                                                                          \
      check_passed++;                                                                    \
    } else {                                                                             \
      check_failed++;                                                                    \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);           \
    }                                                                                    \
  } while (0)

#define CHECK_EQ_U(a, b)                                                                 \
  do {                                                                                   \
    unsigned long long check_a = (unsigned long long)(a), check_b = (unsigned long long)(b); \
    if (check_a == check_b) {                                                            \
      check_passed++;                                                                    \
    } else {                                                                             \
      check_failed++;                                                                    \
      fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%llu != %llu)\n", __FILE__,        \
              __LINE__, #a, #b, check_a, check_b);                                       \
    }                                                                                    \
  } while (0)

#define CHECK_SUMMARY()                                                                  \
  do {                                                                                   \
    printf("%d passed, %d failed\n", check_passed, check_failed);                        \
    return check_failed ? 1 : 0;                                                         \
  } while (0)

#endif
