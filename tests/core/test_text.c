/* test_text.c — the text kit (croupier/text.h): the bounded writer's
 * snprintf semantics, the growing buffer's appends, JSON strings, the
 * render helper and the sticky out-of-memory flag. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/text.h"

static void test_bounded_counts_full_length(void **state)
{
    (void)state;
    char b[8];
    cr_tbuf t;
    cr_tb_init(&t, b, sizeof b);
    cr_tb_printf(&t, "%s", "hello ");
    cr_tb_printf(&t, "%d", 12345);
    assert_int_equal(t.len, 11);
    assert_string_equal(b, "hello 1");
    cr_tb_init(&t, NULL, 0); /* counting only */
    cr_tb_json_str(&t, "a\"b\n");
    assert_int_equal(t.len, strlen("\"a\\\"b\\u000a\""));
}

static void test_grows_and_appends(void **state)
{
    (void)state;
    cr_text t = CR_TEXT_INIT;
    assert_string_equal(cr_text_str(&t), "");
    for (int i = 0; i < 1000; i++) cr_text_printf(&t, "%d,", i % 10);
    assert_int_equal(t.len, 2000);
    assert_int_equal(strlen(t.p), 2000);
    assert_true(t.cap > t.len);
    cr_text_reset(&t);
    assert_int_equal(t.len, 0);
    assert_string_equal(cr_text_str(&t), "");
    cr_text_puts(&t, "ab");
    cr_text_add(&t, "cdef", 2);
    assert_string_equal(t.p, "abcd");
    char *s = cr_text_take(&t);
    assert_string_equal(s, "abcd");
    assert_null(t.p);
    assert_int_equal(t.len, 0);
    cr_free(s);
    s = cr_text_take(&t); /* an empty text is "" */
    assert_non_null(s);
    assert_string_equal(s, "");
    cr_free(s);
    cr_text_free(&t);
}

static void test_json_strings(void **state)
{
    (void)state;
    cr_text t = CR_TEXT_INIT;
    cr_text_json_str(&t, "q\"b\\c\x01\x7f\xc3\xa9");
    assert_string_equal(t.p, "\"q\\\"b\\\\c\\u0001\x7f\xc3\xa9\"");
    /* the same as the bounded writer's */
    char b[64];
    cr_tbuf tb;
    cr_tb_init(&tb, b, sizeof b);
    cr_tb_json_str(&tb, "q\"b\\c\x01\x7f\xc3\xa9");
    assert_string_equal(b, t.p);
    cr_text_reset(&t);
    /* valid UTF-8 whatever the input: a cut sequence, a stray continuation,
     * an overlong form and a surrogate each become U+FFFD; DEL is escaped */
    cr_text_json_utf8(&t, "\xc3\xa9 \xe2\x82 \x80 \xc0\xaf \xed\xa0\x80 \x7f \xf0\x9f\x82\xa1");
    assert_string_equal(t.p, "\"\xc3\xa9 \\ufffd\\ufffd \\ufffd \\ufffd\\ufffd "
                             "\\ufffd\\ufffd\\ufffd \\u007f \xf0\x9f\x82\xa1\"");
    assert_int_equal(cr_utf8_seq("\xf0\x9f\x82\xa1", 4), 4);
    assert_int_equal(cr_utf8_seq("\xf0\x9f\x82\xa1", 3), 0);
    assert_int_equal(cr_utf8_seq("", 0), 0);
    cr_text_free(&t);
}

/* An snprintf-style renderer of n 'x's. */
static size_t render_xs(int n, char *buf, size_t cap)
{
    size_t i = 0;
    for (; cap > 0 && i + 1 < cap && i < (size_t)n; i++) buf[i] = 'x';
    if (cap > 0) buf[i] = '\0';
    return (size_t)n;
}

static void test_render_appends(void **state)
{
    (void)state;
    cr_text t = CR_TEXT_INIT;
    cr_text_puts(&t, "<");
    CR_TEXT_RENDER(&t, render_xs(3, buf, cap)); /* fits at once */
    cr_text_puts(&t, ">");
    assert_string_equal(t.p, "<xxx>");
    cr_text_reset(&t);
    CR_TEXT_RENDER(&t, render_xs(5000, buf, cap)); /* grows, renders again */
    assert_int_equal(t.len, 5000);
    assert_int_equal(strlen(t.p), 5000);
    assert_false(t.oom);
    cr_text_free(&t);
}

static void test_oom_is_sticky(void **state)
{
    (void)state;
    cr_text t = CR_TEXT_INIT;
    cr_text_puts(&t, "kept");
    assert_false(cr_text_reserve(&t, CR_TEXT_MAX)); /* past the bound */
    assert_true(t.oom);
    cr_text_puts(&t, " lost");
    cr_text_printf(&t, "%d", 7);
    assert_string_equal(t.p, "kept");
    cr_text_reset(&t); /* keeps the flag: checked once, at the end */
    cr_text_puts(&t, "x");
    assert_true(t.oom);
    assert_int_equal(t.len, 0);
    assert_null(cr_text_take(&t)); /* and clears it */
    assert_false(t.oom);
    cr_text_puts(&t, "again");
    assert_string_equal(t.p, "again");
    cr_text_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounded_counts_full_length),
        cmocka_unit_test(test_grows_and_appends),
        cmocka_unit_test(test_json_strings),
        cmocka_unit_test(test_render_appends),
        cmocka_unit_test(test_oom_is_sticky),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
