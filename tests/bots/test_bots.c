/* test_bots.c — the bots of src/bots through bot.h.
 *
 * The central property: a bot sees only its seat's observation.  Two states
 * that differ only in cards hidden from the seat (the second drawn with the
 * game's sampler from the first one's observation) give identical
 * observations, and a bot seeded alike picks the same action in both.
 * Also: specs are parsed and rejected with reasons, every bot plays whole
 * games with legal actions only, and equal seeds give equal games, also
 * when two threads play at once (run under ThreadSanitizer by CI, that test
 * also proves the bots share no unsynchronised state). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "support/ctx.h"

#include "croupier/alloc.h"
#include "croupier/bot.h"
#include "croupier/game.h"

static cr_game *new_dml(int players)
{
    char err[256];
    cr_params p = {.num_players = players};
    cr_game *g = cr_game_new(cr_registry_find("dml"), &p, err, sizeof err);
    assert_non_null(g);
    return g;
}

static int in_list(const cr_action *legal, int n, cr_action a)
{
    for (int i = 0; i < n; i++)
        if (legal[i] == a) return 1;
    return 0;
}

static const char *const specs[] = {"random", "heuristic", "ismcts:iters=64",
                                    "ismcts:iters=64,rollout=heuristic,threads=2",
                                    "ismcts:iters=64,chance=tree,cutoff=40"};
enum { N_SPECS = sizeof specs / sizeof specs[0] };

/* Plays random moves from a fresh game and stops at decision points; at each
 * one checks the hidden-card property for every bot kind. */
static void test_bot_cannot_tell_hidden_cards(void **state)
{
    (void)state;
    cr_game *g = new_dml(4);
    void *st = cr_alloc(g->state_size), *st2 = cr_alloc(g->state_size);
    void *obs = cr_alloc(g->obs_size), *obs2 = cr_alloc(g->obs_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    cr_action *legal2 = cr_alloc((size_t)g->max_legal * sizeof *legal2);
    cr_rng rng, srng;
    cr_rng_seed(&rng, 2024, 1);
    cr_rng_seed(&srng, 2024, 2);
    int checked = 0, differed = 0;
    for (int game = 0; game < 6 && checked < 40; game++) {
        g->def->init(g, st);
        long steps = 0;
        while (g->def->current_player(g, st) != CR_TERMINAL && checked < 40) {
            int p = g->def->current_player(g, st);
            cr_action a;
            if (p == CR_CHANCE) {
                a = cr_sample_chance(g, st, &rng);
            } else {
                int n = g->def->legal_actions(g, st, legal, NULL);
                if (n >= 2 && steps % 7 == 0) {
                    g->def->observe(g, st, p, obs);
                    assert_int_equal(g->def->sample(g, obs, &srng, st2, test_ctx(g)), CR_OK);
                    if (memcmp(st, st2, g->state_size) != 0) differed++;
                    g->def->observe(g, st2, p, obs2);
                    assert_memory_equal(obs, obs2, g->obs_size);
                    int n2 = g->def->legal_actions(g, st2, legal2, NULL);
                    assert_int_equal(n, n2);
                    assert_memory_equal(legal, legal2, (size_t)n * sizeof *legal);
                    for (int k = 0; k < N_SPECS; k++) {
                        char err[256];
                        uint64_t seed = 99 + (uint64_t)steps;
                        cr_bot *b1 = cr_bot_new(g, specs[k], p, seed, err, sizeof err);
                        cr_bot *b2 = cr_bot_new(g, specs[k], p, seed, err, sizeof err);
                        assert_non_null(b1);
                        assert_non_null(b2);
                        cr_action a1 = cr_bot_act(b1, obs, legal, n);
                        cr_action a2 = cr_bot_act(b2, obs2, legal2, n2);
                        assert_int_equal(a1, a2);
                        assert_true(in_list(legal, n, a1));
                        cr_bot_free(b1);
                        cr_bot_free(b2);
                    }
                    checked++;
                }
                a = legal[cr_rng_below(&rng, (uint32_t)n)];
            }
            g->def->apply(g, st, a, NULL);
            steps++;
        }
    }
    assert_true(checked >= 20);
    assert_true(differed > 0); /* the sampler did move hidden cards */
    cr_free(st);
    cr_free(st2);
    cr_free(obs);
    cr_free(obs2);
    cr_free(legal);
    cr_free(legal2);
    cr_game_free(g);
}

static void test_specs(void **state)
{
    (void)state;
    cr_game *g = new_dml(4);
    char err[256];
    const char *bad[] = {"",
                         "nobot",
                         "ismcts:iters=0",
                         "ismcts:iters=10,ms=5",
                         "ismcts:x=1",
                         "ismcts:rollout=smart",
                         "heuristic:depth=2",
                         "ismcts:iters",
                         "random:",
                         "ismcts:chance=closed",
                         "ismcts:cutoff=-1",
                         "ismcts:cutoff=x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_null(cr_bot_new(g, bad[i], 0, 1, err, sizeof err));
        assert_true(err[0] != '\0');
    }
    assert_null(cr_bot_new(g, "random", 4, 1, err, sizeof err)); /* seat out of range */
    const char *good[] = {"random",
                          "heuristic",
                          "ismcts",
                          "ismcts:iters=2000",
                          "ismcts:ms=500,threads=2,rollout=heuristic,c=0.7",
                          "ismcts:iters=100,chance=tree,cutoff=0",
                          "ismcts:cutoff=200,chance=open"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        cr_bot *b = cr_bot_new(g, good[i], 1, 1, err, sizeof err);
        assert_non_null(b);
        assert_string_equal(cr_bot_spec(b), good[i]);
        assert_int_equal(cr_bot_seat(b), 1);
        cr_bot_free(b);
    }
    cr_bot *r = cr_bot_new(g, "random", 0, 1, err, sizeof err);
    assert_int_equal(cr_bot_wants_obs(r), 0);
    assert_string_equal(cr_bot_kind(r), "random");
    cr_bot_free(r);
    cr_game_free(g);
}

/* Plays one whole game with the given bots; records the actions applied
 * (the first cap of them) and returns their count.  No cmocka assert here:
 * it also runs off the main thread, so a failure (a bot choosing outside
 * the legal list, a game that does not end, no memory) clears *ok. */
static long play_game(const cr_game *g, cr_bot **bots, uint64_t seed, cr_action *log, long cap,
                      int *ok)
{
    void *st = cr_alloc(g->state_size), *obs = cr_alloc(g->obs_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    cr_rng rng;
    cr_rng_seed(&rng, seed, 0);
    *ok = st && obs && legal;
    if (*ok) g->def->init(g, st);
    long n_log = 0;
    while (*ok && g->def->current_player(g, st) != CR_TERMINAL) {
        int p = g->def->current_player(g, st);
        cr_action a;
        if (p == CR_CHANCE) {
            a = cr_sample_chance(g, st, &rng);
        } else {
            int n = g->def->legal_actions(g, st, legal, NULL);
            g->def->observe(g, st, p, obs);
            a = cr_bot_act(bots[p], obs, legal, n);
            *ok = in_list(legal, n, a);
            if (!*ok) break; /* never apply what is not legal */
        }
        g->def->apply(g, st, a, NULL);
        if (n_log < cap) log[n_log] = a;
        n_log++;
        if (n_log >= 1000000) *ok = 0;
    }
    cr_free(st);
    cr_free(obs);
    cr_free(legal);
    return n_log;
}

static void test_bots_play_whole_games_reproducibly(void **state)
{
    (void)state;
    cr_game *g = new_dml(4);
    const char *seats[4] = {"heuristic", "ismcts:iters=40", "random", "heuristic"};
    enum { CAP = 200000 };
    cr_action *log1 = cr_alloc(CAP * sizeof *log1), *log2 = cr_alloc(CAP * sizeof *log2);
    long n[2];
    for (int run = 0; run < 2; run++) {
        cr_bot *bots[4];
        char err[256];
        for (int s = 0; s < 4; s++) {
            bots[s] = cr_bot_new(g, seats[s], s, 7, err, sizeof err);
            assert_non_null(bots[s]);
        }
        int ok;
        n[run] = play_game(g, bots, 11, run ? log2 : log1, CAP, &ok);
        assert_true(ok);
        for (int s = 0; s < 4; s++) cr_bot_free(bots[s]);
    }
    assert_int_equal(n[0], n[1]);
    long k = n[0] < CAP ? n[0] : CAP;
    assert_memory_equal(log1, log2, (size_t)k * sizeof *log1);
    cr_free(log1);
    cr_free(log2);
    cr_game_free(g);
}

/* One heuristic-only game played on its own thread: no cmocka asserts off
 * the main thread, so failures are reported through `ok`. */
typedef struct thread_game {
    const cr_game *g;
    uint64_t seed;
    cr_action log[4096];
    long n_log;
    int ok;
} thread_game;

static void *thread_game_main(void *arg)
{
    thread_game *t = arg;
    cr_bot *bots[4] = {0};
    char err[256];
    t->ok = 1;
    for (int s = 0; t->ok && s < 4; s++) {
        bots[s] = cr_bot_new(t->g, "heuristic", s, t->seed, err, sizeof err);
        t->ok = bots[s] != NULL;
    }
    if (t->ok) t->n_log = play_game(t->g, bots, t->seed, t->log, 4096, &t->ok);
    for (int s = 0; s < 4; s++) cr_bot_free(bots[s]);
    return NULL;
}

/* Must run first in this program: the heuristic's first calls, on two
 * threads at once, are where its once-filled tables get filled.  Each
 * threaded game must equal the same game played alone afterwards. */
static void test_heuristic_on_two_threads_at_first_use(void **state)
{
    (void)state;
    cr_game *g = new_dml(4);
    static thread_game par[2], solo[2];
    pthread_t tid[2];
    for (int i = 0; i < 2; i++) {
        par[i] = (thread_game){.g = g, .seed = 21 + (uint64_t)i};
        solo[i] = par[i];
        assert_int_equal(pthread_create(&tid[i], NULL, thread_game_main, &par[i]), 0);
    }
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_join(tid[i], NULL), 0);
    for (int i = 0; i < 2; i++) {
        thread_game_main(&solo[i]);
        assert_true(par[i].ok);
        assert_true(solo[i].ok);
        assert_true(par[i].n_log > 100);
        assert_int_equal(par[i].n_log, solo[i].n_log);
        long k = par[i].n_log < 4096 ? par[i].n_log : 4096;
        assert_memory_equal(par[i].log, solo[i].log, (size_t)k * sizeof par[i].log[0]);
    }
    cr_game_free(g);
}

/* An ISMCTS decision with one option left once withdraws are dropped is
 * played without a search, and its statistics say so: zero iterations, not
 * the previous search's figures (which `croupier bench` counted twice). */
static void test_ismcts_stats_without_search_are_zero(void **state)
{
    (void)state;
    cr_game *g = new_dml(4);
    cr_bot *bots[4];
    char err[256];
    for (int s = 0; s < 4; s++) {
        bots[s] = cr_bot_new(g, "ismcts:iters=32,threads=1,stop=full", s, 5, err, sizeof err);
        assert_non_null(bots[s]);
    }
    void *st = cr_alloc(g->state_size), *obs = cr_alloc(g->obs_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    cr_rng rng;
    cr_rng_seed(&rng, 3, 0);
    int searched[4] = {0}, checked = 0;
    for (uint64_t game = 0; checked < 20 && game < 50; game++) {
        g->def->init(g, st);
        while (g->def->current_player(g, st) != CR_TERMINAL) {
            int p = g->def->current_player(g, st);
            cr_action a;
            if (p == CR_CHANCE) {
                a = cr_sample_chance(g, st, &rng);
            } else {
                int n = g->def->legal_actions(g, st, legal, NULL), n_keep = 0;
                cr_action keep = -1;
                for (int i = 0; i < n; i++)
                    if (!g->def->is_withdraw(g, st, legal[i])) {
                        n_keep++;
                        keep = legal[i];
                    }
                a = legal[cr_rng_below(&rng, (uint32_t)n)];
                if (n >= 2 && (n_keep >= 2 || searched[p])) {
                    g->def->observe(g, st, p, obs);
                    cr_action b = cr_bot_act(bots[p], obs, legal, n);
                    cr_bot_stats bs;
                    cr_bot_last_stats(bots[p], &bs);
                    if (n_keep >= 2) {
                        assert_true(bs.iterations >= 32);
                        searched[p] = 1;
                    } else if (n_keep == 1) { /* right after a search of this bot */
                        assert_int_equal(b, keep);
                        assert_int_equal(bs.iterations, 0);
                        assert_int_equal(bs.nodes, 0);
                        assert_int_equal(bs.rollout_actions, 0);
                        searched[p] = 0;
                        checked++;
                    }
                }
            }
            g->def->apply(g, st, a, NULL);
        }
    }
    assert_true(checked >= 20);
    for (int s = 0; s < 4; s++) cr_bot_free(bots[s]);
    cr_free(st);
    cr_free(obs);
    cr_free(legal);
    cr_game_free(g);
}

/* stop=early (the default) ends a counted search once the iterations left
 * could not change the move: at every decision of whole games the early
 * and the full search, created alike and asked alike, play the same move,
 * and the early one runs fewer iterations in all (with a prior and
 * without). */
static void test_ismcts_early_stop_plays_the_same_moves(void **state)
{
    (void)state;
    cr_game *g = new_dml(4);
    const char *early[2] = {"ismcts:iters=120", "ismcts:iters=120,prior=20,c=0.3"};
    const char *full[2] = {"ismcts:iters=120,stop=full",
                           "ismcts:iters=120,prior=20,c=0.3,stop=full"};
    void *st = cr_alloc(g->state_size), *obs = cr_alloc(g->obs_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    char err[256];
    for (int v = 0; v < 2; v++) {
        cr_bot *e = cr_bot_new(g, early[v], 1, 9, err, sizeof err);
        cr_bot *f = cr_bot_new(g, full[v], 1, 9, err, sizeof err);
        cr_bot *h = cr_bot_new(g, "heuristic", 0, 9, err, sizeof err);
        assert_true(e && f && h);
        cr_rng rng;
        cr_rng_seed(&rng, 12, (uint64_t)v);
        uint64_t it_early = 0, it_full = 0;
        int decisions = 0;
        g->def->init(g, st);
        while (g->def->current_player(g, st) != CR_TERMINAL) {
            int p = g->def->current_player(g, st);
            cr_action a;
            if (p == CR_CHANCE) {
                a = cr_sample_chance(g, st, &rng);
            } else {
                int n = g->def->legal_actions(g, st, legal, NULL);
                g->def->observe(g, st, p, obs);
                if (p == 1) {
                    a = cr_bot_act(e, obs, legal, n);
                    assert_int_equal(cr_bot_act(f, obs, legal, n), a);
                    cr_bot_stats se, sf;
                    cr_bot_last_stats(e, &se);
                    cr_bot_last_stats(f, &sf);
                    assert_true(se.iterations <= sf.iterations);
                    it_early += se.iterations;
                    it_full += sf.iterations;
                    decisions += sf.iterations > 0;
                } else {
                    a = cr_bot_act(h, obs, legal, n);
                }
            }
            g->def->apply(g, st, a, NULL);
        }
        assert_true(decisions >= 10);
        assert_int_equal(it_full, (uint64_t)decisions * 120);
        assert_true(it_early < it_full);
        cr_bot_free(e);
        cr_bot_free(f);
        cr_bot_free(h);
    }
    cr_free(st);
    cr_free(obs);
    cr_free(legal);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heuristic_on_two_threads_at_first_use),
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_bot_cannot_tell_hidden_cards),
        cmocka_unit_test(test_bots_play_whole_games_reproducibly),
        cmocka_unit_test(test_ismcts_stats_without_search_are_zero),
        cmocka_unit_test(test_ismcts_early_stop_plays_the_same_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
