/* croupier/alloc.h — every heap allocation of the library goes through
 * cr_alloc/cr_free, so tests can count allocations (the hot path must make
 * none) and make them fail.  Thread-safe counters. */
#ifndef CROUPIER_ALLOC_H
#define CROUPIER_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

void *cr_alloc(size_t n); /* NULL on failure */
void *cr_calloc(size_t n, size_t size);
void *cr_realloc(void *p, size_t n);
void cr_free(void *p);
char *cr_strdup(const char *s);

/* Number of successful cr_alloc/cr_calloc/cr_realloc calls so far. */
uint64_t cr_alloc_count(void);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
