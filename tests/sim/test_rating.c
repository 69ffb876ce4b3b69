/* test_rating.c — tiers and ratings (issue 19.3): a tier's name stands for
 * its game's spec wherever a spec is taken, an unknown one is refused with
 * the game's tiers named, heuristic:noise is checked and reproducible, and
 * the lab's rating mode (cr_sim_ratings) orders beginner < casual < club on
 * DML with intervals around each rating, the same figures on every run, and
 * a rating played in parts, each part's games written as CSV, is fitted from
 * those files (cr_sim_ratings_read) to the whole rating's figures; a file
 * of another rating, or not such a CSV, is refused with its line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "croupier/bot.h"
#include "croupier/parts.h"
#include "croupier/sim.h"

static cr_game *make(const char *name, int np)
{
    cr_params p = {.num_players = np};
    char err[256];
    cr_game *g = cr_game_new(cr_registry_find(name), &p, err, sizeof err);
    if (!g) fail_msg("%s", err);
    return g;
}

static void test_tiers(void **unused)
{
    (void)unused;
    const cr_game_def *dml = cr_registry_find("dml"), *d18 = cr_registry_find("18dracula");
    assert_string_equal(cr_bot_tier_spec(dml, "club"), "heuristic");
    assert_string_equal(cr_bot_tier_spec(dml, "beginner"), "random");
    assert_non_null(cr_bot_tier_spec(dml, "master"));
    assert_null(cr_bot_tier_spec(d18, "master"));
    assert_null(cr_bot_tier_spec(dml, "heuristic"));
    /* every game names three to five, weakest first, each a valid spec */
    for (int i = 0; i < cr_registry_count(); i++) {
        const cr_game_parts *p = cr_registry_get(i)->parts;
        assert_non_null(p);
        assert_true(p->n_tiers >= 3 && p->n_tiers <= 5);
        for (int t = 0; t < p->n_tiers; t++) {
            char err[256];
            assert_true(cr_bot_spec_valid(p->tiers[t].spec, err, sizeof err));
            assert_true(strlen(p->tiers[t].words) > 10);
        }
    }
    char err[256];
    assert_true(cr_bot_spec_valid("expert", err, sizeof err));
    assert_false(cr_bot_spec_valid("grandmaster", err, sizeof err));

    cr_game *g = make("dml", 4);
    cr_bot *b = cr_bot_new(g, "club", 1, 5, err, sizeof err);
    assert_non_null(b);
    assert_string_equal(cr_bot_kind(b), "heuristic");
    assert_string_equal(cr_bot_spec(b), "club"); /* it keeps the name it was given */
    cr_bot_free(b);
    b = cr_bot_new(g, "expert", 1, 5, err, sizeof err);
    assert_non_null(b);
    assert_string_equal(cr_bot_kind(b), "ismcts");
    cr_bot_free(b);
    cr_game_free(g);

    g = make("18dracula", 3);
    assert_null(cr_bot_new(g, "master", 0, 1, err, sizeof err));
    assert_string_equal(err, "unknown bot (random, heuristic, ismcts; tiers: beginner, casual, "
                             "club, expert): master");
    b = cr_bot_new(g, "expert", 0, 1, err, sizeof err); /* the search tier (docs/bots.md) */
    assert_non_null(b);
    assert_string_equal(cr_bot_kind(b), "ismcts");
    cr_bot_free(b);
    cr_game_free(g);
}

/* noise=0 is the heuristic itself; a bad noise is refused. */
static void test_noise(void **unused)
{
    (void)unused;
    char err[256];
    cr_game *g = make("dml", 4);
    assert_null(cr_bot_new(g, "heuristic:noise=1.5", 0, 1, err, sizeof err));
    assert_string_equal(err, "heuristic: bad parameter noise=1.5 (noise=X, X from 0 to 1)");
    assert_null(cr_bot_new(g, "heuristic:depth=2", 0, 1, err, sizeof err));
    cr_game_free(g);

    cr_sim_config c = {.game = "dml", .n_seats = 1, .games = 200, .threads = 1, .seed = 3};
    cr_sim_result a, b, n;
    c.seats[0] = "heuristic";
    assert_int_equal(cr_sim_run(&c, &a, err, sizeof err), CR_OK);
    c.seats[0] = "heuristic:noise=0";
    assert_int_equal(cr_sim_run(&c, &b, err, sizeof err), CR_OK);
    c.seats[0] = "heuristic:noise=0.5";
    assert_int_equal(cr_sim_run(&c, &n, err, sizeof err), CR_OK);
    assert_memory_equal(a.per_game, b.per_game, (size_t)a.games * sizeof *a.per_game);
    assert_memory_not_equal(a.per_game, n.per_game, (size_t)a.games * sizeof *a.per_game);
    cr_sim_result_fini(&a);
    cr_sim_result_fini(&b);
    cr_sim_result_fini(&n);
}

static void test_ratings(void **unused)
{
    (void)unused;
    cr_rate_config rc = {.base = {.game = "dml",
                                  .num_players = 4,
                                  .games = 100,
                                  .threads = 2,
                                  .seed = 9,
                                  .progress = CR_SIM_PROGRESS_OFF},
                         .bots = {"beginner", "casual", "club"},
                         .n_bots = 3};
    cr_rate_result r, again;
    char err[256];
    assert_int_equal(cr_sim_ratings(&rc, &r, err, sizeof err), CR_OK);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.games, 3 * 2 * 100);
    print_message("beginner %.0f [%.0f, %.0f], casual %.0f [%.0f, %.0f], club %.0f [%.0f, %.0f]\n",
                  r.e[0].elo, r.e[0].lo, r.e[0].hi, r.e[1].elo, r.e[1].lo, r.e[1].hi, r.e[2].elo,
                  r.e[2].lo, r.e[2].hi);
    assert_true(r.e[0].hi < r.e[1].lo); /* beginner below casual, intervals apart */
    assert_true(r.e[1].hi < r.e[2].lo); /* casual below club */
    double mean = 0;
    for (int i = 0; i < 3; i++) {
        assert_true(r.e[i].lo <= r.e[i].elo && r.e[i].elo <= r.e[i].hi);
        assert_true(r.e[i].pairs > 0);
        mean += r.e[i].elo / 3;
    }
    assert_true(mean > 1499.9 && mean < 1500.1);
    /* the same figures again, whatever the threads */
    rc.base.threads = 1;
    assert_int_equal(cr_sim_ratings(&rc, &again, err, sizeof err), CR_OK);
    for (int i = 0; i < 3; i++) {
        assert_true(again.e[i].elo == r.e[i].elo);
        assert_true(again.e[i].lo == r.e[i].lo && again.e[i].hi == r.e[i].hi);
    }
    assert_int_equal(r.pair_games_min, 2 * 100); /* two seatings a pair */
    /* one bot is not a rating */
    rc.n_bots = 1;
    assert_int_equal(cr_sim_ratings(&rc, &r, err, sizeof err), CR_ERR_INVALID);
    assert_string_equal(err, "--rate needs 2 to 8 bots");
}

/* --rotate: every bot at one table, one seating per bot.  Four bots at a
 * four-player table meet in every game; five at four leave one out of each
 * seating, and every pair still meets (in three seatings of five).  The
 * order beginner < casual < club holds, and a fifth bot plays its seats. */
static void test_ratings_rotate(void **unused)
{
    (void)unused;
    cr_rate_config rc = {.base = {.game = "dml",
                                  .num_players = 4,
                                  .games = 60,
                                  .threads = 2,
                                  .seed = 4,
                                  .progress = CR_SIM_PROGRESS_OFF},
                         .bots = {"beginner", "casual", "club", "random"},
                         .n_bots = 4,
                         .rotate = 1};
    cr_rate_result r;
    char err[256];
    assert_int_equal(cr_sim_ratings(&rc, &r, err, sizeof err), CR_OK);
    assert_int_equal(r.games, 4 * 60);
    assert_int_equal(r.pair_games_min, 4 * 60); /* every pair at every table */
    /* each seat of a game is a pair with each other seat: 3 per bot a game */
    for (int i = 0; i < 4; i++) assert_int_equal(r.e[i].pairs, 3 * 4 * 60);
    assert_true(r.e[0].hi < r.e[2].lo);
    assert_true(r.e[1].hi < r.e[2].lo);
    assert_true(r.e[3].hi < r.e[2].lo);
    rc.bots[4] = "heuristic:noise=0.2";
    rc.n_bots = 5;
    assert_int_equal(cr_sim_ratings(&rc, &r, err, sizeof err), CR_OK);
    assert_int_equal(r.games, 5 * 60);
    assert_int_equal(r.pair_games_min, 3 * 60);
    for (int i = 0; i < 5; i++) assert_int_equal(r.e[i].pairs, 4 * 3 * 60); /* 4 seatings */
    assert_true(r.e[0].hi < r.e[2].lo);
}

/* The figures of two ratings are the same, rating for rating. */
static void assert_same_rating(const cr_rate_result *a, const cr_rate_result *b)
{
    assert_int_equal(a->n, b->n);
    assert_int_equal(a->games, b->games);
    assert_int_equal(a->games_planned, b->games_planned);
    assert_int_equal(a->pair_games_min, b->pair_games_min);
    for (int i = 0; i < a->n; i++) {
        assert_string_equal(a->e[i].spec, b->e[i].spec);
        assert_true(a->e[i].elo == b->e[i].elo);
        assert_true(a->e[i].lo == b->e[i].lo && a->e[i].hi == b->e[i].hi);
        assert_int_equal(a->e[i].pairs, b->e[i].pairs);
        assert_true(a->e[i].score == b->e[i].score);
    }
}

/* A temporary file's path (removed by the caller). */
static void temp_path(char *path, size_t cap, const char *what)
{
    snprintf(path, cap, "/tmp/croupier-rating-%s-XXXXXX", what);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
}

/* Plays cfg (a part of it, if cfg->parts) with its rows written to path. */
static void play_to(cr_rate_config *cfg, const char *path, cr_rate_result *r)
{
    char err[256];
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    cfg->csv = f;
    assert_int_equal(cr_sim_ratings(cfg, r, err, sizeof err), CR_OK);
    cfg->csv = NULL;
    assert_int_equal(fclose(f), 0);
}

/* A rating in three parts, each written as CSV, read back together gives
 * the whole rating's figures (the same games, and the bootstrap draws the
 * same); one part read alone gives what that part played; the files in
 * another order too. */
static void test_ratings_in_parts(void **unused)
{
    (void)unused;
    cr_rate_config rc = {.base = {.game = "dml",
                                  .num_players = 4,
                                  .games = 20,
                                  .threads = 2,
                                  .seed = 12,
                                  .progress = CR_SIM_PROGRESS_OFF},
                         .bots = {"beginner", "casual", "heuristic:noise=0.2"},
                         .n_bots = 3,
                         .rotate = 1};
    char whole_path[64], part_path[3][64], err[256];
    cr_rate_result whole, part[3], read;
    temp_path(whole_path, sizeof whole_path, "whole");
    play_to(&rc, whole_path, &whole);
    assert_int_equal(whole.games, 3 * 20);
    assert_int_equal(whole.games_planned, 3 * 20);
    long played = 0;
    for (int k = 0; k < 3; k++) {
        temp_path(part_path[k], sizeof part_path[k], "part");
        rc.part = k + 1;
        rc.parts = 3;
        play_to(&rc, part_path[k], &part[k]);
        assert_int_equal(part[k].games_planned, 3 * 20);
        played += part[k].games;
    }
    assert_int_equal(played, whole.games); /* 6, 7 and 7 games a seating */
    assert_int_equal(part[0].games, 3 * 6);
    rc.part = rc.parts = 0;
    const char *paths[3] = {part_path[2], part_path[0], part_path[1]};
    assert_int_equal(cr_sim_ratings_read(&rc, paths, 3, &read, err, sizeof err), CR_OK);
    assert_int_equal(read.files, 3);
    assert_same_rating(&read, &whole);
    const char *one[1] = {whole_path};
    assert_int_equal(cr_sim_ratings_read(&rc, one, 1, &read, err, sizeof err), CR_OK);
    assert_same_rating(&read, &whole);
    one[0] = part_path[1];
    assert_int_equal(cr_sim_ratings_read(&rc, one, 1, &read, err, sizeof err), CR_OK);
    assert_same_rating(&read, &part[1]);
    /* the CSV names each table, as --seats takes it again */
    FILE *f = fopen(whole_path, "r");
    char line[4096];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_non_null(strstr(line, "\"dml full: beginner;casual;heuristic:noise=0.2;beginner\",0,"));
    remove(whole_path);
    for (int k = 0; k < 3; k++) remove(part_path[k]);
}

/* Writes text to a temporary file; the path into path. */
static void write_temp(char *path, size_t cap, const char *text)
{
    temp_path(path, cap, "bad");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Files that are not the rating's CSV, or not whole, are refused with the
 * file and line and a reason, and nothing is fitted. */
static void test_ratings_read_refuses(void **unused)
{
    (void)unused;
    cr_rate_config rc = {.base = {.game = "dml",
                                  .num_players = 4,
                                  .games = 4,
                                  .threads = 1,
                                  .seed = 3,
                                  .progress = CR_SIM_PROGRESS_OFF},
                         .bots = {"beginner", "casual"},
                         .n_bots = 2};
    char good[64], bad[64], err[512], line2[1024];
    cr_rate_result r;
    temp_path(good, sizeof good, "good");
    play_to(&rc, good, &r);
    /* the good file's header and first row, to alter */
    FILE *f = fopen(good, "r");
    char header[1024];
    assert_non_null(fgets(header, sizeof header, f));
    assert_non_null(fgets(line2, sizeof line2, f));
    fclose(f);
    const char *paths[2] = {good, good};
    struct {
        const char *text; /* NULL: the good file twice */
        const char *why;
    } cases[] = {
        {NULL, ":2: the game comes twice"},
        {"", ":0: empty, not a CSV of the lab's games"},
        {"a,b,c\n1,2,3\n",
         ":1: not a CSV of the lab's games (no config, game or game_seed column)"},
        {"config,game,game_seed,rank0,rank1\n",
         ":1: the games have fewer seats than the rating's player count"},
        {"config,game,game_seed,rank0,rank1,rank2,rank3,rank4\n",
         ":1: the games have more seats than the rating's player count"},
        {"\"config,game\n", ":1: not a CSV header"},
        {"config,game,game_seed,rank0,rank1,rank2,rank3,rank18446744073709551615\n",
         ":1: the games have more seats than the rating's player count"},
        {"config,game,game_seed,rank0,rank1,rank2,rank3,game\n",
         ":1: a column comes twice in the header"},
        {"config,game,game_seed,rank0,rank1,rank2,rank0,rank3\n",
         ":1: a column comes twice in the header"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *one[1] = {bad};
        if (cases[c].text) write_temp(bad, sizeof bad, cases[c].text);
        cr_status st = cases[c].text ? cr_sim_ratings_read(&rc, one, 1, &r, err, sizeof err)
                                     : cr_sim_ratings_read(&rc, paths, 2, &r, err, sizeof err);
        assert_int_equal(st, CR_ERR_INVALID);
        assert_non_null(strstr(err, cases[c].why));
        if (cases[c].text) remove(bad);
    }
    /* rows altered one way each: the header kept, the row changed */
    struct {
        const char *from, *to, *why;
    } rows[] = {
        {"beginner;casual", "casual;casual", ":2: its table is none of this rating's seatings"},
        {"\",0,", "\",4,", ":2: its game number is not one of the rating's games a seating"},
        {"\",0,", "\",x,", ":2: its game number is not one of the rating's games a seating"},
        {"\",0,", "\",1,", ":2: its game seed is not that game's under the rating's seed"},
        {"\n", ",extra\n", ":2: a row has more columns than the header"},
        {"dml full", "dml\"full", ":2: a field does not end"},
    };
    for (size_t c = 0; c < sizeof rows / sizeof rows[0]; c++) {
        char text[2048], row[1024];
        const char *at = strstr(line2, rows[c].from);
        assert_non_null(at);
        snprintf(row, sizeof row, "%.*s%s%s", (int)(at - line2), line2, rows[c].to,
                 at + strlen(rows[c].from));
        snprintf(text, sizeof text, "%s%s", header, row);
        write_temp(bad, sizeof bad, text);
        const char *one[1] = {bad};
        assert_int_equal(cr_sim_ratings_read(&rc, one, 1, &r, err, sizeof err), CR_ERR_INVALID);
        if (!strstr(err, rows[c].why)) fail_msg("%s: got \"%s\"", rows[c].why, err);
        remove(bad);
    }
    /* a row cut short, and a missing file */
    char text[2048];
    snprintf(text, sizeof text, "%s\"dml full: beginner;casual;beginner;casual\",0\n", header);
    write_temp(bad, sizeof bad, text);
    const char *one[1] = {bad};
    assert_int_equal(cr_sim_ratings_read(&rc, one, 1, &r, err, sizeof err), CR_ERR_INVALID);
    assert_non_null(strstr(err, ":2: a row has fewer columns than the header"));
    remove(bad);
    assert_int_equal(cr_sim_ratings_read(&rc, one, 1, &r, err, sizeof err), CR_ERR_INVALID);
    assert_non_null(strstr(err, "No such file"));
    /* another seed, or no files */
    rc.base.seed = 4;
    one[0] = good;
    assert_int_equal(cr_sim_ratings_read(&rc, one, 1, &r, err, sizeof err), CR_ERR_INVALID);
    assert_non_null(strstr(err, ":2: its game seed is not that game's under the rating's seed"));
    assert_int_equal(cr_sim_ratings_read(&rc, one, 0, &r, err, sizeof err), CR_ERR_INVALID);
    /* a part that is no part */
    rc.part = 3;
    rc.parts = 2;
    assert_int_equal(cr_sim_ratings(&rc, &r, err, sizeof err), CR_ERR_INVALID);
    assert_non_null(strstr(err, "--part K/M"));
    rc.part = rc.parts = 0;
    /* a cap on a game's actions is part of the table: games played without
     * it are another rating's */
    rc.base.seed = 3;
    rc.base.max_actions = 100000;
    assert_int_equal(cr_sim_ratings_read(&rc, one, 1, &r, err, sizeof err), CR_ERR_INVALID);
    assert_non_null(strstr(err, ":2: its table is none of this rating's seatings"));
    /* a CSV that cannot be written whole is an error, not a short part */
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        rc.csv = full;
        assert_int_equal(cr_sim_ratings(&rc, &r, err, sizeof err), CR_ERR_IO);
        assert_non_null(strstr(err, "writing the CSV"));
        rc.csv = NULL;
        fclose(full);
    }
    remove(good);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiers),
        cmocka_unit_test(test_noise),
        cmocka_unit_test(test_ratings),
        cmocka_unit_test(test_ratings_rotate),
        cmocka_unit_test(test_ratings_in_parts),
        cmocka_unit_test(test_ratings_read_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
