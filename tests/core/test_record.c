/* test_record.c — game records (croupier/record.h, docs/records.md):
 * malformed input fails with the line number and the problem and never
 * crashes; a random game written and loaded back is the same game. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/record.h"

/* Loads text; on failure returns the status and copies the message. */
static cr_status load(const char *text, char *err, size_t errcap)
{
    cr_record r;
    cr_game *g = (cr_game *)1;
    void *st = (void *)1;
    err[0] = '\0';
    cr_status rc = cr_record_load(text, strlen(text), NULL, &r, &g, &st, err, errcap);
    if (rc == CR_OK) {
        assert_non_null(g);
        assert_non_null(st);
        cr_free(st);
        cr_game_free(g);
        cr_record_fini(&r);
    } else {
        assert_null(g); /* nothing is handed out on failure */
        assert_null(st);
        assert_null(r.actions);
    }
    return rc;
}

#define assert_contains(hay, needle)                                                               \
    do {                                                                                           \
        if (strstr((hay), (needle)) == NULL)                                                       \
            fail_msg("expected \"%s\" in \"%s\"", (needle), (hay));                                \
    } while (0)

static void test_unknown_game(void **state)
{
    (void)state;
    char err[256];
    assert_int_not_equal(
        load("# croupier record\ngame chess\nplayers 2\nactions\n", err, sizeof err), CR_OK);
    assert_contains(err, "line 2:");
    assert_contains(err, "unknown game 'chess'");
}

static void test_bad_header_value(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(load("game dml\nvariant full\nplayers four\nactions\n", err, sizeof err),
                     CR_ERR_PARSE);
    assert_contains(err, "line 3:");
    assert_contains(err, "players");
    assert_contains(err, "four");

    assert_int_equal(load("game dml\nseed -5\nactions\n", err, sizeof err), CR_ERR_PARSE);
    assert_contains(err, "line 2:");
    assert_contains(err, "seed");

    assert_int_equal(load("game dml\nplayers\nactions\n", err, sizeof err), CR_ERR_PARSE);
    assert_contains(err, "line 2:");
    assert_contains(err, "needs a value");
}

static void test_unknown_and_duplicate_keys(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(load("game dml\n\n# comment\ncolour blue\nactions\n", err, sizeof err),
                     CR_ERR_PARSE);
    assert_contains(err, "line 4:");
    assert_contains(err, "unknown header key 'colour'");

    assert_int_equal(load("game dml\nplayers 4\nplayers 3\nactions\n", err, sizeof err),
                     CR_ERR_PARSE);
    assert_contains(err, "line 3:");
    assert_contains(err, "first on line 2");
}

static void test_missing_lines(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(load("game dml\nplayers 4\n", err, sizeof err), CR_ERR_PARSE);
    assert_contains(err, "before the 'actions' line");

    assert_int_equal(load("players 4\nactions\nroll 1 2\n", err, sizeof err), CR_ERR_PARSE);
    assert_contains(err, "line 2:");
    assert_contains(err, "'game'");

    assert_int_not_equal(load("", err, sizeof err), CR_OK);
    assert_contains(err, "line 1:");
}

static void test_bad_table(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(load("game dml\nvariant nosuch\nplayers 4\nactions\n", err, sizeof err),
                     CR_ERR_INVALID);
    assert_contains(err, "line 2:");
    assert_contains(err, "nosuch");

    assert_int_equal(load("game dml\nplayers 7\nactions\n", err, sizeof err), CR_ERR_INVALID);
    assert_contains(err, "line 2:");

    assert_int_equal(load("game dml\nplayers 4\nfirst-roller 6\nactions\n", err, sizeof err),
                     CR_ERR_INVALID);
    assert_contains(err, "line 2:"); /* the table as a whole: cited at its players line */
}

static void test_illegal_action_line(void **state)
{
    (void)state;
    char err[256];
    /* The game opens with the setup roll-off, a chance node: "keep" is notation
     * (a Dabo! decision) but not an outcome of it. */
    const char *hdr = "# croupier record\ngame dml\nvariant full\nplayers 4\nfirst-roller 0\n"
                      "seed 1\nactions\n";
    char text[512];
    snprintf(text, sizeof text, "%s\nfrobnicate the dragon\n", hdr);
    assert_int_equal(load(text, err, sizeof err), CR_ERR_PARSE);
    assert_contains(err, "line 9:");
    assert_contains(err, "unknown action 'frobnicate the dragon'");

    snprintf(text, sizeof text, "%skeep\n", hdr);
    assert_int_equal(load(text, err, sizeof err), CR_ERR_ILLEGAL);
    assert_contains(err, "line 8:");
    assert_contains(err, "not legal now");
}

static void test_nul_and_long_lines(void **state)
{
    (void)state;
    char err[256];
    cr_record r;
    cr_game *g;
    void *st;
    const char text[] = "game dml\nplayers 4\0\nactions\n";
    assert_int_equal(cr_record_load(text, sizeof text - 1, NULL, &r, &g, &st, err, sizeof err),
                     CR_ERR_PARSE);
    assert_contains(err, "line 2:");
    assert_contains(err, "NUL");

    char *big = malloc(5000);
    memcpy(big, "game dml\n# ", 11);
    memset(big + 11, 'x', 4000);
    strcpy(big + 4011, "\nactions\n");
    assert_int_equal(load(big, err, sizeof err), CR_ERR_PARSE);
    assert_contains(err, "line 2:");
    assert_contains(err, "too long");
    free(big);
}

/* Plays `n` random actions (or to the end) of a 4-player game. */
static void random_game(const cr_game *g, void *st, cr_record *r, uint64_t seed, int n)
{
    cr_rng rng;
    cr_rng_seed(&rng, seed, 0);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    g->def->init(g, st);
    for (int i = 0; i < n && !cr_is_terminal(g, st); i++) {
        cr_action a;
        if (cr_current_player(g, st) == CR_CHANCE) {
            a = cr_sample_chance(g, st, &rng);
        } else {
            int k = g->def->legal_actions(g, st, legal, NULL);
            assert_true(k > 0);
            a = legal[cr_rng_below(&rng, (uint32_t)k)];
        }
        assert_int_equal(cr_apply_checked(g, st, a, NULL), CR_OK);
        assert_int_equal(cr_record_push(r, a), CR_OK);
    }
    cr_free(legal);
}

static char *serialize(const cr_game *g, const void *st)
{
    size_t n = g->def->serialize(g, st, NULL, 0);
    char *buf = malloc(n + 1);
    g->def->serialize(g, st, buf, n + 1);
    return buf;
}

/* Writes r through a memory stream; caller frees. */
static char *write_record(const cr_record *r, size_t *len)
{
    char *text = NULL, err[256];
    FILE *f = open_memstream(&text, len);
    assert_non_null(f);
    cr_status rc = cr_record_write(r, f, err, sizeof err);
    if (rc != CR_OK) fail_msg("cr_record_write: %s", err);
    fclose(f);
    return text;
}

static void round_trip(uint64_t seed, int n_actions)
{
    const cr_game_def *def = cr_registry_find("dml");
    assert_non_null(def);
    cr_params p = {.num_players = 4, .variant = NULL};
    assert_int_equal(cr_params_set(&p, "first-roller", "1"), CR_OK);
    char err[256];
    cr_game *g = cr_game_new(def, &p, err, sizeof err);
    assert_non_null(g);
    void *st = cr_alloc(g->state_size);
    cr_record r;
    cr_record_init(&r);
    cr_record_set_game(&r, g);
    r.seed = seed;
    r.has_seed = 1;
    random_game(g, st, &r, seed, n_actions);

    size_t len;
    char *text = write_record(&r, &len);
    assert_contains(text, "game dml\n");
    assert_contains(text, "option first-roller 1\n");
    assert_contains(text, "rules 1\n");

    cr_record back;
    cr_game *g2;
    void *st2;
    cr_status rc = cr_record_load(text, len, NULL, &back, &g2, &st2, err, sizeof err);
    if (rc != CR_OK) fail_msg("reload: %s", err);
    assert_int_equal(back.n_actions, r.n_actions);
    assert_memory_equal(back.actions, r.actions, (size_t)r.n_actions * sizeof(cr_action));
    assert_true(back.has_seed);
    assert_int_equal(back.seed, seed);
    assert_int_equal(back.n_options, 1);
    assert_string_equal(back.opt_key[0], "first-roller");
    assert_string_equal(back.opt_val[0], "1");
    assert_int_equal(g2->opt[0], 1);
    char *a = serialize(g, st), *b = serialize(g2, st2);
    assert_string_equal(a, b);

    /* Writing the loaded record gives the same text. */
    size_t len2;
    char *text2 = write_record(&back, &len2);
    assert_string_equal(text, text2);

    free(a);
    free(b);
    free(text);
    free(text2);
    cr_free(st2);
    cr_game_free(g2);
    cr_record_fini(&back);
    cr_free(st);
    cr_game_free(g);
    cr_record_fini(&r);
}

static void test_round_trip_full_game(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) round_trip(seed, 1000000);
}

static void test_round_trip_unfinished(void **state)
{
    (void)state;
    round_trip(77, 40); /* stops mid-game: loading resumes there */
}

/* Every prefix and many one-byte mutations of a real record load or fail
 * with a line number; none crashes (run under ASan in CI). */
static void test_damaged_records_never_crash(void **state)
{
    (void)state;
    const cr_game_def *def = cr_registry_find("dml");
    cr_params p = {.num_players = 4};
    char err[256];
    cr_game *g = cr_game_new(def, &p, err, sizeof err);
    assert_non_null(g);
    void *st = cr_alloc(g->state_size);
    cr_record r;
    cr_record_init(&r);
    snprintf(r.game, sizeof r.game, "dml");
    r.num_players = 4;
    random_game(g, st, &r, 5, 60);
    size_t len;
    char *text = write_record(&r, &len);

    for (size_t cut = 0; cut <= len; cut++) {
        cr_record x;
        cr_game *gx;
        void *sx;
        if (cr_record_load(text, cut, NULL, &x, &gx, &sx, err, sizeof err) == CR_OK) {
            cr_free(sx);
            cr_game_free(gx);
            cr_record_fini(&x);
        } else {
            assert_contains(err, "line ");
        }
    }
    cr_rng rng;
    cr_rng_seed(&rng, 9, 9);
    char *copy = malloc(len + 1);
    static const char junk[] = " \n#x0123456789abcdefghijklmnopqrstuvwxyzSCHDJQKAT-\t\r\xff";
    for (int i = 0; i < 400; i++) {
        memcpy(copy, text, len + 1);
        copy[cr_rng_below(&rng, (uint32_t)len)] = junk[cr_rng_below(&rng, sizeof junk - 1)];
        cr_record x;
        cr_game *gx;
        void *sx;
        if (cr_record_load(copy, len, NULL, &x, &gx, &sx, err, sizeof err) == CR_OK) {
            cr_free(sx);
            cr_game_free(gx);
            cr_record_fini(&x);
        } else {
            assert_contains(err, "line ");
        }
    }
    free(copy);
    free(text);
    cr_free(st);
    cr_game_free(g);
    cr_record_fini(&r);
}

static void test_comments_blanks_and_crlf(void **state)
{
    (void)state;
    char err[256];
    const char *text = "# croupier record\r\n\r\n  game dml  \r\n# the table\r\nplayers 4\r\n"
                       "actions\r\n\r\n# nothing yet\r\n";
    assert_int_equal(load(text, err, sizeof err), CR_OK);
}

static void test_push_grows(void **state)
{
    (void)state;
    cr_record r;
    cr_record_init(&r);
    for (int i = 0; i < 10000; i++) assert_int_equal(cr_record_push(&r, i), CR_OK);
    assert_int_equal(r.n_actions, 10000);
    assert_true(r.cap_actions >= 10000);
    assert_int_equal(r.actions[9999], 9999);
    cr_record_fini(&r);
    assert_null(r.actions);
    assert_int_equal(r.n_actions, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_game),
        cmocka_unit_test(test_bad_header_value),
        cmocka_unit_test(test_unknown_and_duplicate_keys),
        cmocka_unit_test(test_missing_lines),
        cmocka_unit_test(test_bad_table),
        cmocka_unit_test(test_illegal_action_line),
        cmocka_unit_test(test_nul_and_long_lines),
        cmocka_unit_test(test_round_trip_full_game),
        cmocka_unit_test(test_round_trip_unfinished),
        cmocka_unit_test(test_damaged_records_never_crash),
        cmocka_unit_test(test_comments_blanks_and_crlf),
        cmocka_unit_test(test_push_grows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
