/* test_sim.c — the lab (src/sim) through sim.h: figures identical for a
 * fixed seed with 1 and 2 threads, the progress bar off when stderr is not
 * a terminal, spec lists split as documented, Wilson intervals, a run
 * that fails loudly when an apply overflows its event buffer, the
 * achievements counted as each game earned them, and a run played in parts
 * (as MPI processes play it) put back together into the very same figures,
 * the streaming mode's figures equal to those kept per game, and DML's
 * lab states showing an observed seat what a full state shows it, and the
 * board files of a sweep over 18Dracula's board parameters. */
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
#include "croupier/game.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "croupier/rng.h"
#include "croupier/sim.h"

static void run(int threads, cr_sim_result *r, int progress)
{
    cr_sim_config c;
    memset(&c, 0, sizeof c);
    c.game = "dml";
    c.seats[0] = "heuristic";
    c.seats[1] = "random";
    c.seats[2] = "random";
    c.seats[3] = "ismcts:iters=8";
    c.n_seats = 4;
    c.games = 24;
    c.threads = threads;
    c.seed = 12345;
    c.progress = progress;
    char err[256];
    cr_status s = cr_sim_run(&c, r, err, sizeof err);
    if (s != CR_OK) fail_msg("cr_sim_run: %s", err);
}

static void test_same_figures_whatever_the_threads(void **state)
{
    (void)state;
    cr_sim_result a, b;
    run(1, &a, CR_SIM_PROGRESS_OFF);
    run(2, &b, CR_SIM_PROGRESS_OFF);
    assert_int_equal(a.threads, 1);
    assert_int_equal(b.threads, 2);
    assert_memory_equal(a.per_game, b.per_game, (size_t)a.games * sizeof *a.per_game);
    assert_memory_equal(a.counters, b.counters, sizeof a.counters);
    assert_memory_equal(a.seat, b.seat, sizeof a.seat);
    assert_memory_equal(a.bot, b.bot, sizeof a.bot);
    assert_memory_equal(a.label, b.label, sizeof a.label);
    assert_memory_equal(a.ends, b.ends, sizeof a.ends);
    assert_memory_equal(&a.rounds, &b.rounds, sizeof a.rounds);
    assert_memory_equal(&a.actions, &b.actions, sizeof a.actions);
    assert_int_equal(a.total_actions, b.total_actions);
    long wins = 0;
    for (int s = 0; s < a.num_players; s++) wins += a.seat[s].wins;
    assert_int_equal(wins + a.no_winner, a.games);
    cr_sim_result_fini(&a);
    cr_sim_result_fini(&b);
}

/* DML, a heuristic seat against three random ones, on two threads. */
static void heuristic_against_random(cr_sim_config *c, long games, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->game = "dml";
    c->seats[0] = "heuristic";
    c->seats[1] = c->seats[2] = c->seats[3] = "random";
    c->n_seats = 4;
    c->games = games;
    c->threads = 2;
    c->seed = seed;
    c->progress = CR_SIM_PROGRESS_OFF;
}

/* Every summary figure of b is a's (the per-game records aside). */
static void assert_same_figures(const cr_sim_result *a, const cr_sim_result *b)
{
    assert_memory_equal(a->counters, b->counters, sizeof a->counters);
    assert_memory_equal(a->seat, b->seat, sizeof a->seat);
    assert_memory_equal(a->bot, b->bot, sizeof a->bot);
    assert_memory_equal(a->label, b->label, sizeof a->label);
    assert_memory_equal(a->ends, b->ends, sizeof a->ends);
    assert_int_equal(a->no_winner, b->no_winner);
    assert_memory_equal(&a->rounds, &b->rounds, sizeof a->rounds);
    assert_memory_equal(&a->actions, &b->actions, sizeof a->actions);
    assert_memory_equal(a->achievement_seat, b->achievement_seat, sizeof a->achievement_seat);
    assert_memory_equal(a->achievement_total, b->achievement_total, sizeof a->achievement_total);
    assert_memory_equal(a->achievement_games, b->achievement_games, sizeof a->achievement_games);
    assert_int_equal(a->total_actions, b->total_actions);
}

/* The streaming mode (no_per_game) keeps no result per game and gives
 * the very same figures as a run that keeps them. */
static void test_streaming_gives_the_same_figures(void **state)
{
    (void)state;
    cr_sim_config c;
    heuristic_against_random(&c, 300, 99);
    cr_sim_result a, b;
    char err[256];
    assert_int_equal(cr_sim_run(&c, &a, err, sizeof err), CR_OK);
    c.no_per_game = 1;
    assert_int_equal(cr_sim_run(&c, &b, err, sizeof err), CR_OK);
    assert_non_null(a.per_game);
    assert_null(b.per_game);
    assert_same_figures(&a, &b);
    cr_sim_result_fini(&a);
    cr_sim_result_fini(&b);
}

/* A run in parts that keep no result per game: the parts' tallies, packed
 * to the largest histograms and added word by word (what MPI_Reduce does
 * for croupier sim under mpirun), give the whole run's figures. */
static void test_tallies_of_parts_add_up(void **state)
{
    (void)state;
    cr_sim_config c;
    heuristic_against_random(&c, 301, 17);
    cr_sim_result a, part[3];
    char err[256];
    assert_int_equal(cr_sim_run(&c, &a, err, sizeof err), CR_OK);
    c.no_per_game = 1;
    static const long first[3] = {0, 100, 101}, count[3] = {100, 1, 200};
    uint32_t most[2] = {0, 0};
    for (int q = 0; q < 3; q++) {
        assert_int_equal(cr_sim_run_part(&c, first[q], count[q], &part[q], err, sizeof err), CR_OK);
        assert_null(part[q].per_game);
        uint32_t caps[2];
        cr_sim_tally_caps(&part[q], &caps[0], &caps[1]);
        for (int k = 0; k < 2; k++) most[k] = caps[k] > most[k] ? caps[k] : most[k];
    }
    size_t words = cr_sim_tally_words(most[0], most[1]);
    int64_t *sum = calloc(words, sizeof *sum), *w = calloc(words, sizeof *w);
    assert_non_null(sum);
    assert_non_null(w);
    for (int q = 0; q < 3; q++) {
        if (most[1] > 0) /* below the part's own histogram: refused */
            assert_int_equal(cr_sim_tally_pack(&part[q], most[0], 0, w), CR_ERR_INVALID);
        assert_int_equal(cr_sim_tally_pack(&part[q], most[0], most[1], w), CR_OK);
        for (size_t k = 0; k < words; k++) sum[k] += w[k];
    }
    cr_sim_result b = part[0];
    b.per_game = NULL;
    b.tally = NULL;
    b.games = c.games;
    b.first_game = 0;
    for (int q = 1; q < 3; q++) {
        for (int k = 0; k < CR_SIM_MAX_COUNTERS; k++) b.counters[k] += part[q].counters[k];
        b.total_actions += part[q].total_actions;
    }
    assert_int_equal(cr_sim_tally_unpack(&b, sum, most[0], most[1]), CR_OK);
    assert_same_figures(&a, &b);
    /* the whole run's own tally packs to the same words */
    uint32_t caps[2];
    cr_sim_tally_caps(&a, &caps[0], &caps[1]);
    assert_true(caps[0] <= most[0] && caps[1] <= most[1]);
    assert_int_equal(cr_sim_tally_pack(&a, most[0], most[1], w), CR_OK);
    assert_memory_equal(w, sum, words * sizeof *w);
    free(sum);
    free(w);
    for (int q = 0; q < 3; q++) cr_sim_result_fini(&part[q]);
    cr_sim_result_fini(&a);
    cr_sim_result_fini(&b);
}

/* The lab tells the game which seats' observations a bot reads
 * (cr_lab_profile.observed_seats); DML then keeps only their memory.  A
 * state so marked and a full one, given the same random actions, show the
 * observed seat exactly the same observation at every step. */
static void test_observed_seats_see_the_same(void **state)
{
    (void)state;
    const cr_game_def *def = cr_registry_find("dml");
    cr_params p = {.num_players = 4};
    char err[256];
    cr_game *g = cr_game_new(def, &p, err, sizeof err);
    assert_non_null(g);
    const cr_lab_profile *prof = cr_parts(g)->lab;
    assert_non_null(prof);
    assert_non_null(prof->observed_seats);
    void *full = cr_alloc(g->state_size), *lean = cr_alloc(g->state_size);
    void *oa = cr_alloc(g->obs_size), *ob = cr_alloc(g->obs_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    cr_ctx *cx = cr_ctx_new(g);
    for (uint64_t game = 0; game < 20; game++) {
        int seat = (int)(game % 4);
        g->def->init(g, full);
        g->def->init(g, lean);
        prof->observed_seats(g, lean, 1u << seat);
        cr_rng rng;
        cr_rng_seed(&rng, 4242, game);
        for (int step = 0; step < 5000; step++) {
            g->def->observe(g, full, seat, oa);
            g->def->observe(g, lean, seat, ob);
            assert_memory_equal(oa, ob, g->obs_size);
            int who = g->def->current_player(g, full);
            if (who == CR_TERMINAL) break;
            cr_action a;
            if (who == CR_CHANCE) {
                a = cr_sample_chance(g, full, &rng);
            } else {
                int n = g->def->legal_actions(g, full, legal, cx);
                a = legal[cr_rng_below(&rng, (uint32_t)n)];
            }
            g->def->apply(g, full, a, cx);
            g->def->apply(g, lean, a, cx);
        }
    }
    cr_ctx_free(cx);
    cr_free(legal);
    cr_free(oa);
    cr_free(ob);
    cr_free(full);
    cr_free(lean);
    cr_game_free(g);
}

/* --vary board.KEY: the game's lab profile rewrites one number of its
 * board file; the lab writes it to a temporary file that loads as a board.
 * Bad keys and values fail with a message naming the parameter. */
static void test_board_parameters(void **state)
{
    (void)state;
    cr_sim_config c;
    memset(&c, 0, sizeof c);
    c.game = "18dracula";
    c.seats[0] = "random";
    c.n_seats = 1;
    c.games = 1;
    char path[256], err[1024];
    const char *opt = NULL;
    assert_int_equal(
        cr_sim_board_file(&c, "phase.2.limit", "3", path, sizeof path, &opt, err, sizeof err),
        CR_OK);
    assert_string_equal(opt, "board");
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "phase 2 ", 8) == 0) found = strstr(line, " limit 3 ") != NULL;
    fclose(f);
    assert_true(found);
    /* the run plays on it */
    c.options[0].key = opt;
    c.options[0].value = path;
    c.n_options = 1;
    c.progress = CR_SIM_PROGRESS_OFF;
    cr_sim_result r;
    assert_int_equal(cr_sim_run(&c, &r, err, sizeof err), CR_OK);
    cr_sim_result_fini(&r);
    unlink(path);
    c.n_options = 0;
    assert_int_equal(
        cr_sim_board_file(&c, "monster.GHL.price", "70", path, sizeof path, &opt, err, sizeof err),
        CR_OK);
    unlink(path);
    /* refusals name the parameter and what is allowed */
    assert_int_equal(
        cr_sim_board_file(&c, "bank.size", "8000", path, sizeof path, &opt, err, sizeof err),
        CR_ERR_INVALID);
    assert_non_null(strstr(err, "board.bank.size"));
    assert_non_null(strstr(err, "phase.N.limit"));
    assert_non_null(strstr(err, "cash.N"));
    assert_int_equal(
        cr_sim_board_file(&c, "cash.7", "500", path, sizeof path, &opt, err, sizeof err),
        CR_ERR_INVALID);
    assert_non_null(strstr(err, "not a board parameter"));
    assert_int_equal(cr_sim_board_file(&c, "bank", "999", path, sizeof path, &opt, err, sizeof err),
                     CR_ERR_INVALID);
    assert_non_null(strstr(err, "board.bank=999: expected a whole number in 1000..1000000"));
    assert_int_equal(
        cr_sim_board_file(&c, "assoc.LL.price", "82", path, sizeof path, &opt, err, sizeof err),
        CR_ERR_INVALID);
    assert_non_null(strstr(err, "board.assoc.LL.price=82"));
    assert_non_null(strstr(err, "not a multiple of 5"));
    assert_int_equal(
        cr_sim_board_file(&c, "assoc.LL.price", "120", path, sizeof path, &opt, err, sizeof err),
        CR_ERR_INVALID);
    assert_non_null(strstr(err, "assoc BT price 100 is below LL's 120"));
    assert_int_equal(
        cr_sim_board_file(&c, "assoc.XY.price", "50", path, sizeof path, &opt, err, sizeof err),
        CR_ERR_INVALID);
    assert_non_null(strstr(err, "unknown associate 'XY'"));
    assert_int_equal(
        cr_sim_board_file(&c, "phase.2.limit", "0", path, sizeof path, &opt, err, sizeof err),
        CR_ERR_INVALID);
    assert_non_null(strstr(err, "board.phase.2.limit=0"));
    assert_non_null(strstr(err, "1..9"));
    assert_int_equal(
        cr_sim_board_file(&c, "phase.5.sales", "4", path, sizeof path, &opt, err, sizeof err),
        CR_ERR_INVALID);
    assert_non_null(strstr(err, "no sales"));
    /* the rules' money and prices: records the bundled board leaves out
     * are added, then set again on a board that has them */
    static const char *const money[][3] = {
        {"bank", "8000", "bank 8000\n"},
        {"cash.4", "700", "cash 4 700\n"},
        {"assoc.LL.price", "95", "assoc LL price 95\n"},
    };
    for (int k = 0; k < 3; k++) {
        assert_int_equal(cr_sim_board_file(&c, money[k][0], money[k][1], path, sizeof path, &opt,
                                           err, sizeof err),
                         CR_OK);
        f = fopen(path, "r");
        assert_non_null(f);
        found = 0;
        while (fgets(line, sizeof line, f)) found += strcmp(line, money[k][2]) == 0;
        fclose(f);
        assert_int_equal(found, 1);
        /* a board that has the record: the number is replaced, another
         * player count is added to the same line */
        char path2[256];
        cr_sim_config c2 = c;
        c2.options[0].key = "board";
        c2.options[0].value = path;
        c2.n_options = 1;
        const char *val = k == 0 ? "9000" : k == 1 ? "650" : "100";
        const char *key2 = k == 1 ? "cash.2" : money[k][0];
        assert_int_equal(
            cr_sim_board_file(&c2, key2, val, path2, sizeof path2, &opt, err, sizeof err), CR_OK);
        static const char *const want[3] = {"bank 9000\n", "cash 2 650 4 700\n",
                                            "assoc LL price 100\n"};
        f = fopen(path2, "r");
        assert_non_null(f);
        found = 0;
        while (fgets(line, sizeof line, f)) found += strcmp(line, want[k]) == 0;
        fclose(f);
        assert_int_equal(found, 1);
        if (k == 1) { /* and the games play on it: 4 players start with 700, 2 with 650 */
            cr_sim_config run = c2;
            run.options[0].value = path2;
            run.num_players = 2;
            run.games = 2;
            run.progress = CR_SIM_PROGRESS_OFF;
            cr_sim_result rr;
            assert_int_equal(cr_sim_run(&run, &rr, err, sizeof err), CR_OK);
            assert_int_equal(rr.games, 2);
            cr_sim_result_fini(&rr);
        }
        unlink(path2);
        unlink(path);
    }
    c.game = "dml";
    assert_int_equal(
        cr_sim_board_file(&c, "phase.2.limit", "3", path, sizeof path, &opt, err, sizeof err),
        CR_ERR_INVALID);
    assert_non_null(strstr(err, "no board parameters"));
}

/* A copy of DML whose create() reports a max_events far below what its
 * applies write: the lab sizes its buffer from max_events, so the first
 * apply beyond it drops events, and the run must fail (naming the game and
 * the seed) rather than report counts that are short. */
static cr_status (*dml_create)(cr_game *g, char *err, size_t errcap);
static cr_status create_small_bound(cr_game *g, char *err, size_t errcap)
{
    cr_status s = dml_create(g, err, errcap);
    g->max_events = 2;
    return s;
}

static void test_dropped_events_fail_the_run(void **state)
{
    (void)state;
    const cr_game_def *dml = cr_registry_find("dml");
    assert_non_null(dml);
    cr_game_def small = *dml;
    dml_create = dml->create;
    small.create = create_small_bound;
    cr_sim_config c;
    memset(&c, 0, sizeof c);
    c.game = "dml";
    c.def = &small;
    c.seats[0] = "random";
    c.n_seats = 1;
    c.num_players = 4;
    c.games = 3;
    c.threads = 1;
    c.seed = 777;
    c.progress = CR_SIM_PROGRESS_OFF;
    cr_sim_result r;
    char err[256] = "";
    assert_int_equal(cr_sim_run(&c, &r, err, sizeof err), CR_ERR_INVALID);
    assert_non_null(strstr(err, "game 0 (seed 777)"));
    assert_non_null(strstr(err, "max_events (2)"));
    assert_null(r.per_game); /* nothing half-counted is handed back */

    /* the same copy with DML's own bound plays through */
    small.create = dml->create;
    assert_int_equal(cr_sim_run(&c, &r, err, sizeof err), CR_OK);
    assert_int_equal(r.games, 3);
    cr_sim_result_fini(&r);
}

/* Game i of the lab is the match of seed cr_sim_game_seed(seed, i): played
 * again through the match layer (as `croupier play --seed` does), it ends
 * the same, action for action. */
static void test_lab_games_replay_as_matches(void **state)
{
    (void)state;
    const char *seats[4] = {"heuristic", "random", "random", "random"};
    cr_sim_config c;
    memset(&c, 0, sizeof c);
    c.game = "dml";
    c.n_seats = 4;
    for (int s = 0; s < 4; s++) c.seats[s] = seats[s];
    c.games = 6;
    c.threads = 2;
    c.seed = 99;
    c.progress = CR_SIM_PROGRESS_OFF;
    cr_sim_result r;
    char err[256];
    assert_int_equal(cr_sim_run(&c, &r, err, sizeof err), CR_OK);
    for (long i = 0; i < c.games; i++) {
        cr_params p = {.num_players = 4};
        cr_match *m = cr_match_new(cr_registry_find("dml"), &p, seats, cr_sim_game_seed(c.seed, i),
                                   err, sizeof err);
        assert_non_null(m);
        assert_int_equal(cr_match_run(m, 0), CR_TERMINAL);
        cr_result res;
        cr_match_result(m, &res);
        assert_int_equal(cr_match_record(m)->n_actions, (int)r.per_game[i].actions);
        for (int s = 0; s < 4; s++) assert_int_equal(res.score[s], r.per_game[i].score[s]);
        assert_int_equal(res.winners, r.per_game[i].winners);
        /* the achievements the lab recorded are the game's own, by index */
        const cr_game *g = cr_match_game(m);
        for (int s = 0; s < 4; s++) {
            const char *keys[64];
            int n = cr_parts(g)->achievements(g, cr_match_state(m), s, keys, 64);
            uint64_t want = 0;
            for (int k = 0; k < n; k++)
                for (int j = 0; j < r.n_achievements; j++)
                    if (!strcmp(keys[k], r.achievement_keys[j])) want |= (uint64_t)1 << j;
            assert_int_equal(__builtin_popcountll(want), n);
            assert_true(want == r.per_game[i].achieved[s]);
        }
        cr_match_free(m);
    }
    cr_sim_result_fini(&r);
}

/* The lab counts each achievement per seat, over the seats and in games,
 * from the per-game bits; the text, JSON and CSV reports carry them. */
static void test_achievements_counted(void **state)
{
    (void)state;
    cr_sim_result r;
    run(2, &r, CR_SIM_PROGRESS_OFF);
    assert_true(r.n_achievements > 0);
    long earned = 0;
    for (int k = 0; k < r.n_achievements; k++) {
        long seats = 0, games = 0;
        for (int s = 0; s < r.num_players; s++) seats += r.achievement_seat[k][s];
        for (long i = 0; i < r.games; i++) {
            int any = 0;
            for (int s = 0; s < r.num_players; s++)
                any |= (int)(r.per_game[i].achieved[s] >> k & 1);
            games += any;
        }
        assert_int_equal(seats, r.achievement_total[k]);
        assert_int_equal(games, r.achievement_games[k]);
        earned += seats;
    }
    assert_true(earned > 0); /* 24 games: every one with a winner earns something */
    /* market-manipulator: exactly the games with a single winner */
    int mm = -1;
    for (int k = 0; k < r.n_achievements; k++)
        if (!strcmp(r.achievement_keys[k], "market-manipulator")) mm = k;
    assert_true(mm >= 0);
    assert_int_equal(r.achievement_games[mm], r.games - r.no_winner);
    char path[] = "/tmp/croupier-test-sim-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[256], buf[1 << 16];
    assert_int_equal(cr_sim_write_json(&r, 1, NULL, NULL, path, err, sizeof err), CR_OK);
    FILE *f = fopen(path, "r");
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    char want[160];
    snprintf(want, sizeof want,
             "{\"key\": \"market-manipulator\", \"title\": \"Market manipulator\", "
             "\"earned\": %ld, \"games\": %ld",
             r.achievement_total[mm], r.achievement_games[mm]);
    assert_non_null(strstr(buf, want));
    assert_int_equal(cr_sim_write_csv(&r, 1, NULL, path, err, sizeof err), CR_OK);
    f = fopen(path, "r");
    len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    assert_non_null(strstr(buf, ",achievements0,achievements1,achievements2,achievements3\n"));
    long rows = 0;
    for (const char *p = buf; (p = strstr(p, "market-manipulator")) != NULL; p++) rows++;
    assert_int_equal(rows, r.achievement_total[mm]);
    f = fopen(path, "w");
    cr_sim_print(&r, f);
    fclose(f);
    f = fopen(path, "r");
    len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    assert_non_null(strstr(buf, "\nAchievements "));
    assert_non_null(strstr(buf, "  seize-the-initiative "));
    unlink(path);
    cr_sim_result_fini(&r);
}

static void test_progress_off_when_stderr_is_not_a_terminal(void **state)
{
    (void)state;
    char path[] = "/tmp/croupier_test_sim_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0);
    assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
    int enabled = cr_sim_progress_enabled(CR_SIM_PROGRESS_AUTO);
    cr_sim_result r;
    run(2, &r, CR_SIM_PROGRESS_AUTO);
    fflush(stderr);
    off_t size = lseek(fd, 0, SEEK_END);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(fd);
    unlink(path);
    assert_int_equal(enabled, 0);
    assert_int_equal(size, 0);
    assert_int_equal(cr_sim_progress_enabled(CR_SIM_PROGRESS_ON), 1);
    assert_int_equal(cr_sim_progress_enabled(CR_SIM_PROGRESS_OFF), 0);
    cr_sim_result_fini(&r);
}

static void test_split_specs(void **state)
{
    (void)state;
    char buf[256];
    char *out[8];
    int n = cr_sim_split_specs("heuristic,ismcts:iters=100,threads=2,random;ismcts:ms=5,c=1", buf,
                               sizeof buf, out, 8);
    assert_int_equal(n, 4);
    assert_string_equal(out[0], "heuristic");
    assert_string_equal(out[1], "ismcts:iters=100,threads=2");
    assert_string_equal(out[2], "random");
    assert_string_equal(out[3], "ismcts:ms=5,c=1");
    assert_int_equal(cr_sim_split_specs("a,b,c", buf, sizeof buf, out, 2), -1);
    /* a piece after ';' starts a spec of its own, even when a ',' follows it */
    n = cr_sim_split_specs("ismcts:iters=9;c=1,random", buf, sizeof buf, out, 8);
    assert_int_equal(n, 3);
    assert_string_equal(out[0], "ismcts:iters=9");
    assert_string_equal(out[1], "c=1");
    assert_string_equal(out[2], "random");
}

static void test_wilson(void **state)
{
    (void)state;
    double lo, hi;
    cr_sim_wilson(50, 100, &lo, &hi);
    assert_true(lo > 0.4038 && lo < 0.4040); /* 0.40383 */
    assert_true(hi > 0.5961 && hi < 0.5962); /* 0.59617 */
    cr_sim_wilson(0, 10, &lo, &hi);
    assert_true(lo == 0 && hi > 0.27 && hi < 0.28);
}

/* A run played in three parts (one of them empty), as `croupier sim` under
 * mpirun plays it: the parts' games are the whole run's games of the same
 * indices, and put back together (per_game in order, counters and actions
 * added) and summarized, they give every figure of the whole run, bit for
 * bit.  A range outside the run is refused. */
static void test_parts_make_the_whole_run(void **state)
{
    (void)state;
    cr_sim_config c;
    memset(&c, 0, sizeof c);
    c.game = "dml";
    c.seats[0] = "heuristic";
    c.seats[1] = "random";
    c.seats[2] = "random";
    c.seats[3] = "random";
    c.n_seats = 4;
    c.games = 61;
    c.threads = 2;
    c.seed = 2024;
    c.progress = CR_SIM_PROGRESS_OFF;
    char err[256];
    cr_sim_result whole, part[3];
    assert_int_equal(cr_sim_run(&c, &whole, err, sizeof err), CR_OK);
    const long first[3] = {0, 17, 17}, count[3] = {17, 0, 44};
    for (int p = 0; p < 3; p++) {
        assert_int_equal(cr_sim_run_part(&c, first[p], count[p], &part[p], err, sizeof err), CR_OK);
        assert_int_equal(part[p].games, count[p]);
        assert_int_equal(part[p].first_game, first[p]);
        assert_int_equal(part[p].threads, count[p] < 2 ? count[p] : 2);
        if (count[p])
            assert_memory_equal(part[p].per_game, whole.per_game + first[p],
                                (size_t)count[p] * sizeof *whole.per_game);
    }
    assert_null(part[1].per_game);
    assert_string_equal(part[1].end_names[0], whole.end_names[0]);

    cr_sim_result r = part[0]; /* the configuration, as part 0 filled it in */
    r.tally = NULL;            /* part 0's own, as its per_game */
    r.games = c.games;
    r.first_game = 0;
    r.per_game = cr_calloc((size_t)c.games, sizeof *r.per_game);
    assert_non_null(r.per_game);
    r.total_actions = 0;
    memset(r.counters, 0, sizeof r.counters);
    for (int p = 0; p < 3; p++) {
        if (count[p])
            memcpy(r.per_game + first[p], part[p].per_game, (size_t)count[p] * sizeof *r.per_game);
        r.total_actions += part[p].total_actions;
        for (int k = 0; k < r.n_counters; k++) r.counters[k] += part[p].counters[k];
        cr_sim_result_fini(&part[p]);
    }
    for (int again = 0; again < 2; again++) { /* summarizing twice changes nothing */
        assert_int_equal(cr_sim_summarize(&r), CR_OK);
        assert_memory_equal(r.seat, whole.seat, sizeof r.seat);
        assert_int_equal(r.n_bots, whole.n_bots);
        assert_memory_equal(r.bot_spec, whole.bot_spec, sizeof r.bot_spec);
        assert_memory_equal(r.bot, whole.bot, sizeof r.bot);
        assert_memory_equal(r.label, whole.label, sizeof r.label);
        assert_memory_equal(r.ends, whole.ends, sizeof r.ends);
        assert_int_equal(r.no_winner, whole.no_winner);
        assert_memory_equal(&r.rounds, &whole.rounds, sizeof r.rounds);
        assert_memory_equal(&r.actions, &whole.actions, sizeof r.actions);
        assert_memory_equal(r.counters, whole.counters, sizeof r.counters);
        assert_memory_equal(r.achievement_seat, whole.achievement_seat, sizeof r.achievement_seat);
        assert_memory_equal(r.achievement_total, whole.achievement_total,
                            sizeof r.achievement_total);
        assert_memory_equal(r.achievement_games, whole.achievement_games,
                            sizeof r.achievement_games);
        assert_int_equal(r.total_actions, whole.total_actions);
    }
    assert_true(whole.counters[0] > 0 || whole.n_counters == 0);
    cr_sim_result_fini(&r);
    cr_sim_result_fini(&whole);

    cr_sim_result bad;
    assert_int_equal(cr_sim_run_part(&c, 60, 2, &bad, err, sizeof err), CR_ERR_INVALID);
    assert_non_null(strstr(err, "not part of a run of 61 games"));
    assert_int_equal(cr_sim_run_part(&c, -1, 1, &bad, err, sizeof err), CR_ERR_INVALID);
    assert_null(bad.per_game);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_specs),
        cmocka_unit_test(test_wilson),
        cmocka_unit_test(test_dropped_events_fail_the_run),
        cmocka_unit_test(test_same_figures_whatever_the_threads),
        cmocka_unit_test(test_streaming_gives_the_same_figures),
        cmocka_unit_test(test_tallies_of_parts_add_up),
        cmocka_unit_test(test_observed_seats_see_the_same),
        cmocka_unit_test(test_board_parameters),
        cmocka_unit_test(test_lab_games_replay_as_matches),
        cmocka_unit_test(test_achievements_counted),
        cmocka_unit_test(test_progress_off_when_stderr_is_not_a_terminal),
        cmocka_unit_test(test_parts_make_the_whole_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
