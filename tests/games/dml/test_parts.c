/* test_parts.c — DML's game-owned parts (parts.h): the heuristic player and
 * lab profile are reached through the game, not by name; achievements
 * follow the end of the game; ranks follow ruling C14. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/parts.h"
#include "croupier/rng.h"
#include "games/dml/dml_internal.h"

static void test_parts_present(void **state)
{
    (void)state;
    const cr_game_def *def = cr_registry_find("dml");
    assert_non_null(def->parts);
    assert_non_null(def->parts->heuristic);
    assert_non_null(def->parts->lab);
    assert_true(def->parts->lab->max_actions > 0);
    assert_non_null(def->parts->achievements);
    /* the list: stable kebab-case keys, each once, each with its words; the
     * keys the guide names (docs/play-dml.md, "Achievements") */
    const cr_achievement *list = def->parts->achievement_list;
    assert_true(def->parts->n_achievements >= 22);
    for (int i = 0; i < def->parts->n_achievements; i++) {
        assert_true(strlen(list[i].key) > 0 && strlen(list[i].title) > 0 &&
                    strlen(list[i].words) > 0);
        for (const char *c = list[i].key; *c; c++)
            assert_true((*c >= 'a' && *c <= 'z') || *c == '-');
        for (int j = 0; j < i; j++) assert_string_not_equal(list[i].key, list[j].key);
        char quoted[64];
        snprintf(quoted, sizeof quoted, "(`%s`", list[i].key);
        if (!strstr(def->parts->guide, quoted)) fail_msg("the guide does not name %s", list[i].key);
    }
    assert_non_null(def->parts->bench);
    assert_non_null(def->parts->check_invariants);
    assert_non_null(def->parts->help);
}

/* docs/rulings.md C14: the winner ranks first; after a VP ending the others
 * rank by their VP (equal VP share a place); after an instant win they
 * share second place; with no winner every seat shares first. */
static int vp_ranked = 0, instant_ranked = 0;
static void check_ranks(const cr_game *g, const dml_state *s)
{
    cr_result r;
    g->def->result(g, s, &r);
    if (s->winner < 0) {
        assert_int_equal(r.winners, 0);
        for (int q = 0; q < g->num_players; q++) assert_int_equal(r.rank[q], 1);
        return;
    }
    assert_int_equal(r.winners, 1u << s->winner);
    assert_int_equal(r.rank[s->winner], 1);
    for (int q = 0; q < g->num_players; q++) {
        if (q == s->winner) continue;
        int want = 2;
        if (s->end_reason == DML_END_VP) {
            for (int o = 0; o < g->num_players; o++)
                if (o != q && o != s->winner && s->vp[o] > s->vp[q]) want++;
            vp_ranked++;
        } else {
            instant_ranked++;
        }
        assert_int_equal(r.rank[q], want);
        assert_int_equal(r.score[q], s->vp[q]);
    }
}

static void test_achievements_follow_the_end(void **state)
{
    (void)state;
    const char *variants[] = {"full", "smackdown", "mayhem", "fire"};
    int seen_kinds = 0;
    for (int v = 0; v < 4; v++) {
        cr_params p = {.variant = variants[v]};
        char err[256];
        cr_game *g = cr_game_new(cr_registry_find("dml"), &p, err, sizeof err);
        assert_non_null(g);
        dml_state *s = cr_alloc(sizeof *s);
        cr_action legal[DML_MAX_LEGAL];
        for (uint64_t seed = 1; seed <= 60; seed++) {
            cr_rng rng;
            cr_rng_seed(&rng, seed, 3);
            g->def->init(g, s);
            while (!cr_is_terminal(g, s)) {
                cr_action a;
                if (cr_current_player(g, s) == CR_CHANCE) {
                    a = cr_sample_chance(g, s, &rng);
                } else {
                    int n = g->def->legal_actions(g, s, legal, NULL);
                    a = g->def->parts->heuristic(g, s, cr_current_player(g, s), legal, n, &rng);
                }
                g->def->apply(g, s, a, NULL);
            }
            check_ranks(g, s);
            for (int q = 0; q < g->num_players; q++) {
                const char *ach[64];
                int n = g->def->parts->achievements(g, s, q, ach, 64), wins = 0;
                for (int i = 0; i < n; i++) {
                    /* every key is one of the list's, in the list's order */
                    const cr_achievement *a = cr_achievement_find(
                        g->def->parts->achievement_list, g->def->parts->n_achievements, ach[i]);
                    assert_non_null(a);
                    if (i > 0)
                        assert_true(a > cr_achievement_find(g->def->parts->achievement_list,
                                                            g->def->parts->n_achievements,
                                                            ach[i - 1]));
                    int won = strncmp(ach[i], "won-", 4) == 0 ||
                              strcmp(ach[i], "father-of-dragons") == 0 ||
                              strcmp(ach[i], "last-merchant-standing") == 0;
                    wins += won;
                    if (strcmp(ach[i], "won-by-monopoly") == 0) {
                        assert_int_equal(s->end_reason, DML_END_MONOPOLY);
                        seen_kinds |= 1;
                    }
                    if (strcmp(ach[i], "won-on-victory-points") == 0) {
                        assert_int_equal(s->end_reason, DML_END_VP);
                        seen_kinds |= 2;
                    }
                    if (strcmp(ach[i], "survived-the-fire") == 0) {
                        assert_int_equal(s->variant, DML_V_FIRE);
                        assert_true(s->alive >> q & 1u);
                        seen_kinds |= 4;
                    }
                }
                /* 3-Player Smackdown awards no achievement at all (12.2) */
                if (s->variant == DML_V_SMACKDOWN)
                    assert_int_equal(n, 0);
                else
                    assert_int_equal(wins, s->winner == q ? 1 : 0);
            }
        }
        cr_free(s);
        cr_game_free(g);
    }
    assert_int_equal(seen_kinds & 6, 6);              /* VP wins and fire survivors do occur */
    assert_true(vp_ranked > 0 && instant_ranked > 0); /* C14: both kinds of end were ranked */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts_present),
        cmocka_unit_test(test_achievements_follow_the_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
