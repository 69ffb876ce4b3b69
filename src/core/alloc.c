/* alloc.c — the library's allocator: malloc/free plus a process-wide count
 * of successful allocations, so tests can prove that a code path (legal
 * actions, apply, clone) allocates nothing: read cr_alloc_count() before and
 * after.  The counter is a C11 atomic: threads of the lab may
 * allocate concurrently.  Policy: failure returns NULL; callers decide. */
#include "croupier/alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static _Atomic uint64_t alloc_count;

static void *counted(void *p)
{
    if (p != NULL) atomic_fetch_add_explicit(&alloc_count, 1, memory_order_relaxed);
    return p;
}

void *cr_alloc(size_t n) { return counted(malloc(n ? n : 1)); }

void *cr_calloc(size_t n, size_t size)
{
    if (n == 0 || size == 0) n = size = 1;
    return counted(calloc(n, size));
}

/* cr_realloc(p, 0) frees p and returns NULL (C leaves realloc(p, 0) to the
 * implementation; we don't). */
void *cr_realloc(void *p, size_t n)
{
    if (n == 0) {
        free(p);
        return NULL;
    }
    return counted(realloc(p, n));
}

void cr_free(void *p) { free(p); }

char *cr_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = cr_alloc(n);
    if (d != NULL) memcpy(d, s, n);
    return d;
}

uint64_t cr_alloc_count(void) { return atomic_load_explicit(&alloc_count, memory_order_relaxed); }
