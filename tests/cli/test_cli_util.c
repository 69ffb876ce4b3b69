/* test_cli_util.c — the program's defences against hostile input, at the
 * function level: cli_escape() (what an error may show of user text),
 * cli_read_file() (stops at CLI_MAX_INPUT and at a NUL byte, even on an
 * endless pipe) and the output checks of sim/play (cli_out_check,
 * cli_out_discard).  src/cli is the program, not the library, so its
 * helpers are compiled into this test directly. */
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

/* ---- cli_read_file ---- */

static char tmpdir[64];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cr-cli-util-XXXXXX");
    return mkdtemp(tmpdir) == NULL;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) != 0;
}

static void write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void test_read_file_nul_byte(void **state)
{
    (void)state;
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/nul.rec", tmpdir);
    write_file(path, "game dml\n\0rest", 14);
    size_t len = 0;
    assert_null(cli_read_file(path, &len, err, sizeof err));
    assert_non_null(strstr(err, "nul.rec: NUL byte at offset 9"));
}

static void test_read_file_limit_is_exact(void **state)
{
    (void)state;
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/big.rec", tmpdir);
    char *data = malloc(CLI_MAX_INPUT + 1);
    assert_non_null(data);
    memset(data, '#', CLI_MAX_INPUT + 1);
    write_file(path, data, CLI_MAX_INPUT); /* exactly the limit: read */
    size_t len = 0;
    char *text = cli_read_file(path, &len, err, sizeof err);
    assert_non_null(text);
    assert_int_equal(len, CLI_MAX_INPUT);
    assert_int_equal(text[len], '\0');
    free(text);
    write_file(path, data, CLI_MAX_INPUT + 1); /* one byte more: refused */
    free(data);
    assert_null(cli_read_file(path, &len, err, sizeof err));
    assert_non_null(strstr(err, "big.rec: larger than 16 MiB"));
}

/* Writes 'a' into a pipe until the reader goes away or 64 MiB are written. */
typedef struct writer {
    int fd;
    size_t written;
} writer;

static void *write_endlessly(void *arg)
{
    writer *w = arg;
    static char chunk[65536];
    memset(chunk, 'a', sizeof chunk);
    while (w->written < ((size_t)64 << 20)) {
        ssize_t n = write(w->fd, chunk, sizeof chunk);
        if (n <= 0) break; /* EPIPE: the reader has stopped */
        w->written += (size_t)n;
    }
    close(w->fd);
    return NULL;
}

static void test_read_file_stops_on_an_endless_pipe(void **state)
{
    (void)state;
    signal(SIGPIPE, SIG_IGN);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    writer w = {fds[1], 0};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, write_endlessly, &w), 0);
    char path[64], err[256];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    size_t len = 0;
    char *text = cli_read_file(path, &len, err, sizeof err);
    close(fds[0]); /* the writer now fails with EPIPE */
    pthread_join(th, NULL);
    free(text);
    assert_null(text);
    assert_non_null(strstr(err, "larger than 16 MiB"));
    /* read no more than the limit, one buffer and what the pipe holds */
    assert_true(w.written <= CLI_MAX_INPUT + ((size_t)2 << 20));
}

/* ---- output checks ---- */

static void test_out_check_creates_and_discards(void **state)
{
    (void)state;
    char path[128], err[256];
    int created = -1;
    snprintf(path, sizeof path, "%s/r.json", tmpdir);
    assert_int_equal(cli_out_check(path, &created, err, sizeof err), 0);
    assert_int_equal(created, 1);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    cli_out_discard(path, created);
    assert_int_not_equal(stat(path, &sb), 0); /* gone again */

    /* an existing file is neither emptied nor removed */
    write_file(path, "keep", 4);
    assert_int_equal(cli_out_check(path, &created, err, sizeof err), 0);
    assert_int_equal(created, 0);
    cli_out_discard(path, created);
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_size, 4);

    /* a path that cannot be written is named with the reason */
    snprintf(path, sizeof path, "%s/nodir/r.json", tmpdir);
    assert_int_equal(cli_out_check(path, &created, err, sizeof err), -1);
    assert_int_equal(created, 0);
    assert_non_null(strstr(err, "cannot write "));
    assert_non_null(strstr(err, "nodir/r.json: No such file or directory"));
    assert_int_equal(cli_out_check(tmpdir, &created, err, sizeof err), -1);
    assert_non_null(strstr(err, "Is a directory"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape_controls_and_backslash),
        cmocka_unit_test(test_escape_utf8),
        cmocka_unit_test(test_escape_cuts_between_whole_escapes),
        cmocka_unit_test(test_read_file_nul_byte),
        cmocka_unit_test(test_read_file_limit_is_exact),
        cmocka_unit_test(test_read_file_stops_on_an_endless_pipe),
        cmocka_unit_test(test_out_check_creates_and_discards),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
