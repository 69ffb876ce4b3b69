/* rng.c — seeding of the PCG32 generator (the step functions are inline in
 * croupier/rng.h).  The seeding is O'Neill's pcg32_srandom_r, so a
 * (seed, stream) pair gives the same sequence as the reference
 * implementation: seed 42, stream 54 starts 0xa15c02b7 0x7b47f409 ... */
#include "croupier/rng.h"

void cr_rng_seed(cr_rng *r, uint64_t seed, uint64_t stream)
{
    r->state = 0u;
    r->inc = (stream << 1u) | 1u; /* any odd increment is a full-period stream */
    (void)cr_rng_u32(r);
    r->state += seed;
    (void)cr_rng_u32(r);
}
