/* test_alloc.c — the counting allocator (croupier/alloc.h) and the status
 * names (croupier/status.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/status.h"

static void test_count_grows_per_allocation(void **state)
{
    (void)state;
    uint64_t before = cr_alloc_count();
    void *a = cr_alloc(10);
    void *b = cr_calloc(3, 8);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(cr_alloc_count(), before + 2);
    for (int i = 0; i < 24; i++) assert_int_equal(((unsigned char *)b)[i], 0);
    a = cr_realloc(a, 1000);
    assert_non_null(a);
    assert_int_equal(cr_alloc_count(), before + 3);
    cr_free(a);
    cr_free(b);
    cr_free(NULL);
    assert_int_equal(cr_alloc_count(), before + 3); /* frees are not counted */
}

static void test_zero_sizes(void **state)
{
    (void)state;
    void *p = cr_alloc(0); /* a valid, freeable pointer */
    assert_non_null(p);
    assert_null(cr_realloc(p, 0)); /* frees p */
    p = cr_calloc(0, 4);
    assert_non_null(p);
    cr_free(p);
}

static void test_strdup(void **state)
{
    (void)state;
    uint64_t before = cr_alloc_count();
    char *s = cr_strdup("croupier");
    assert_string_equal(s, "croupier");
    assert_int_equal(cr_alloc_count(), before + 1);
    cr_free(s);
}

static void test_status_names(void **state)
{
    (void)state;
    assert_string_equal(cr_status_str(CR_OK), "ok");
    const cr_status all[] = {CR_OK,        CR_ERR_ILLEGAL, CR_ERR_PARSE,      CR_ERR_INVALID,
                             CR_ERR_NOMEM, CR_ERR_IO,      CR_ERR_UNSUPPORTED};
    int n = (int)(sizeof all / sizeof all[0]);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            assert_string_not_equal(cr_status_str(all[i]), cr_status_str(all[j]));
    assert_string_equal(cr_status_str((cr_status)999), "unknown status");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_grows_per_allocation),
        cmocka_unit_test(test_zero_sizes),
        cmocka_unit_test(test_strdup),
        cmocka_unit_test(test_status_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
