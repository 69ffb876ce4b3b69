/* test_amounts.c — amounts as actions (game.h: is_legal), table options of
 * every type, and a data file's content hash, on a tiny game made here.
 *
 * The game: one seat bids an amount from 0 to max-bid (an option), then the
 * game ends; the legal list offers a menu (0, 10, 100 and the maximum), while
 * is_legal accepts any amount in range.  A second option chooses a colour
 * (CR_OPT_CHOICE), a third is a flag (CR_OPT_BOOL) and a fourth a data file
 * (CR_OPT_FILE), so the core's option handling is exercised without DML. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/game.h"

enum { OPT_MAX_BID, OPT_COLOUR, OPT_FAST, OPT_BOARD, N_OPT };
static const char *const colours[] = {"red", "green", "blue"};
static const cr_option_def bid_options[N_OPT] = {
    [OPT_MAX_BID] = {.key = "max-bid",
                     .type = CR_OPT_INT,
                     .min = 1,
                     .max = 1000,
                     .def = 500,
                     .help = "the largest bid"},
    [OPT_COLOUR] = {.key = "colour",
                    .type = CR_OPT_CHOICE,
                    .max = 2,
                    .def = 0,
                    .choices = colours,
                    .help = "a colour"},
    [OPT_FAST] = {.key = "fast", .type = CR_OPT_BOOL, .def = 0, .help = "a flag"},
    [OPT_BOARD] = {.key = "board", .type = CR_OPT_FILE, .help = "a data file"},
};
static const cr_variant bid_variants[] = {{"only", "one bid", 1, 1}};

typedef struct bid_state {
    int32_t bid; /* -1 until made */
} bid_state;

static cr_status bid_create(cr_game *g, char *err, size_t cap)
{
    (void)err;
    (void)cap;
    g->num_actions = 1001;
    g->max_legal = 4;
    g->max_chance_outcomes = 1;
    g->max_events = 1;
    g->state_size = g->obs_size = sizeof(bid_state);
    return CR_OK;
}
static void bid_init(const cr_game *g, void *st)
{
    (void)g;
    ((bid_state *)st)->bid = -1;
}
static int bid_player(const cr_game *g, const void *st)
{
    (void)g;
    return ((const bid_state *)st)->bid < 0 ? 0 : CR_TERMINAL;
}
static int bid_legal(const cr_game *g, const void *st, cr_action *out, cr_ctx *cx)
{
    (void)cx;
    if (bid_player(g, st) != 0) return 0;
    int max = g->opt[OPT_MAX_BID], n = 0;
    out[n++] = 0;
    if (max > 10) out[n++] = 10;
    if (max > 100) out[n++] = 100;
    out[n++] = max;
    return n;
}
static int bid_is_legal(const cr_game *g, const void *st, cr_action a)
{
    return bid_player(g, st) == 0 && a >= 0 && a <= g->opt[OPT_MAX_BID];
}
static int bid_chance(const cr_game *g, const void *st, cr_action *out, double *prob)
{
    (void)g;
    (void)st;
    (void)out;
    (void)prob;
    return 0;
}
static void bid_apply(const cr_game *g, void *st, cr_action a, cr_ctx *cx)
{
    (void)g;
    (void)cx;
    ((bid_state *)st)->bid = a;
}
static void bid_returns(const cr_game *g, const void *st, double *out)
{
    (void)g;
    (void)st;
    out[0] = 1;
}
static void bid_result(const cr_game *g, const void *st, cr_result *out)
{
    (void)g;
    memset(out, 0, sizeof *out);
    out->score[0] = ((const bid_state *)st)->bid;
    out->rank[0] = 1;
    out->winners = 1;
}
static size_t bid_to_str(const cr_game *g, const void *st, cr_action a, char *buf, size_t cap)
{
    (void)g;
    (void)st;
    int n = snprintf(buf, cap, "bid %d", (int)a);
    return n < 0 ? 0 : (size_t)n;
}
static cr_status bid_from_str(const cr_game *g, const void *st, const char *s, cr_action *out)
{
    (void)g;
    (void)st;
    int v;
    char tail;
    if (sscanf(s, "bid %d%c", &v, &tail) != 1 || v < 0 || v > 1000) return CR_ERR_PARSE;
    *out = v;
    return CR_OK;
}
static size_t bid_prompt(const cr_game *g, const void *st, char *buf, size_t cap)
{
    (void)st;
    int n = snprintf(buf, cap, "bid 0 to %d", (int)g->opt[OPT_MAX_BID]);
    return n < 0 ? 0 : (size_t)n;
}

static const cr_game_def bid_def = {
    .name = "bid",
    .title = "One bid",
    .variants = bid_variants,
    .n_variants = 1,
    .rules_version = 1,
    .options = bid_options,
    .n_options = N_OPT,
    .create = bid_create,
    .init = bid_init,
    .current_player = bid_player,
    .legal_actions = bid_legal,
    .chance_outcomes = bid_chance,
    .apply = bid_apply,
    .returns = bid_returns,
    .result = bid_result,
    .action_to_str = bid_to_str,
    .str_to_action = bid_from_str,
    .prompt = bid_prompt,
    .is_legal = bid_is_legal,
};

static cr_game *make(cr_params *p, char *err, size_t cap)
{
    p->num_players = 1;
    return cr_game_new(&bid_def, p, err, cap);
}

/* The menu is what bots see; any amount in range can be submitted. */
static void test_any_amount_is_legal(void **state)
{
    (void)state;
    char err[256];
    cr_params p = {0};
    assert_int_equal(cr_params_set(&p, "max-bid", "700"), CR_OK);
    cr_game *g = make(&p, err, sizeof err);
    assert_non_null(g);
    bid_state st;
    bid_init(g, &st);
    cr_action menu[4];
    assert_int_equal(bid_legal(g, &st, menu, NULL), 4);
    assert_int_equal(menu[3], 700);
    assert_true(cr_is_legal(g, &st, 537, NULL)); /* not in the menu, but legal */
    assert_false(cr_is_legal(g, &st, 701, NULL));
    assert_false(cr_is_legal(g, &st, -1, NULL));
    cr_action a = -1;
    assert_int_equal(cr_seat_parse(g, &st, 0, "bid 537", &a, NULL, err, sizeof err), CR_OK);
    assert_int_equal(a, 537);
    assert_int_equal(cr_seat_parse(g, &st, 0, "bid 900", &a, NULL, err, sizeof err),
                     CR_ERR_ILLEGAL);
    assert_string_equal(err, "'bid 900' is not legal now (bid 0 to 700)");
    bid_state copy = st;
    assert_int_equal(cr_apply_checked(g, &copy, 701, NULL), CR_ERR_ILLEGAL);
    assert_int_equal(copy.bid, -1); /* refused: unchanged */
    assert_int_equal(cr_apply_text(g, &st, "bid 537", NULL, err, sizeof err), CR_OK);
    assert_int_equal(st.bid, 537);
    cr_game_free(g);
}

/* Every option type: values, canonical text, refusals naming the key. */
static void test_option_types(void **state)
{
    (void)state;
    char err[256], buf[64];
    cr_params p = {0};
    cr_game *g = make(&p, err, sizeof err);
    assert_non_null(g);
    assert_int_equal(cr_game_option(g, "max-bid"), 500); /* defaults */
    assert_int_equal(cr_game_option(g, "colour"), 0);
    assert_int_equal(cr_game_option(g, "fast"), 0);
    assert_null(g->data_text);
    cr_game_free(g);

    p = (cr_params){0};
    assert_int_equal(cr_params_set(&p, "colour", "blue"), CR_OK);
    assert_int_equal(cr_params_set(&p, "fast", "yes"), CR_OK);
    g = make(&p, err, sizeof err);
    assert_non_null(g);
    assert_int_equal(cr_game_option(g, "colour"), 2);
    cr_option_to_str(g, OPT_COLOUR, buf, sizeof buf);
    assert_string_equal(buf, "blue");
    cr_option_to_str(g, OPT_FAST, buf, sizeof buf);
    assert_string_equal(buf, "yes");
    cr_game_free(g);

    const char *bad[][3] = {
        {"colour", "purple", "option colour: bad value 'purple'"},
        {"fast", "maybe", "option fast: bad value 'maybe' (expected yes or no)"},
        {"max-bid", "0", "expected an integer from 1 to 1000"},
        {"max-bid", "12x", "bad value '12x'"},
        {"nope", "1", "bid has no option 'nope'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p = (cr_params){0};
        assert_int_equal(cr_params_set(&p, bad[i][0], bad[i][1]), CR_OK);
        assert_null(make(&p, err, sizeof err));
        if (!strstr(err, bad[i][2])) fail_msg("%s=%s: %s", bad[i][0], bad[i][1], err);
    }
    char kv[] = "colour=green";
    p = (cr_params){0};
    assert_int_equal(cr_params_set_text(&p, kv), CR_OK);
    assert_string_equal(p.options[0].key, "colour");
    char nokv[] = "colour";
    assert_int_equal(cr_params_set_text(&p, nokv), CR_ERR_INVALID);
}

/* A data file is read by the core, hashed, and refused when hostile. */
static void test_data_file(void **state)
{
    (void)state;
    char err[256], path[] = "/tmp/croupier-test-board-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("a board\n", f);
    fclose(f);
    cr_params p = {0};
    assert_int_equal(cr_params_set(&p, "board", path), CR_OK);
    cr_game *g = make(&p, err, sizeof err);
    assert_non_null(g);
    assert_string_equal(g->data_text, "a board\n");
    assert_int_equal(g->data_len, 8);
    uint64_t h = g->data_hash;
    assert_true(h != 0);
    assert_true(h == cr_data_hash("a board\n", 8));            /* the one hash of game data */
    assert_true(cr_data_hash("", 0) == 0xcbf29ce484222325ull); /* FNV-1a 64's offset basis */
    cr_game_free(g);
    /* another content, another hash */
    f = fopen(path, "w");
    fputs("a board!\n", f);
    fclose(f);
    g = make(&p, err, sizeof err);
    assert_non_null(g);
    assert_true(g->data_hash != h);
    cr_game_free(g);
    /* a NUL byte is refused, naming the offset */
    f = fopen(path, "wb");
    fwrite("ab\0cd", 1, 5, f);
    fclose(f);
    assert_null(make(&p, err, sizeof err));
    assert_non_null(strstr(err, "NUL byte at offset 2"));
    remove(path);
    assert_null(make(&p, err, sizeof err));
    assert_non_null(strstr(err, "option board: cannot open"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_any_amount_is_legal),
        cmocka_unit_test(test_option_types),
        cmocka_unit_test(test_data_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
