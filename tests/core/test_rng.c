/* test_rng.c — PCG32 seeding and the derived draws (croupier/rng.h).
 * The reference values are those of O'Neill's pcg32-demo
 * (pcg32_srandom_r(&rng, 42u, 54u)). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "croupier/rng.h"

static void test_reference_sequence(void **state)
{
    (void)state;
    static const uint32_t want[6] = {0xa15c02b7u, 0x7b47f409u, 0xba1d3330u,
                                     0x83d2f293u, 0xbfa4784bu, 0xcbed606eu};
    cr_rng r;
    cr_rng_seed(&r, 42u, 54u);
    for (int i = 0; i < 6; i++) assert_int_equal(cr_rng_u32(&r), want[i]);
}

static void test_same_seed_same_sequence(void **state)
{
    (void)state;
    cr_rng a, b;
    cr_rng_seed(&a, 12345u, 7u);
    cr_rng_seed(&b, 12345u, 7u);
    for (int i = 0; i < 1000; i++) assert_int_equal(cr_rng_u32(&a), cr_rng_u32(&b));
}

static void test_streams_differ(void **state)
{
    (void)state;
    cr_rng a, b;
    cr_rng_seed(&a, 99u, 0u);
    cr_rng_seed(&b, 99u, 1u);
    int same = 0;
    for (int i = 0; i < 100; i++) same += cr_rng_u32(&a) == cr_rng_u32(&b);
    assert_true(same < 3);
    assert_int_equal(a.inc & 1u, 1u); /* the increment is always odd */
    assert_int_equal(b.inc & 1u, 1u);
}

static void test_seeds_differ(void **state)
{
    (void)state;
    cr_rng a, b;
    cr_rng_seed(&a, 1u, 0u);
    cr_rng_seed(&b, 2u, 0u);
    assert_int_not_equal(cr_rng_u32(&a), cr_rng_u32(&b));
}

static void test_below_range_and_uniformity(void **state)
{
    (void)state;
    cr_rng r;
    cr_rng_seed(&r, 2024u, 3u);
    for (int i = 0; i < 100; i++) assert_int_equal(cr_rng_below(&r, 1), 0);

    /* 6 buckets x 60000 draws: each count within 3% of 10000 (about 9 sigma). */
    int count[6] = {0};
    for (int i = 0; i < 60000; i++) {
        uint32_t x = cr_rng_below(&r, 6);
        assert_true(x < 6);
        count[x]++;
    }
    for (int k = 0; k < 6; k++) assert_in_range(count[k], 9700, 10300);

    /* A bound that is not a power of two, near 2^32: still in range. */
    for (int i = 0; i < 1000; i++) assert_true(cr_rng_below(&r, 3000000019u) < 3000000019u);
}

static void test_double_in_unit_interval(void **state)
{
    (void)state;
    cr_rng r;
    cr_rng_seed(&r, 7u, 7u);
    double sum = 0.0;
    for (int i = 0; i < 100000; i++) {
        double x = cr_rng_double(&r);
        assert_true(x >= 0.0 && x < 1.0);
        sum += x;
    }
    double mean = sum / 100000.0;
    assert_true(mean > 0.49 && mean < 0.51);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_sequence),
        cmocka_unit_test(test_same_seed_same_sequence),
        cmocka_unit_test(test_streams_differ),
        cmocka_unit_test(test_seeds_differ),
        cmocka_unit_test(test_below_range_and_uniformity),
        cmocka_unit_test(test_double_in_unit_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
