/* test_menus.c — 18Dracula's menus as a player reads them: the sections a
 * long menu is grouped by (controls.c, cr_game_parts.menu_section) and the
 * labels of monster purchases, which carry the monster's card.
 *
 * Sections: seeded games (three and four players, the heuristic with some
 * random moves, so sells and market buys come up) run through the match;
 * at every decision each legal action is in exactly one section (a rank
 * >= 0 and a title), one title has one rank and one rank one title, in
 * the decision and over every game (the sections are stable), and a stock
 * round's top level (its sections) is at most six rows, in the order
 * start, IPO, market, sell, offer, pass.
 *
 * Labels: every monster of the bundled board bought from the bank, the open
 * market, by force or from another front names its card in a few words
 * (d18_monster_short: movement, town revenue, export, linger, claw or fang,
 * when it is eaten); bought from the bank the label fits in 80 columns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "croupier/game.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "croupier/rng.h"
#include "croupier/text.h"
#include "games/18dracula/d18_internal.h"

enum { TITLE = 128, MAX_TITLES = 64 };

/* Every title met over all games, with its rank. */
static char titles[MAX_TITLES][TITLE];
static int ranks[MAX_TITLES], n_titles;

static void stable(const char *title, int rank)
{
    for (int k = 0; k < n_titles; k++) {
        if (strcmp(titles[k], title) == 0) {
            if (ranks[k] != rank) fail_msg("\"%s\" has rank %d and rank %d", title, ranks[k], rank);
            return;
        }
        if (ranks[k] == rank) fail_msg("rank %d is \"%s\" and \"%s\"", rank, titles[k], title);
    }
    assert_true(n_titles < MAX_TITLES);
    snprintf(titles[n_titles], TITLE, "%s", title);
    ranks[n_titles++] = rank;
}

/* The rank of the title met, or -1. */
static int rank_of(const char *title)
{
    for (int k = 0; k < n_titles; k++)
        if (strcmp(titles[k], title) == 0) return ranks[k];
    return -1;
}

static long sr_decisions, sr_max_legal;
static int sr_max_sections;

static void play(int players, uint64_t seed)
{
    cr_params p = {.num_players = players};
    char err[256];
    cr_match *m = cr_match_new(&d18_def, &p, NULL, seed, err, sizeof err);
    if (m == NULL) fail_msg("cr_match_new %d: %s", players, err);
    const cr_game *g = cr_match_game(m);
    const cr_game_parts *parts = cr_parts(g);
    assert_non_null(parts->menu_section);
    cr_action *legal = malloc(sizeof *legal * (size_t)g->max_legal);
    void *obs = malloc(g->obs_size);
    assert_non_null(legal);
    assert_non_null(obs);
    cr_rng rng;
    cr_rng_seed(&rng, seed, 11);
    for (long steps = 0; steps < 200000 && !cr_match_over(m); steps++) {
        int who = cr_match_run(m, 0);
        if (who < 0) continue;
        int n = cr_match_legal(m, who, legal);
        assert_true(n > 0);
        cr_match_observe(m, who, obs);
        /* this decision's sections: title -> rank both ways */
        char here[MAX_TITLES][TITLE];
        int here_rank[MAX_TITLES], n_here = 0;
        for (int i = 0; i < n; i++) {
            char title[TITLE];
            memset(title, 'x', sizeof title);
            int rank = parts->menu_section(g, obs, legal[i], title, sizeof title);
            char text[96];
            cr_match_action_text(m, who, legal[i], text, sizeof text);
            if (rank < 0) fail_msg("\"%s\" belongs to no section", text);
            if (memchr(title, '\0', sizeof title) == NULL || title[0] == '\0')
                fail_msg("\"%s\": no title", text);
            int k = 0;
            while (k < n_here && strcmp(here[k], title) != 0) k++;
            if (k == n_here) {
                for (int j = 0; j < n_here; j++)
                    if (here_rank[j] == rank)
                        fail_msg("rank %d is \"%s\" and \"%s\"", rank, here[j], title);
                snprintf(here[n_here], TITLE, "%s", title);
                here_rank[n_here++] = rank;
            } else if (here_rank[k] != rank) {
                fail_msg("\"%s\" has ranks %d and %d", title, here_rank[k], rank);
            }
            stable(title, rank);
        }
        const d18_state *s = cr_match_state(m);
        if (s->stage == D18_S_SR) {
            sr_decisions++;
            if (n > sr_max_legal) sr_max_legal = n;
            if (n_here > sr_max_sections) sr_max_sections = n_here;
        }
        cr_action pick = cr_rng_below(&rng, 4) == 0
                             ? legal[cr_rng_below(&rng, (uint32_t)n)]
                             : parts->heuristic(g, cr_match_state(m), who, legal, n, &rng);
        if (cr_match_submit_action(m, who, pick, err, sizeof err) != CR_OK)
            fail_msg("submit: %s", err);
    }
    free(obs);
    free(legal);
    cr_match_free(m);
}

static void every_action_in_one_stable_section(void **unused)
{
    (void)unused;
    play(3, 5);
    play(4, 6);
    print_message("%d sections; %ld stock-round decisions, up to %ld actions in %d sections\n",
                  n_titles, sr_decisions, sr_max_legal, sr_max_sections);
    assert_true(sr_decisions > 0);
    assert_true(sr_max_legal > 30); /* a long menu was met */
    assert_true(sr_max_sections <= 6);
    /* the stock round's sections in the order a player weighs them */
    const char *order[] = {"Start a front", "Buy from the IPO", "Buy from the market",
                           "Sell shares", "Pass"};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        if (rank_of(order[k]) < 0) fail_msg("no \"%s\" section met", order[k]);
    for (size_t k = 1; k < sizeof order / sizeof order[0]; k++)
        assert_true(rank_of(order[k - 1]) < rank_of(order[k]));
}

/* The label of action (kind, type) in a fresh game's first state. */
static void label_of(const cr_game *g, const void *st, int kind, int o1, int o2, int amt, char *out,
                     size_t cap)
{
    char buf[1024];
    cr_action a = d18_encode(kind, o1, o2, amt);
    size_t len = g->def->action_to_json(g, st, a, buf, sizeof buf);
    assert_true(len > 0 && len < sizeof buf);
    json_t *o = json_loads(buf, 0, NULL);
    assert_non_null(o);
    const char *label = json_string_value(json_object_get(o, "label"));
    assert_non_null(label);
    snprintf(out, cap, "%s", label);
    json_decref(o);
}

static void purchases_carry_the_card(void **unused)
{
    (void)unused;
    cr_params p = {.num_players = 4};
    char err[256];
    cr_game *g = cr_game_new(&d18_def, &p, err, sizeof err);
    if (g == NULL) fail_msg("cr_game_new: %s", err);
    void *st = malloc(g->state_size);
    assert_non_null(st);
    g->def->init(g, st);
    const d18_board *b = d18_brd(g);
    size_t longest = 0;
    for (int t = 0; t < b->n_monsters; t++) {
        char card[128], label[256];
        cr_tbuf tb;
        cr_tb_init(&tb, card, sizeof card);
        d18_monster_short(g, t, &tb);
        assert_true(tb.len > 0);
        static const int kinds[] = {D18_K_BUY_BANK, D18_K_BUY_MKT, D18_K_EM_BUY};
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            label_of(g, st, kinds[k], t, 0, 0, label, sizeof label);
            if (!strstr(label, card) || !strstr(label, b->monster[t].name))
                fail_msg("\"%s\" lacks the card \"%s\"", label, card);
            if (kinds[k] == D18_K_BUY_BANK) {
                if (strlen(label) > 80) fail_msg("longer than 80 columns: \"%s\"", label);
                if (strlen(label) > longest) longest = strlen(label);
            }
        }
        label_of(g, st, D18_K_OFFER_MON, 0, t, 100, label, sizeof label);
        if (!strstr(label, card)) fail_msg("\"%s\" lacks the card \"%s\"", label, card);
    }
    print_message("the longest purchase from the bank: %zu columns\n", longest);
    /* the bundled board's cards, in words */
    struct {
        const char *id, *label;
    } want[] = {
        {"GHL", "Buy a Ghoul for 80 (dit 2, town 10, eaten in phase 3)"},
        {"WWF", "Buy a Werewolf for 180 (city 3, claw, eaten in phase 4)"},
        {"GRG", "Buy a Gargoyle for 320 (major 5, town 10, export, linger 1, eaten in phase 5)"},
        {"NMR", "Buy a Nightmare for 480 (any length, town 10, export, permanent)"},
        {"BAN", "Buy a Banshee for 150 (howl, town 20, eaten in phase 4)"},
        {"ANC", "Buy an Elder Vampire for 900 (any length, town 20, export, linger 2, ...)"},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int t = 0;
        while (t < b->n_monsters && strcmp(b->monster[t].id, want[k].id) != 0) t++;
        assert_true(t < b->n_monsters);
        char label[256];
        label_of(g, st, D18_K_BUY_BANK, t, 0, 0, label, sizeof label);
        const char *dots = strstr(want[k].label, "...)"); /* "...": the rest as it is */
        if (dots != NULL)
            assert_memory_equal(label, want[k].label, (size_t)(dots - want[k].label));
        else
            assert_string_equal(label, want[k].label);
    }
    free(st);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_action_in_one_stable_section),
        cmocka_unit_test(purchases_carry_the_card),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
