/* test_cli_util.c — the program's defences against hostile input, at the
 * function level: cli_escape() (what an error may show of user text).
 * src/cli is the program, not the library, so its helpers are compiled into
 * this test directly. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli/cli_util.c"

static const char *escaped(const char *in, size_t len)
{
    static char out[256];
    size_t need = cli_escape(in, len, out, sizeof out);
    assert_true(need < sizeof out);
    assert_int_equal(strlen(out), need);
    return out;
}
#define ESC(lit) escaped(lit, sizeof lit - 1)

static void test_escape_controls_and_backslash(void **state)
{
    (void)state;
    assert_string_equal(ESC("plain text 1..9 ~"), "plain text 1..9 ~");
    assert_string_equal(ESC("\x1b[31mRED\x1b[0m\x1b]0;title\x07"),
                        "\\x1b[31mRED\\x1b[0m\\x1b]0;title\\x07");
    assert_string_equal(ESC("a\nb\rc\td\x7f"), "a\\nb\\rc\\td\\x7f");
    assert_string_equal(ESC("C:\\x1b"), "C:\\\\x1b"); /* a typed \x1b is not an ESC */
    assert_string_equal(escaped("a\0b", 3), "a\\x00b");
}

static void test_escape_utf8(void **state)
{
    (void)state;
    /* printable UTF-8 (2, 3 and 4 bytes) is kept as is */
    assert_string_equal(ESC("d\xc3\xa9j\xc3\xa0 \xe2\x82\xac \xf0\x9f\x82\xa1"),
                        "d\xc3\xa9j\xc3\xa0 \xe2\x82\xac \xf0\x9f\x82\xa1");
    /* invalid: a lone byte, a cut sequence, an overlong '/', a surrogate, past U+10FFFF */
    assert_string_equal(ESC("\xff"), "\\xff");
    assert_string_equal(ESC("x\xc3"), "x\\xc3");
    assert_string_equal(ESC("\xe2\x82"), "\\xe2\\x82");
    assert_string_equal(ESC("\xc0\xaf"), "\\xc0\\xaf");
    assert_string_equal(ESC("\xed\xa0\x80"), "\\xed\\xa0\\x80");
    assert_string_equal(ESC("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
    /* C1 control CSI, and the text-reversing bidi override */
    assert_string_equal(ESC("\xc2\x9b"), "\\xc2\\x9b");
    assert_string_equal(ESC("ab\xe2\x80\xae"
                            "cd"),
                        "ab\\u202ecd");
}

static void test_escape_cuts_between_whole_escapes(void **state)
{
    (void)state;
    char out[8];
    /* "ab\x1b" + "cd": the escape does not fit after "ab" in 7 chars + NUL?  it
     * does (2 + 4 = 6); the following "cd" fits only partly and is dropped
     * whole, never half an escape */
    size_t need = cli_escape("ab\x1b"
                             "cd",
                             5, out, sizeof out);
    assert_int_equal(need, 8);
    assert_string_equal(out, "ab\\x1bc");
    need = cli_escape("a\x1b", 2, out, 4);
    assert_int_equal(need, 5);
    assert_string_equal(out, "a");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape_controls_and_backslash),
        cmocka_unit_test(test_escape_utf8),
        cmocka_unit_test(test_escape_cuts_between_whole_escapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
