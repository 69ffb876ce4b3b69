/* test_analysis.c — the coach (croupier/analysis.h, issue 19.4):
 *   - deterministic: the same record, seat, budget and seed give the same
 *     analysis, entry for entry;
 *   - blind to what the seat did not know: each decision's evaluation is
 *     the same on a state with the hidden cards dealt again (the game's
 *     sampler, from the seat's observation) and on a record cut at that
 *     decision (no knowledge of the dice and moves that followed);
 *   - marks follow the rule (threshold and twice the standard error), and
 *     a random player is marked for more mistakes than the heuristic one
 *     on the same tables;
 *   - a record with a seat that does not exist is refused;
 *   - a hint (cr_match_hint) is reproducible, changes nothing, and is
 *     refused to a seat not to act and at a table of two humans. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/analysis.h"
#include "croupier/match.h"
#include "croupier/rng.h"

enum { ITERS = 120 };

static cr_match *played(const char *const *seats, uint64_t seed)
{
    char err[256];
    cr_params p = {.num_players = 4};
    cr_match *m = cr_match_new(cr_registry_find("dml"), &p, seats, seed, err, sizeof err);
    if (m == NULL) fail_msg("cr_match_new: %s", err);
    assert_int_equal(cr_match_run(m, 0), CR_TERMINAL);
    return m;
}

static void analyse(const cr_match *m, int seat, int cut, cr_analysis_entry **e, int *n,
                    cr_analysis_summary *sum)
{
    const cr_record *full = cr_match_record(m);
    cr_record r = *full;
    if (cut >= 0 && cut < r.n_actions) r.n_actions = cut; /* the same actions, fewer of them */
    cr_analysis_opts o = {.iters = ITERS, .seed = 7};
    char err[256];
    if (cr_analyse_record(cr_match_game(m), &r, seat, &o, e, n, sum, NULL, NULL, err, sizeof err) !=
        CR_OK)
        fail_msg("analyse: %s", err);
}

static void test_deterministic(void **unused)
{
    (void)unused;
    const char *const seats[4] = {"heuristic", "random", "heuristic", "random"};
    cr_match *m = played(seats, 3);
    cr_analysis_entry *a, *b;
    int na, nb;
    cr_analysis_summary sa, sb;
    analyse(m, 0, -1, &a, &na, &sa);
    analyse(m, 0, -1, &b, &nb, &sb);
    assert_true(na > 10);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, (size_t)na * sizeof *a);
    assert_memory_equal(&sa, &sb, sizeof sa);
    /* the summary is the entries' */
    double total = 0;
    int doubtful = 0, blunders = 0;
    for (int i = 0; i < na; i++) {
        if (a[i].loss > 2 * a[i].stderr_loss) total += a[i].loss;
        doubtful += a[i].mark == CR_MOVE_DOUBTFUL;
        blunders += a[i].mark == CR_MOVE_BLUNDER;
        assert_true(a[i].n_choices >= 2);
        assert_true(a[i].best_win >= a[i].played_win);
        assert_true(a[i].loss >= 0 && a[i].loss <= 1);
        if (a[i].played == a[i].best) assert_true(a[i].loss == 0);
        /* the marking rule: past a threshold and past twice the error */
        int clear = a[i].loss > 2 * a[i].stderr_loss;
        cr_move_mark want = clear && a[i].loss >= 0.10   ? CR_MOVE_BLUNDER
                            : clear && a[i].loss >= 0.04 ? CR_MOVE_DOUBTFUL
                                                         : CR_MOVE_FINE;
        assert_int_equal(a[i].mark, want);
        if (i) assert_true(a[i].step > a[i - 1].step && a[i].decision > a[i - 1].decision);
    }
    assert_int_equal(sa.decisions, na);
    assert_int_equal(sa.doubtful, doubtful);
    assert_int_equal(sa.blunders, blunders);
    assert_true(sa.error_rate >= 999.0 * total / na && sa.error_rate <= 1001.0 * total / na);
    cr_free(a);
    cr_free(b);
    cr_match_free(m);
}

/* The evaluation of a decision sees only what the seat knew. */
static void test_blind_to_hidden_cards_and_future(void **unused)
{
    (void)unused;
    const char *const seats[4] = {"heuristic", "heuristic", "random", "heuristic"};
    cr_match *m = played(seats, 11);
    const cr_game *g = cr_match_game(m);
    const cr_record *r = cr_match_record(m);
    int seat = 1;
    cr_analysis_opts o = {.iters = ITERS, .seed = 7};
    char err[256];
    cr_analyser *an = cr_analyser_new(g, seat, &o, err, sizeof err);
    assert_non_null(an);
    void *st = cr_alloc(g->state_size), *other = cr_alloc(g->state_size);
    void *obs = cr_alloc(g->obs_size), *obs2 = cr_alloc(g->obs_size);
    cr_ctx *cx = cr_ctx_new(g);
    cr_rng rng;
    cr_rng_seed(&rng, 99, 0);
    g->def->init(g, st);
    int compared = 0, differ = 0;
    for (int i = 0; i < r->n_actions && compared < 25; i++) {
        if (g->def->current_player(g, st) == seat && i % 3 == 0) {
            cr_analysis_entry a, b;
            if (cr_analyser_decision(an, st, r->actions[i], i, &a)) {
                /* the hidden cards dealt again, consistently with the seat's view */
                g->def->observe(g, st, seat, obs);
                assert_int_equal(g->def->sample(g, obs, &rng, other, cx), CR_OK);
                g->def->observe(g, other, seat, obs2);
                assert_memory_equal(obs, obs2, g->obs_size);
                differ += memcmp(st, other, g->state_size) != 0;
                assert_int_equal(cr_analyser_decision(an, other, r->actions[i], i, &b), 1);
                assert_memory_equal(&a, &b, sizeof a);
                compared++;
            }
        }
        assert_int_equal(cr_apply_checked(g, st, r->actions[i], cx), CR_OK);
    }
    assert_true(compared >= 10);
    assert_true(differ >= compared / 2); /* the hidden cards did change */

    /* A record cut after a decision: the decisions before it are judged
     * alike (the dice and moves that followed play no part). */
    cr_analysis_entry *whole, *cut;
    int nw, nc;
    cr_analysis_summary sw, sc;
    analyse(m, seat, -1, &whole, &nw, &sw);
    int at = whole[nw / 2].step + 1;
    analyse(m, seat, at, &cut, &nc, &sc);
    assert_true(nc > 0 && nc <= nw);
    assert_memory_equal(whole, cut, (size_t)nc * sizeof *cut);
    cr_free(whole);
    cr_free(cut);

    cr_ctx_free(cx);
    cr_free(st);
    cr_free(other);
    cr_free(obs);
    cr_free(obs2);
    cr_analyser_free(an);
    cr_match_free(m);
}

/* Over the same tables, the random seat's error rate is the higher. */
static void test_random_player_errs_more(void **unused)
{
    (void)unused;
    const char *const seats[4] = {"heuristic", "random", "heuristic", "random"};
    double heur = 0, rnd = 0;
    int heur_marks = 0, rnd_marks = 0;
    for (uint64_t seed = 21; seed <= 22; seed++) {
        cr_match *m = played(seats, seed);
        for (int seat = 0; seat < 2; seat++) {
            cr_analysis_entry *e;
            int n;
            cr_analysis_summary s;
            analyse(m, seat, -1, &e, &n, &s);
            if (seat == 0) {
                heur += s.error_rate;
                heur_marks += s.blunders + s.doubtful;
            } else {
                rnd += s.error_rate;
                rnd_marks += s.blunders + s.doubtful;
            }
            cr_free(e);
        }
        cr_match_free(m);
    }
    print_message("error rate: heuristic %.1f, random %.1f; marks %d against %d\n", heur / 2,
                  rnd / 2, heur_marks, rnd_marks);
    assert_true(rnd > heur);
    assert_true(rnd_marks > 0);
}

static void test_bad_seat(void **unused)
{
    (void)unused;
    const char *const seats[4] = {"random", "random", "random", "random"};
    cr_match *m = played(seats, 1);
    cr_analysis_entry *e = (cr_analysis_entry *)1;
    int n = 5;
    cr_analysis_summary s;
    char err[256] = "";
    assert_int_equal(cr_analyse_record(cr_match_game(m), cr_match_record(m), 4, NULL, &e, &n, &s,
                                       NULL, NULL, err, sizeof err),
                     CR_ERR_INVALID);
    assert_null(e);
    assert_int_equal(n, 0);
    assert_string_equal(err, "no seat 4 in a 4-player game");
    cr_match_free(m);
}

/* A hint: what a tier would play for the seat to act, the same when asked
 * twice, the match untouched; refused for a seat not to act and at a table
 * of two humans. */
static void test_hint(void **unused)
{
    (void)unused;
    char err[256];
    cr_params p = {.num_players = 4};
    const char *const one[4] = {"human", "club", "club", "club"};
    cr_match *m = cr_match_new(cr_registry_find("dml"), &p, one, 5, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(cr_match_run(m, 0), 0); /* seat 0 to act */
    const cr_game *g = cr_match_game(m);
    void *before = cr_alloc(g->state_size);
    memcpy(before, cr_match_state(m), g->state_size);
    int n_before = cr_match_record(m)->n_actions;
    char a[512], b[512];
    assert_int_equal(cr_match_hint(m, 0, "club", a, sizeof a, err, sizeof err), CR_OK);
    assert_non_null(strstr(a, "club would play: "));
    assert_int_equal(cr_match_hint(m, 0, "club", b, sizeof b, err, sizeof err), CR_OK);
    assert_string_equal(a, b);
    assert_int_equal(cr_match_hint(m, 0, NULL, a, sizeof a, err, sizeof err), CR_OK);
    assert_non_null(strstr(a, "master would play: ")); /* the strongest tier by default */
    assert_non_null(strstr(a, "its search rates it "));
    assert_int_equal(cr_match_hint(m, 0, NULL, b, sizeof b, err, sizeof err), CR_OK);
    assert_string_equal(a, b);
    assert_memory_equal(cr_match_state(m), before, g->state_size);
    assert_int_equal(cr_match_record(m)->n_actions, n_before);
    assert_int_equal(cr_match_hint(m, 1, "club", a, sizeof a, err, sizeof err), CR_ERR_ILLEGAL);
    assert_string_equal(err, "a hint is for the seat to act");
    assert_int_equal(cr_match_hint(m, 0, "grandmaster", a, sizeof a, err, sizeof err),
                     CR_ERR_INVALID);
    cr_free(before);
    cr_match_free(m);

    const char *const two[4] = {"human", "human", "club", "club"};
    m = cr_match_new(cr_registry_find("dml"), &p, two, 5, err, sizeof err);
    assert_non_null(m);
    int who = cr_match_run(m, 0);
    assert_true(who == 0 || who == 1);
    assert_int_equal(cr_match_hint(m, who, "club", a, sizeof a, err, sizeof err), CR_ERR_ILLEGAL);
    assert_string_equal(err, "no hints in a game with other human players, unless all agreed "
                             "when the table was made");
    assert_false(cr_match_hints_allowed(m));
    /* agreement comes at the creation, not after the first move */
    assert_int_equal(cr_match_allow_hints(m, err, sizeof err), CR_ERR_ILLEGAL);
    assert_string_equal(err, "hints are agreed when the table is made, before the first move");
    assert_false(cr_match_hints_agreed(m));
    cr_match_free(m);
}

/* Consent at a table of two humans: agreed at the creation, hints are
 * given; the agreement is in the saved record and a loaded match keeps it;
 * a record without it, or with a bad value, gives no hints. */
static void test_hint_consent(void **unused)
{
    (void)unused;
    char err[256], a[512];
    cr_params p = {.num_players = 4};
    const char *const two[4] = {"human", "human", "club", "club"};
    cr_match *m = cr_match_new(cr_registry_find("dml"), &p, two, 5, err, sizeof err);
    assert_non_null(m);
    assert_false(cr_match_hints_allowed(m));
    assert_int_equal(cr_match_allow_hints(m, err, sizeof err), CR_OK);
    assert_true(cr_match_hints_agreed(m));
    assert_true(cr_match_hints_allowed(m));
    int who = cr_match_run(m, 0);
    assert_true(who == 0 || who == 1);
    assert_int_equal(cr_match_hint(m, who, "club", a, sizeof a, err, sizeof err), CR_OK);
    assert_non_null(strstr(a, "club would play: "));

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(cr_match_save(m, f, err, sizeof err), CR_OK);
    fclose(f);
    assert_non_null(strstr(text, "\nhints allowed\n"));
    cr_match *back = cr_match_load(text, len, NULL, 0, err, sizeof err);
    assert_non_null(back);
    assert_true(cr_match_hints_agreed(back));
    assert_int_equal(cr_match_to_act(back), who);
    char b[512];
    assert_int_equal(cr_match_hint(back, who, "club", b, sizeof b, err, sizeof err), CR_OK);
    assert_string_equal(a, b);
    cr_match_free(back);

    /* without the line: no agreement, no hint */
    char *cut = strstr(text, "hints allowed\n");
    memmove(cut, cut + strlen("hints allowed\n"), strlen(cut + strlen("hints allowed\n")) + 1);
    back = cr_match_load(text, strlen(text), NULL, 0, err, sizeof err);
    assert_non_null(back);
    assert_false(cr_match_hints_agreed(back));
    assert_int_equal(cr_match_hint(back, who, "club", b, sizeof b, err, sizeof err),
                     CR_ERR_ILLEGAL);
    cr_match_free(back);
    free(text);
    cr_match_free(m);

    /* a bad value is refused with the line */
    const char *bad = "game dml\nplayers 4\nhints maybe\nactions\n";
    assert_null(cr_match_load(bad, strlen(bad), NULL, 0, err, sizeof err));
    assert_non_null(strstr(err, "line 3: bad hints 'maybe': expected 'allowed'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_blind_to_hidden_cards_and_future),
        cmocka_unit_test(test_random_player_errs_more),
        cmocka_unit_test(test_bad_seat),
        cmocka_unit_test(test_hint),
        cmocka_unit_test(test_hint_consent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
