/* test_log_summary.c — the event log in words (croupier/log_summary.h) at
 * the widths the terminal clients ask for: packed and wrapped, no line is
 * wider than its width (in screen columns, a suit symbol counting one);
 * narrowing the width only moves the line breaks (the same headers and the
 * same items, in the same order); every event is counted; line mode's
 * byte-counted width is not a screen's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "croupier/log_summary.h"
#include "croupier/match.h"

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void emit(void *ctx, const char *s, size_t n)
{
    text *t = ctx;
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->p = realloc(t->p, t->cap);
        assert_non_null(t->p);
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

static cr_match *bots_match(const char *game, int players, uint64_t seed, int actions)
{
    const char *seats[CR_MAX_PLAYERS];
    for (int s = 0; s < players; s++) seats[s] = s % 2 ? "heuristic" : "random";
    cr_params p = {0};
    p.num_players = players;
    char err[256];
    const cr_game_def *def = cr_registry_find(game);
    assert_non_null(def);
    cr_match *m = cr_match_new(def, &p, seats, seed, err, sizeof err);
    assert_non_null(m);
    cr_match_run(m, actions);
    return m;
}

/* The summary of the whole log as `view` at `width`. */
static int summary(const cr_match *m, int view, int width, int wrap, int utf8, text *out)
{
    cr_log_summary_opts o = {.width = width, .utf8_columns = utf8, .wrap = wrap, .indent = ""};
    int oom = 0;
    out->len = 0;
    int k = cr_log_summary(m, 0, cr_match_event_count(m), view, &o, emit, out, &oom);
    assert_int_equal(oom, 0);
    assert_non_null(out->p);
    return k;
}

static size_t utf8_len(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += ((unsigned char)s[i] & 0xC0) != 0x80;
    return k;
}

/* The summary with the layout taken out: headers kept as lines, the items
 * of a group one per line (continuation lines joined with a space, items
 * packed "; " split apart). */
static char *normalized(const text *t)
{
    char *r = malloc(t->len * 2 + 2);
    assert_non_null(r);
    size_t n = 0;
    const char *s = t->p;
    while (*s) {
        const char *nl = strchr(s, '\n');
        assert_non_null(nl);
        if (strncmp(s, "    ", 4) == 0) { /* continuation of the item before */
            r[n++] = ' ';
            memcpy(r + n, s + 4, (size_t)(nl - s - 4));
            n += (size_t)(nl - s - 4);
        } else {
            if (n > 0) r[n++] = '\n';
            const char *b = s[0] == ' ' ? s + 2 : s;
            memcpy(r + n, b, (size_t)(nl - b));
            n += (size_t)(nl - b);
        }
        s = nl + 1;
    }
    r[n] = '\0';
    /* "; " between packed items becomes a line break */
    for (char *p = strstr(r, "; "); p; p = strstr(p, "; ")) {
        p[0] = '\n';
        memmove(p + 1, p + 2, strlen(p + 2) + 1);
    }
    return r;
}

/* s without its spaces. */
static void squeeze(char *s)
{
    char *d = s;
    for (; *s; s++)
        if (*s != ' ') *d++ = *s;
    *d = '\0';
}

static int count_lines(const text *t)
{
    int k = 0;
    for (size_t i = 0; i < t->len; i++) k += t->p[i] == '\n';
    return k;
}

static void check_widths(const char *game, int players, uint64_t seed, int view)
{
    cr_match *m = bots_match(game, players, seed, 120);
    text wide = {0}, narrow = {0}, verbose = {0};
    int all = summary(m, view, 0, 0, 1, &wide);
    assert_true(all > 30);
    cr_log_summary_opts vo = {.verbose = 1};
    assert_int_equal(cr_log_summary(m, 0, cr_match_event_count(m), view, &vo, emit, &verbose, NULL),
                     all);
    char *want = normalized(&wide), *want_squeezed = normalized(&wide);
    int prev_lines = 0;
    static const int widths[] = {200, 96, 60, 36, 28, 20};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        int width = widths[w];
        assert_int_equal(summary(m, view, width, 1, 1, &narrow), all);
        /* no line wider than the width */
        for (const char *s = narrow.p; *s;) {
            const char *nl = strchr(s, '\n');
            size_t cols = utf8_len(s, (size_t)(nl - s));
            if (cols > (size_t)width)
                fail_msg("%d columns > %d: '%.*s'", (int)cols, width, (int)(nl - s), s);
            s = nl + 1;
        }
        /* the same headers and items, only the breaks moved (a word wider
         * than a continuation line is cut: then only the spaces differ) */
        char *got = normalized(&narrow);
        if (width >= 28) assert_string_equal(got, want);
        squeeze(got);
        squeeze(want_squeezed);
        assert_string_equal(got, want_squeezed);
        free(got);
        /* narrower: never fewer lines */
        int lines = count_lines(&narrow);
        assert_true(lines >= prev_lines);
        if (width == 20) assert_true(lines > prev_lines);
        prev_lines = lines;
    }
    free(want);
    free(want_squeezed);
    free(wide.p);
    free(narrow.p);
    free(verbose.p);
    cr_match_free(m);
}

static void test_dml_widths(void **state)
{
    (void)state;
    check_widths("dml", 4, 21, 0);
    check_widths("dml", 4, 7, CR_SEAT_OMNISCIENT);
    check_widths("dml", 3, 3, CR_SEAT_PUBLIC);
}

static void test_18dracula_widths(void **state)
{
    (void)state;
    check_widths("18dracula", 3, 5, 1);
}

/* Line mode counts bytes, a screen counts characters: "×" is two bytes and
 * one column, so the same width packs fewer items per line in bytes. */
static void test_columns(void **state)
{
    (void)state;
    cr_log_summary_opts bytes = {0}, cols = {.utf8_columns = 1};
    const char *s = "a card moves ×2 \xe2\x99\xa0";
    assert_int_equal(cr_log_columns(&bytes, s, strlen(s)), strlen(s));
    assert_int_equal(cr_log_columns(&cols, s, strlen(s)), strlen(s) - 3);
    cr_match *m = bots_match("dml", 4, 21, 120);
    text b = {0}, c = {0};
    summary(m, 0, 40, 0, 0, &b);
    summary(m, 0, 40, 0, 1, &c);
    assert_true(count_lines(&b) >= count_lines(&c));
    /* headers name the seat: the viewer as "you", a bot by its spec */
    assert_non_null(strstr(c.p, "P1 (heuristic):\n"));
    assert_null(strstr(c.p, "P0 (random):\n"));
    /* an empty range emits nothing and counts nothing */
    text none = {0};
    cr_log_summary_opts o = {.width = 30, .wrap = 1};
    assert_int_equal(cr_log_summary(m, 9, 9, 0, &o, emit, &none, NULL), 0);
    assert_int_equal(none.len, 0);
    assert_int_equal(cr_log_summary(m, 9, 3, 0, &o, emit, &none, NULL), 0);
    assert_int_equal(none.len, 0);
    free(b.p);
    free(c.p);
    cr_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dml_widths),
        cmocka_unit_test(test_18dracula_widths),
        cmocka_unit_test(test_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
