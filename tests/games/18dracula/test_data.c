/* test_data.c — 18Dracula's data for clients (data.c): the board as JSON
 * (cr_game_parts.data_json) holds every place, route space, front, market
 * cell and monster of the board in file order, with the numbers the board
 * has; the observation JSON is the position plus a "display" object whose
 * figures are the rules' own (share prices, levels, certificates, worth);
 * both follow snprintf semantics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "croupier/alloc.h"
#include "croupier/parts.h"
#include "croupier/rng.h"
#include "games/18dracula/d18_internal.h"

static cr_game *make(int np)
{
    cr_params p = {.num_players = np};
    char err[256];
    cr_game *g = cr_game_new(&d18_def, &p, err, sizeof err);
    if (!g) fail_msg("%s", err);
    return g;
}

/* Renders with fn(g, x, buf, cap) at the exact size, and checks that a
 * short buffer gets a prefix and the same length back. */
static json_t *render(size_t (*fn)(const cr_game *, const void *, char *, size_t), const cr_game *g,
                      const void *x)
{
    size_t n = fn(g, x, NULL, 0);
    assert_true(n > 2);
    char *buf = malloc(n + 1);
    assert_int_equal(fn(g, x, buf, n + 1), n);
    assert_int_equal(strlen(buf), n);
    char small[64];
    assert_int_equal(fn(g, x, small, sizeof small), n);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, buf, sizeof small - 1);
    json_error_t je;
    json_t *o = json_loads(buf, 0, &je);
    if (!o) fail_msg("not JSON: %s at %d", je.text, je.position);
    free(buf);
    return o;
}

static size_t data_fn(const cr_game *g, const void *x, char *buf, size_t cap)
{
    (void)x;
    return cr_parts(g)->data_json(g, buf, cap);
}

static size_t obs_fn(const cr_game *g, const void *x, char *buf, size_t cap)
{
    return g->def->obs_to_json(g, x, buf, cap);
}

static void test_board_as_json(void **unused)
{
    (void)unused;
    cr_game *g = make(4);
    const d18_board *b = d18_brd(g);
    assert_non_null(cr_parts(g)->data_json);
    json_t *d = render(data_fn, g, NULL);
    char hash[20];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)g->data_hash);
    assert_string_equal(json_string_value(json_object_get(d, "data_hash")), hash);
    json_t *locs = json_object_get(d, "locations");
    assert_int_equal(json_array_size(locs), b->n_locations);
    for (int i = 0; i < b->n_locations; i++) {
        json_t *l = json_array_get(locs, (size_t)i);
        assert_string_equal(json_string_value(json_object_get(l, "id")), b->loc[i].id);
        assert_string_equal(json_string_value(json_object_get(l, "name")), b->loc[i].name);
        assert_int_equal(json_integer_value(json_object_get(l, "x")), b->loc[i].x);
        assert_int_equal(json_integer_value(json_object_get(l, "y")), b->loc[i].y);
        if (b->loc[i].kind == D18_CITY)
            assert_int_equal(json_array_size(json_object_get(l, "spaces")), b->loc[i].n_spaces);
    }
    json_t *routes = json_object_get(d, "routes");
    assert_int_equal(json_array_size(routes), b->n_routes);
    for (int r = 0; r < b->n_routes; r++) {
        json_t *x = json_array_get(routes, (size_t)r);
        assert_int_equal(json_integer_value(json_object_get(x, "a")), b->route[r].a);
        assert_int_equal(json_integer_value(json_object_get(x, "b")), b->route[r].b);
        assert_int_equal(json_integer_value(json_object_get(x, "cost")), b->route[r].cost);
        assert_int_equal(json_is_true(json_object_get(x, "castle_start")),
                         b->route[r].castle_start);
    }
    assert_int_equal(json_array_size(json_object_get(d, "fronts")), D18_NUM_FRONTS);
    assert_int_equal(json_array_size(json_object_get(d, "monsters")), b->n_monsters);
    assert_int_equal(json_array_size(json_object_get(d, "associates")), D18_NASSOC);
    json_t *m = json_object_get(d, "market");
    assert_int_equal(json_array_size(json_object_get(m, "cells")), b->market_rows);
    for (int r = 0; r < b->market_rows; r++)
        for (int c = 0; c < b->market_cols; c++) {
            json_t *cell =
                json_array_get(json_array_get(json_object_get(m, "cells"), (size_t)r), (size_t)c);
            if (b->cell[r][c].price > 0)
                assert_int_equal(json_integer_value(json_object_get(cell, "price")),
                                 b->cell[r][c].price);
            else
                assert_true(json_is_null(cell));
        }
    json_t *stages = json_object_get(json_object_get(d, "encoding"), "stages");
    assert_int_equal(json_array_size(stages), D18_S_OVER + 1);
    json_decref(d);
    cr_game_free(g);
}

static void test_observation_display(void **unused)
{
    (void)unused;
    cr_game *g = make(4);
    const d18_board *b = d18_brd(g);
    d18_state *s = cr_alloc(g->state_size);
    d18_state *obs = cr_alloc(g->obs_size);
    cr_action *legal = cr_alloc(sizeof *legal * (size_t)g->max_legal);
    cr_action out[720];
    double prob[720];
    cr_ctx *cx = cr_ctx_new(g);
    cr_rng rng;
    cr_rng_seed(&rng, 5, 5);
    g->def->init(g, s);
    /* random play into the stock rounds, checking the display now and then */
    for (int step = 0; step < 600 && g->def->current_player(g, s) != CR_TERMINAL; step++) {
        int who = g->def->current_player(g, s);
        cr_action a;
        if (who == CR_CHANCE) {
            int n = g->def->chance_outcomes(g, s, out, prob);
            a = out[cr_rng_below(&rng, (uint32_t)n)];
        } else {
            int n = g->def->legal_actions(g, s, legal, cx);
            a = legal[cr_rng_below(&rng, (uint32_t)n)];
        }
        g->def->apply(g, s, a, cx);
        if (step % 50 != 49) continue;
        g->def->observe(g, s, CR_SEAT_PUBLIC, obs);
        json_t *o = render(obs_fn, g, obs);
        /* the position's fields are all there, the display beside them */
        assert_int_equal(json_integer_value(json_object_get(o, "phase")), s->phase);
        json_t *d = json_object_get(o, "display");
        assert_non_null(d);
        for (int f = 0; f < D18_NFRONTS; f++)
            assert_int_equal(
                json_integer_value(json_array_get(json_object_get(d, "price"), (size_t)f)),
                d18_price(g, s, f));
        for (int p = 0; p < s->np; p++) {
            assert_int_equal(
                json_integer_value(json_array_get(json_object_get(d, "certs"), (size_t)p)),
                d18_certs(g, s, p));
            assert_int_equal(
                json_integer_value(json_array_get(json_object_get(d, "worth"), (size_t)p)),
                d18_value(g, s, p));
        }
        for (int l = 0; l < b->n_locations; l++) {
            json_t *lv = json_array_get(json_object_get(d, "level"), (size_t)l);
            if (b->loc[l].kind == D18_CITY)
                assert_string_equal(json_string_value(lv), d18_colour_name(d18_level(g, s, l)));
            else
                assert_true(json_is_null(lv));
        }
        json_decref(o);
    }
    cr_ctx_free(cx);
    cr_free(legal);
    cr_free(obs);
    cr_free(s);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board_as_json),
        cmocka_unit_test(test_observation_display),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
