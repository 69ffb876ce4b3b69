/* test_observe.c — what observations may show, on hand-made positions.
 *
 * The conformance suite checks observations over random games; these tests
 * pin down cases a random game rarely reaches.  The main one: a private
 * choice must never wait in the state where another seat's observation
 * could see it (docs/rulings.md C5: the Thief's gift). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/game.h"
#include "games/dml/dml_internal.h"

#ifndef CR_TEST_FIXTURES_DIR
#define CR_TEST_FIXTURES_DIR "tests/fixtures"
#endif

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    *len = fread(buf, 1, sizeof buf - 1, f);
    buf[*len] = 0;
    fclose(f);
    return buf;
}

static cr_game *new_dml(void)
{
    cr_params p = {.num_players = 4, .variant = "full"};
    char err[256];
    cr_game *g = cr_game_new(cr_registry_find("dml"), &p, err, sizeof err);
    assert_non_null(g);
    return g;
}

static void load(const cr_game *g, dml_state *s, const char *name)
{
    char path[512], err[512];
    size_t len;
    snprintf(path, sizeof path, "%s/dml-positions/%s", CR_TEST_FIXTURES_DIR, name);
    const char *json = read_file(path, &len);
    if (g->def->deserialize(g, s, json, len, err, sizeof err) != CR_OK) fail_msg("%s: %s", name, err);
}

static void play(const cr_game *g, dml_state *s, const char *text)
{
    char err[256];
    if (cr_apply_text(g, s, text, NULL, err, sizeof err) != CR_OK) fail_msg("'%s': %s", text, err);
}

/* P0 plays the Thief in the Power Phase and gives P2 either 7S or 9C.
 * P1 and P3 must not be able to tell the two games apart at any point. */
static void thief_gift_hidden_from_others(void **unused)
{
    (void)unused;
    cr_game *g = new_dml();
    dml_state *a = cr_alloc(sizeof *a), *b = cr_alloc(sizeof *b);
    dml_state *oa = cr_alloc(sizeof *oa), *ob = cr_alloc(sizeof *ob);
    load(g, a, "thief_gift.json");
    const char *prefix[] = {"power X1", "done", "give", "P2"};
    for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++) play(g, a, prefix[i]);
    assert_int_equal(a->need, DML_NEED_DECISION);
    assert_int_equal(a->kind, DML_D_THIEF_CARD);
    memcpy(b, a, sizeof *a);
    play(g, a, "7S");
    play(g, b, "9C");
    assert_true(a->loc[dml_parse_card("7S")] == DML_Z_HAND + 2);
    assert_true(b->loc[dml_parse_card("9C")] == DML_Z_HAND + 2);
    /* the same chance outcomes for both (the check roll, the draws that
     * follow), comparing P1's and P3's views at every step */
    cr_rng ra, rb;
    cr_rng_seed(&ra, 5, 1);
    cr_rng_seed(&rb, 5, 1);
    int compared = 0;
    for (int step = 0; step < 6; step++) {
        for (int q = 1; q <= 3; q += 2) {
            g->def->observe(g, a, q, oa);
            g->def->observe(g, b, q, ob);
            assert_memory_equal(oa, ob, sizeof *oa);
            compared++;
        }
        if (a->over || a->need != DML_NEED_CHANCE) break;
        g->def->apply(g, a, cr_sample_chance(g, a, &ra), NULL);
        g->def->apply(g, b, cr_sample_chance(g, b, &rb), NULL);
    }
    assert_true(compared >= 4);
    /* the giver and the receiver do see the difference */
    g->def->observe(g, a, 2, oa);
    g->def->observe(g, b, 2, ob);
    assert_memory_not_equal(oa, ob, sizeof *oa);
    cr_free(a);
    cr_free(b);
    cr_free(oa);
    cr_free(ob);
    cr_game_free(g);
}

/* While a seat composes a choice, the others' observations do not show it
 * (docs/rulings.md C8): a half-built Declaration is the acting seat's own. */
static void half_built_choice_is_private(void **unused)
{
    (void)unused;
    cr_game *g = new_dml();
    dml_state *a = cr_alloc(sizeof *a), *b = cr_alloc(sizeof *b);
    dml_state *oa = cr_alloc(sizeof *oa), *ob = cr_alloc(sizeof *ob);
    load(g, a, "thief_gift.json");
    play(g, a, "power X1"); /* P0 has chosen a card, not yet "done" */
    memcpy(b, a, sizeof *a);
    play(g, b, "undo");
    b->n_applied = a->n_applied; /* a public counter of requests, not the choice */
    for (int q = 1; q < 4; q++) {
        g->def->observe(g, a, q, oa);
        g->def->observe(g, b, q, ob);
        assert_memory_equal(oa, ob, sizeof *oa);
    }
    g->def->observe(g, a, 0, oa);
    assert_int_equal(oa->sel_n, 1);
    cr_free(a);
    cr_free(b);
    cr_free(oa);
    cr_free(ob);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(thief_gift_hidden_from_others),
        cmocka_unit_test(half_built_choice_is_private),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
