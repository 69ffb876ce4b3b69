/* croupier/rng.h — PCG32 (O'Neill's permuted congruential generator) with
 * explicit state.  Every consumer owns its generator; nothing is global, so
 * a seed reproduces a run exactly. */
#ifndef CROUPIER_RNG_H
#define CROUPIER_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct cr_rng {
    uint64_t state;
    uint64_t inc; /* odd: selects one of 2^63 streams */
} cr_rng;

/* Seeds from (seed, stream): distinct streams never overlap in practice,
 * so (seed, game index) gives each simulated game its own generator. */
void cr_rng_seed(cr_rng *r, uint64_t seed, uint64_t stream);

static inline uint32_t cr_rng_u32(cr_rng *r)
{
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ULL + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

/* Uniform in [0, bound), bound >= 1, without modulo bias (Lemire). */
static inline uint32_t cr_rng_below(cr_rng *r, uint32_t bound)
{
    uint64_t m = (uint64_t)cr_rng_u32(r) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (uint32_t)(-bound) % bound;
        while (low < threshold) {
            m = (uint64_t)cr_rng_u32(r) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double cr_rng_double(cr_rng *r)
{
    uint64_t hi = cr_rng_u32(r) >> 5, lo = cr_rng_u32(r) >> 6;
    return (double)(hi * 67108864.0 + lo) / 9007199254740992.0;
}

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
