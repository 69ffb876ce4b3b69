/* test_game.c — 18Dracula through the game interface on the bundled board:
 * creation with the board option, setup on the real board (2.3-2.7), and
 * random play from the seating through the auction and the stock rounds,
 * checking at every step that the legal list agrees with is_legal, that
 * money is conserved and that the list bound holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/record.h"
#include "croupier/rng.h"
#include "games/18dracula/d18_internal.h"

static int money(const d18_state *s)
{
    int m = s->bank + s->minor_cash[0] + s->minor_cash[1];
    for (int p = 0; p < s->np; p++) m += s->cash[p];
    for (int f = 0; f < D18_NFRONTS; f++) m += s->treasury[f];
    return m;
}

static cr_game *make(int np)
{
    cr_params p = {.num_players = np};
    char err[256];
    cr_game *g = cr_game_new(&d18_def, &p, err, sizeof err);
    if (!g) fail_msg("%s", err);
    return g;
}

static void test_setup_on_the_bundled_board(void **unused)
{
    (void)unused;
    cr_game *g = make(4);
    const d18_board *b = d18_brd(g);
    d18_state s;
    g->def->init(g, &s);
    int blk = d18_board_find_location(b, "BLK"), bal = d18_board_find_location(b, "BAL");
    assert_true(blk >= 0 && bal >= 0);
    assert_int_equal(b->bt.city, blk);
    assert_int_equal(b->ll.city, bal);
    assert_int_equal(s.space_occ[blk][b->bt.space], D18_ENT_BT);
    assert_int_equal(s.space_occ[bal][b->ll.space], D18_ENT_LL);
    assert_int_equal(s.castle, b->castle_start);
    assert_int_equal(s.cube[b->castle_start], D18_CUBE_PRE);
    assert_int_equal(s.supply[D18_YELLOW], b->cubes[D18_YELLOW] - 1); /* R44 */
    assert_int_equal(s.supply[D18_GREEN], 0);
    assert_int_equal(money(&s), D18_MONEY_TOTAL);
    cr_game_free(g);
}

/* Plays at random from the seating until the first operating round. */
static void test_random_play_to_the_first_operating_round(void **unused)
{
    (void)unused;
    cr_action *legal = malloc(sizeof *legal * 4096);
    double prob[720];
    for (int np = 2; np <= 6; np++) {
        cr_game *g = make(np);
        cr_ctx *cx = cr_ctx_new(g);
        for (int game = 0; game < 40; game++) {
            cr_rng rng;
            cr_rng_seed(&rng, (uint64_t)(np * 1000 + game), 7);
            d18_state s;
            g->def->init(g, &s);
            for (int step = 0; step < 20000; step++) {
                int who = g->def->current_player(g, &s);
                if (s.sr_no >= 1 && s.stage != D18_S_SR && s.stage != D18_S_SR_OFFER) break;
                assert_true(who == CR_CHANCE || (who >= 0 && who < np));
                int n;
                if (who == CR_CHANCE) {
                    n = g->def->chance_outcomes(g, &s, legal, prob);
                } else {
                    uint64_t before = cr_alloc_count();
                    n = g->def->legal_actions(g, &s, legal, cx);
                    assert_int_equal(cr_alloc_count(), before);
                }
                assert_true(n >= 1 && n <= g->max_legal);
                for (int i = 0; i < n; i++) {
                    assert_true(d18_is_legal(g, &s, legal[i]));
                    if (i) assert_true(legal[i - 1] < legal[i]);
                }
                cr_action a = legal[cr_rng_below(&rng, (uint32_t)n)];
                g->def->apply(g, &s, a, cx);
                assert_int_equal(money(&s), D18_MONEY_TOTAL);
                for (int p = 0; p < np; p++) assert_true(s.cash[p] >= 0);
            }
            assert_true(s.sr_no == 1 && s.stage != D18_S_SR);
            for (int a = 0; a < D18_NASSOC; a++) assert_true(s.assoc_owner[a] >= 0);
            for (int f = 0; f < D18_NFRONTS; f++) {
                int total = s.ipo[f] + s.pool[f];
                for (int p = 0; p < np; p++) total += s.held[f][p];
                assert_int_equal(total, D18_SHARES);
            }
        }
        cr_ctx_free(cx);
        cr_game_free(g);
    }
    free(legal);
}

/* Random games from the seating to the end under the real rules, with the
 * invariants after every step; a game longer than the lab's cap fails. */
static void test_random_games_end(void **unused)
{
    (void)unused;
    cr_action *legal = malloc(sizeof *legal * 4096);
    double prob[720];
    char err[256];
    int ends[D18_END_TECH_BANKRUPTCY + 1] = {0};
    for (int np = 2; np <= 6; np++) {
        cr_game *g = make(np);
        cr_ctx *cx = cr_ctx_new(g);
        assert_non_null(cx);
        for (int game = 0; game < 6; game++) {
            cr_rng rng;
            cr_rng_seed(&rng, (uint64_t)(np * 77 + game), 3);
            d18_state s;
            g->def->init(g, &s);
            long step = 0;
            for (; step < 200000; step++) {
                int who = g->def->current_player(g, &s);
                if (who == CR_TERMINAL) break;
                int n = who == CR_CHANCE ? g->def->chance_outcomes(g, &s, legal, prob)
                                         : g->def->legal_actions(g, &s, legal, cx);
                if (n < 1) fail_msg("no legal action: stage %d, step %ld", s.stage, step);
                assert_true(n <= g->max_legal);
                g->def->apply(g, &s, legal[cr_rng_below(&rng, (uint32_t)n)], cx);
                if (d18_check_invariants(g, &s, err, sizeof err))
                    fail_msg("%d players, game %d, step %ld: %s", np, game, step, err);
            }
            if (step >= 200000) fail_msg("%d players, game %d: stalled", np, game);
            ends[s.end_reason]++;
        }
        cr_ctx_free(cx);
        cr_game_free(g);
    }
    print_message("ends: bank %d, no progress %d, bankruptcy %d, technical bankruptcy %d\n",
                  ends[D18_END_BANK], ends[D18_END_NO_PROGRESS], ends[D18_END_BANKRUPTCY],
                  ends[D18_END_TECH_BANKRUPTCY]);
    free(legal);
}

/* A board that changes the rules' money and prices (docs/18dracula-board.md,
 * "Money and associates"): the game starts with its bank, its starting
 * money for the table's size and its associates' prices, keeps the money it
 * starts with, and random games on it end; its positions load back. */
static void test_games_on_a_board_with_other_money(void **unused)
{
    (void)unused;
    size_t len;
    const char *orig = d18_board_builtin_text(&len);
    char path[] = "/tmp/croupier-test-money-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(orig, 1, len, f), len);
    fputs("bank 6000\ncash 2 3000 4 900 6 200\nassoc LL price 100\nassoc FD price 400\n", f);
    assert_int_equal(fclose(f), 0);
    static const int cash[7] = {0, 0, 3000, 800, 900, 480, 200};
    cr_action *legal = malloc(sizeof *legal * 4096);
    double prob[720];
    char err[256];
    for (int np = 2; np <= 6; np++) {
        cr_params p = {.num_players = np};
        assert_int_equal(cr_params_set(&p, "board", path), CR_OK);
        cr_game *g = cr_game_new(&d18_def, &p, err, sizeof err);
        if (!g) fail_msg("%s", err);
        cr_ctx *cx = cr_ctx_new(g);
        d18_state s;
        g->def->init(g, &s);
        assert_int_equal(s.bank, 6000 - D18_BT_START_CASH);
        for (int q = 0; q < np; q++) assert_int_equal(s.cash[q], cash[np]);
        assert_int_equal(s.assoc_price_now[D18_LL], 100);
        assert_int_equal(s.assoc_price_now[D18_BT], 100);
        assert_int_equal(s.assoc_price_now[D18_FD], 400);
        assert_int_equal(money(&s), 6000 + np * cash[np]);
        cr_rng rng;
        cr_rng_seed(&rng, (uint64_t)np, 11);
        long step = 0;
        for (; step < 200000; step++) {
            int who = g->def->current_player(g, &s);
            if (who == CR_TERMINAL) break;
            int n = who == CR_CHANCE ? g->def->chance_outcomes(g, &s, legal, prob)
                                     : g->def->legal_actions(g, &s, legal, cx);
            if (n < 1) fail_msg("no legal action: stage %d, step %ld", s.stage, step);
            g->def->apply(g, &s, legal[cr_rng_below(&rng, (uint32_t)n)], cx);
            if (d18_check_invariants(g, &s, err, sizeof err))
                fail_msg("%d players, step %ld: %s", np, step, err);
            if (step == 500) { /* a position mid-game loads back, money and prices checked */
                char buf[65536];
                size_t w = g->def->serialize(g, &s, buf, sizeof buf);
                assert_true(w > 0 && w < sizeof buf);
                d18_state back;
                if (g->def->deserialize(g, &back, buf, w, err, sizeof err) != CR_OK)
                    fail_msg("%s", err);
                assert_memory_equal(&back, &s, sizeof s);
            }
        }
        if (step >= 200000) fail_msg("%d players: stalled", np);
        cr_ctx_free(cx);
        cr_game_free(g);
    }
    free(legal);
    unlink(path);
}

/* A position the engine writes on the bundled board carries the bundled
 * board's data_hash, and loads back with no board file given (issue 18.8:
 * the loader asked for a file whenever a hash was present); a hash of other
 * data is refused, naming both hashes. */
static void test_position_on_the_bundled_board_loads(void **unused)
{
    (void)unused;
    cr_game *g = make(4);
    d18_state s;
    g->def->init(g, &s);
    size_t n = g->def->serialize(g, &s, NULL, 0);
    char *text = malloc(n + 1);
    assert_non_null(text);
    assert_int_equal(g->def->serialize(g, &s, text, n + 1), n);
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)g->data_hash);
    assert_non_null(strstr(text, hash));

    cr_game *g2 = NULL;
    void *st = NULL;
    char err[512] = "";
    cr_status rc = cr_position_load(text, n, "18dracula", NULL, &g2, &st, err, sizeof err);
    if (rc != CR_OK) fail_msg("%s", err);
    assert_int_equal(g2->data_hash, g->data_hash);
    assert_memory_equal(st, &s, sizeof s);
    cr_free(st);
    cr_game_free(g2);

    char *h = strstr(text, hash);
    h[0] = h[0] == '0' ? '1' : '0';
    rc = cr_position_load(text, n, "18dracula", NULL, &g2, &st, err, sizeof err);
    assert_int_equal(rc, CR_ERR_INVALID);
    assert_non_null(strstr(err, "data_hash"));
    assert_non_null(strstr(err, "the bundled data has hash"));
    free(text);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_on_the_bundled_board),
        cmocka_unit_test(test_random_play_to_the_first_operating_round),
        cmocka_unit_test(test_random_games_end),
        cmocka_unit_test(test_games_on_a_board_with_other_money),
        cmocka_unit_test(test_position_on_the_bundled_board_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
