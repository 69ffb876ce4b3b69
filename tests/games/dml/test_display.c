/* test_display.c — DML's presentation hooks (display.c): action JSON, help,
 * and the derived "display" fields of the observation JSON.
 *
 * Random games check the promises on every decision reached: each legal
 * action's JSON parses, its text is the notation, its objects name no card
 * hidden from the acting seat (read from that seat's knowledge masks in the
 * true state), help speaks to the seat to act and to nobody else.  Hand-made
 * positions (tests/fixtures/dml-positions/display_*.json) check card Values
 * against the engine's value function and the roll chances against exact
 * fractions worked out by hand from the dice rules (spec 3.1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "croupier/alloc.h"
#include "croupier/game.h"
#include "croupier/parts.h"
#include "games/dml/dml_internal.h"
#include "games/dml/dml_test.h"

static const char *const groups[] = {
    "card", "power", "emblem",     "callback", "visit", "counsel-market", "player", "stock",
    "buy",  "play",  "substitute", "nothing",  "end",   "done",           "undo",   "reroll",
    "keep", "give",  "take",       "pile",     "wager", "suit",
};

static int known_group(const char *gname)
{
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (!strcmp(gname, groups[i])) return 1;
    return 0;
}

/* Words of the 2016 edition that a DML-2015 label or help never says. */
static const char *const words_2016[] = {
    "Vice Minister", "Prime Counsellor", "Supreme Secretary", "Port Sm", "Minor Action", "Callback",
};

/* The action JSON of a for the acting seat of s, checked field by field. */
static void check_action_json(const cr_game *g, const dml_state *s, cr_action a)
{
    char buf[1024], text[128];
    size_t n = g->def->action_to_json(g, s, a, buf, sizeof buf);
    assert_true(n < sizeof buf);
    g->def->action_to_str(g, s, a, text, sizeof text);
    json_error_t jerr;
    json_t *root = json_loads(buf, 0, &jerr);
    if (!root) fail_msg("action %d: not JSON (%s): %s", (int)a, jerr.text, buf);
    assert_int_equal(json_integer_value(json_object_get(root, "id")), a);
    assert_string_equal(json_string_value(json_object_get(root, "text")), text);
    const char *label = json_string_value(json_object_get(root, "label"));
    assert_non_null(label);
    assert_true(strlen(label) > 0);
    const char *group = json_string_value(json_object_get(root, "group"));
    assert_non_null(group);
    if (!known_group(group)) fail_msg("action %s: unknown group %s", text, group);
    assert_null(json_object_get(root, "amount")); /* DML has no amounts */
    /* DML-2015 names its cards its own way, and has no Minor Action */
    if (s->variant == DML_V_2015)
        for (size_t w = 0; w < sizeof words_2016 / sizeof words_2016[0]; w++)
            if (strstr(label, words_2016[w]))
                fail_msg("dml-2015 label '%s' says '%s'", label, words_2016[w]);
    json_t *objects = json_object_get(root, "objects");
    assert_true(json_is_array(objects));
    int seat = s->actor, n_cards = 0;
    size_t i;
    json_t *v;
    json_array_foreach(objects, i, v)
    {
        const char *o = json_string_value(v);
        assert_non_null(o);
        int c = dml_parse_card(o);
        if (c < 0) {
            int k;
            assert_true(sscanf(o, "P%d", &k) == 1 || sscanf(o, "BM%d", &k) == 1 ||
                        !strncmp(o, "stock ", 6) || !strncmp(o, "pile ", 5));
            continue;
        }
        n_cards++;
        /* the seat's own knowledge, read from the true state: the card's
         * place must be pinned for it */
        int z = s->loc[c];
        if (!(s->pin[seat][z] & dml_bit(c)))
            fail_msg("action %s names %s, hidden from P%d (in zone %d)", text, o, seat, z);
        if (!strstr(label, o)) fail_msg("label '%s' does not name object %s", label, o);
    }
    /* a card control names its card: the seat can always see what it chooses */
    if (!strcmp(group, "card") || !strcmp(group, "power") || !strcmp(group, "emblem") ||
        !strcmp(group, "callback"))
        assert_int_equal(n_cards, 1);
    json_decref(root);
}

static size_t help_of(const cr_game *g, const dml_state *s, int seat, dml_state *obs, char *buf,
                      size_t cap)
{
    g->def->observe(g, s, seat, obs);
    return cr_parts(g)->help(g, obs, buf, cap);
}

/* What the help of each DML-2015 decision must explain (its own words). */
static void help_2015_says(const dml_state *s, const char *help)
{
    static const struct {
        int kind;
        const char *words;
    } says[] = {
        {DML_D_PILE, "takes a pile without seeing it"},
        {DML_D_PILE, "Piles left:"},
        {DML_D_MARKET, "Forfeit (nothing): give up the next action in the order"},
        {DML_D_MARKET, "Black Market Action, one attempt on a Black Market"},
        {DML_D_OFFER, "Place one card of your Hand face-down, or pass"},
        {DML_D_STACK, "Character Power Phase (DML-2015)"},
        {DML_D_WAGER, "The roll is against 7 - M"},
        {DML_D_LEAVE, "the cards you just took may not be among them"},
        {DML_D_NAME_SUIT, "until a Commodity of that suit"},
    };
    for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
        if (says[i].kind == s->kind && !strstr(help, says[i].words))
            fail_msg("dml-2015 help of decision %d lacks '%s': %s", s->kind, says[i].words, help);
}

/* A table of `variant` with the DML-2015 switches of `switches` (comma-
 * separated, "" none) set to yes. */
static cr_game *game_with(const char *variant, int players, const char *switches)
{
    if (!*switches) return dml_test_game(variant, players);
    cr_params p = {.num_players = players, .variant = variant};
    static char keys[128];
    snprintf(keys, sizeof keys, "%s", switches);
    for (char *k = strtok(keys, ","); k != NULL; k = strtok(NULL, ","))
        assert_int_equal(cr_params_set(&p, k, "yes"), CR_OK);
    char err[256];
    cr_game *g = cr_game_new(cr_registry_find("dml"), &p, err, sizeof err);
    if (g == NULL) fail_msg("dml %s %s: %s", variant, switches, err);
    return g;
}

/* Plays random games; returns the decision kinds whose help was checked. */
static unsigned random_games_with(const char *variant, int players, const char *switches, int games,
                                  uint64_t seed)
{
    cr_game *g = game_with(variant, players, switches);
    dml_state *s = cr_alloc(sizeof *s), *obs = cr_alloc(sizeof *obs);
    static char json[1 << 17];
    char help[4096];
    cr_action legal[DML_MAX_LEGAL];
    unsigned kinds = 0;
    cr_rng rng;
    cr_rng_seed(&rng, seed, 7);
    for (int game = 0; game < games; game++) {
        g->def->init(g, s);
        for (int step = 0; step < 4000 && !s->over; step++) {
            int p = g->def->current_player(g, s);
            if (p == CR_TERMINAL) break;
            if (p == CR_CHANCE) {
                g->def->apply(g, s, cr_sample_chance(g, s, &rng), NULL);
                continue;
            }
            int n = g->def->legal_actions(g, s, legal, NULL);
            assert_true(n > 0);
            for (int i = 0; i < n; i++) check_action_json(g, s, legal[i]);
            /* help: the seat to act gets words, every other view nothing */
            size_t len = help_of(g, s, p, obs, help, sizeof help);
            if (len == 0) fail_msg("no help for P%d at decision %d", p, s->kind);
            assert_true(len < sizeof help);
            if (s->variant == DML_V_2015) help_2015_says(s, help);
            if (s->variant == DML_V_2015)
                for (size_t w = 0; w < sizeof words_2016 / sizeof words_2016[0]; w++)
                    if (strstr(help, words_2016[w]))
                        fail_msg("dml-2015 help of decision %d says '%s': %s", s->kind,
                                 words_2016[w], help);
            kinds |= 1u << s->kind;
            for (int q = 0; q < players; q++)
                if (q != p) assert_int_equal(help_of(g, s, q, obs, help, sizeof help), 0);
            assert_int_equal(help_of(g, s, CR_SEAT_PUBLIC, obs, help, sizeof help), 0);
            /* the observation JSON with its display fields parses */
            if (step % 7 == 0) {
                g->def->observe(g, s, p, obs);
                size_t jl = g->def->obs_to_json(g, obs, json, sizeof json);
                assert_true(jl < sizeof json);
                json_error_t jerr;
                json_t *root = json_loads(json, 0, &jerr);
                if (!root) fail_msg("observation not JSON: %s", jerr.text);
                assert_true(json_is_object(json_object_get(root, "display")));
                json_decref(root);
            }
            g->def->apply(g, s, legal[cr_rng_below(&rng, (uint32_t)n)], NULL);
        }
    }
    cr_free(s);
    cr_free(obs);
    cr_game_free(g);
    return kinds;
}

static unsigned random_games(const char *variant, int players, int games, uint64_t seed)
{
    return random_games_with(variant, players, "", games, seed);
}

/* DML-2015 and its switches: every decision of the edition is reached, its
 * controls are well formed and its help speaks the 2015 words. */
static void random_games_2015_controls_and_help(void **unused)
{
    (void)unused;
    unsigned kinds = 0;
    kinds |= random_games_with("dml-2015", 4, "", 60, 11);
    kinds |= random_games_with("dml-2015", 3, "", 20, 12);
    kinds |= random_games_with("dml-2015", 4, "bm-wager", 40, 13);
    kinds |= random_games_with("dml-2015", 4, "cards-2015-06,events-2015-06", 40, 14);
    kinds |= random_games_with("dml-2015", 4, "buying-frenzy,turn-2015-06", 30, 15);
    const int want[] = {DML_D_PILE,  DML_D_MARKET, DML_D_DECLARE, DML_D_OFFER,
                        DML_D_STACK, DML_D_WAGER,  DML_D_LEAVE,   DML_D_NAME_SUIT};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!(kinds & (1u << want[i])))
            fail_msg("dml-2015: decision kind %d never reached", want[i]);
}

static void random_games_controls_and_help(void **unused)
{
    (void)unused;
    unsigned kinds = 0;
    kinds |= random_games("full", 4, 120, 1);
    kinds |= random_games("smackdown", 3, 40, 2);
    kinds |= random_games("mayhem", 4, 40, 3);
    kinds |= random_games("fire", 4, 60, 4);
    for (int k = DML_D_DABO; k <= DML_D_THIEF_PLAYER; k++)
        if (!(kinds & (1u << k))) fail_msg("decision kind %d never reached", k);
}

/* ---- display fields on fixture positions ---- */

static json_t *obs_json(const cr_game *g, const dml_state *s, int seat)
{
    static char json[1 << 17];
    dml_state *o = cr_alloc(sizeof *o);
    g->def->observe(g, s, seat, o);
    size_t n = g->def->obs_to_json(g, o, json, sizeof json);
    assert_true(n < sizeof json);
    cr_free(o);
    json_error_t jerr;
    json_t *root = json_loads(json, 0, &jerr);
    if (!root) fail_msg("observation not JSON: %s", jerr.text);
    return root;
}

static json_t *display_of(json_t *root, const char *key)
{
    json_t *d = json_object_get(json_object_get(root, "display"), key);
    assert_non_null(d);
    return d;
}

static int value_of(json_t *root, const char *card)
{
    json_t *v = json_object_get(display_of(root, "values"), card);
    if (!v) fail_msg("no value for %s", card);
    return (int)json_integer_value(json_object_get(v, "value"));
}

/* Every visible card with a Value: the display agrees with the engine's
 * value function (as a target in a Stock or a Front, printed elsewhere). */
static void check_values_match_engine(const dml_state *s, json_t *root)
{
    json_t *values = display_of(root, "values");
    const char *key;
    json_t *v;
    int seen = 0;
    json_object_foreach(values, key, v)
    {
        int c = dml_parse_card(key);
        assert_true(c >= 0);
        int z = s->loc[c];
        int want = z == DML_Z_STOCK || (z >= DML_Z_FRONT && z < DML_Z_FRONT + 4)
                       ? dml_target_value(s, c)
                       : dml_value(c);
        assert_int_equal(json_integer_value(json_object_get(v, "value")), want);
        seen++;
    }
    assert_true(seen > 0);
}

static void values_hated_people(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_alloc(sizeof *s);
    dml_test_load(g, s, "display_hated.json");
    json_t *root = obs_json(g, s, 0);
    check_values_match_engine(s, root);
    /* spec 7.1.2 / R8: +2 for Stock Commodities of printed value <= 5 */
    assert_int_equal(value_of(root, "4S"), 6);
    assert_int_equal(value_of(root, "5S"), 7);
    assert_int_equal(value_of(root, "6S"), 6);
    /* R9: not on payment cards; R14: an Emblem is worth 10 whatever the Event */
    assert_int_equal(value_of(root, "2D"), 2);
    assert_int_equal(value_of(root, "9D"), 9);
    assert_int_equal(value_of(root, "JC"), 10);
    json_t *ev = display_of(root, "event");
    assert_string_equal(json_string_value(json_object_get(ev, "name")), "The Hated People");
    assert_non_null(strstr(json_string_value(json_object_get(ev, "market_effect")), "5 or less"));
    /* another seat sees the same public values and not P0's Hand */
    json_t *r1 = obs_json(g, s, 1);
    check_values_match_engine(s, r1);
    assert_null(json_object_get(display_of(r1, "values"), "9D"));
    json_decref(r1);
    json_decref(root);
    cr_free(s);
    cr_game_free(g);
}

static void values_merchant_union(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_alloc(sizeof *s);
    dml_test_load(g, s, "display_union.json");
    json_t *root = obs_json(g, s, 0);
    check_values_match_engine(s, root);
    assert_int_equal(value_of(root, "4S"), 4); /* below EV 5: unchanged */
    assert_int_equal(value_of(root, "6S"), 4); /* >= 5: -2 */
    assert_int_equal(value_of(root, "6C"), 6); /* in a Hand: printed */
    json_decref(root);
    cr_free(s);
    cr_game_free(g);
}

static void commit_filter_fccc(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_alloc(sizeof *s);
    dml_test_load(g, s, "display_fccc.json");
    json_t *root = obs_json(g, s, 0);
    check_values_match_engine(s, root);
    json_t *values = display_of(root, "values");
    /* FCCC 6: only printed value <= 6 may be committed; never a Ten */
    assert_true(json_is_true(json_object_get(json_object_get(values, "2D"), "commit_ok")));
    assert_true(json_is_true(json_object_get(json_object_get(values, "6D"), "commit_ok")));
    assert_true(json_is_false(json_object_get(json_object_get(values, "9D"), "commit_ok")));
    assert_true(json_is_false(json_object_get(json_object_get(values, "TD"), "commit_ok")));
    for (int c = 0; c < DML_NCARDS; c++) {
        json_t *v = json_object_get(values, dml_card_code(c));
        if (!v || !dml_is_commodity(c)) continue;
        int engine = (dml_commit_filter(s, dml_suit(c)) & dml_bit(c)) != 0;
        assert_int_equal(json_is_true(json_object_get(v, "commit_ok")), engine);
    }
    json_decref(root);
    cr_free(s);
    cr_game_free(g);
}

/* ---- roll chances ---- */

/* The pending roll of the observation JSON: {"target", "single", ...}. */
static json_t *pending_roll(json_t *root)
{
    json_t *rolls = display_of(root, "rolls");
    size_t i;
    json_t *r;
    json_array_foreach(rolls, i, r) if (json_is_true(json_object_get(r, "pending"))) return r;
    fail_msg("no pending roll");
    return NULL;
}

static void frac_is(json_t *roll, const char *key, int num, int den)
{
    json_t *f = json_object_get(roll, key);
    assert_non_null(f);
    assert_int_equal(json_integer_value(json_object_get(f, "num")), num);
    assert_int_equal(json_integer_value(json_object_get(f, "den")), den);
    assert_true(json_real_value(json_object_get(f, "p")) > (double)num / den - 1e-6);
    assert_true(json_real_value(json_object_get(f, "p")) < (double)num / den + 1e-6);
}

/* The best re-roll policy's chance, by value iteration over the 21 roll
 * outcomes the engine offers at a chance node (an independent route: the
 * probabilities come from chance_outcomes, the success from the CHECK's
 * own DML_E_CHECK event after applying the roll to a copy). */
static double best_by_iteration(const double ok[21], const int dabo[21], const double prob[21])
{
    double v = 0;
    for (int it = 0; it < 2000; it++) {
        double nv = 0;
        for (int i = 0; i < 21; i++) nv += prob[i] * (dabo[i] && v > ok[i] ? v : ok[i]);
        v = nv;
    }
    return v;
}

static void roll_chances_exact(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_alloc(sizeof *s), *c = cr_alloc(sizeof *c);
    dml_test_load(g, s, "display_hated.json");
    /* R8's fixture: Declaration 4S 5S 6S with 2D 9D committed: D 8; the
     * others have empty Hands, so the roll comes at once */
    const char *moves[] = {"buy", "4S", "5S", "6S", "2D", "9D", "done"};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) dml_test_play(g, s, moves[i]);
    assert_int_equal(g->def->current_player(g, s), CR_CHANCE);
    int fi = s->nfr - 1;
    while (fi >= 0 && s->fr[fi].proc != DML_P_CHECK) fi--;
    assert_true(fi >= 0);
    assert_int_equal(s->fr[fi].x, 8);

    /* worked by hand from spec 3.1, over the 36 ordered rolls */
    static const struct {
        int target, succ, dabo_fail;
    } cases[] = {
        {8, 15, 2},  /* totals 8..12: 5+4+3+2+1; (2,2) (3,3) fail */
        {7, 21, 2},  /* 6+5+4+3+2+1 */
        {12, 1, 4},  /* only (6,6): a target only a double meets */
        {13, 1, 4},  /* beyond any total: Woot! alone */
        {11, 3, 4},  /* (5,6) (6,5) (6,6) */
        {10, 6, 3},  /* (4,6) (6,4) (5,5) (5,6) (6,5) (6,6); (5,5) is a Dabo! that succeeds */
        {2, 35, 0},  /* all but Wyvern Eyes */
        {-4, 35, 0}, /* Wyvern Eyes fails whatever the target */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        s->fr[fi].x = (int16_t)cases[k].target;
        json_t *root = obs_json(g, s, 0);
        json_t *roll = pending_roll(root);
        assert_int_equal(json_integer_value(json_object_get(roll, "target")), cases[k].target);
        frac_is(roll, "single", cases[k].succ, 36);
        frac_is(roll, "best_reroll", cases[k].succ, 36 - cases[k].dabo_fail);
        frac_is(roll, "woot_best_reroll", 1, 36 - cases[k].dabo_fail);
        assert_int_equal(json_is_true(json_object_get(roll, "reroll_matters")),
                         cases[k].dabo_fail > 0);

        /* the same numbers from the engine itself: apply each roll to a
         * copy and read the check's result */
        cr_action out[DML_MAX_CHANCE];
        double prob[DML_MAX_CHANCE], ok[21];
        int dabo[21];
        int n = g->def->chance_outcomes(g, s, out, prob);
        assert_int_equal(n, 21);
        double single = 0;
        for (int i = 0; i < n; i++) {
            memcpy(c, s, sizeof *c);
            cr_event evb[64];
            cr_events ev = {evb, 64, 0, 0};
            g->def->apply(g, c, out[i], &(cr_ctx){.ev = &ev});
            dabo[i] = c->need == DML_NEED_DECISION && c->kind == DML_D_DABO;
            if (dabo[i]) g->def->apply(g, c, DML_A_KEEP, &(cr_ctx){.ev = &ev});
            ok[i] = -1;
            for (int e = 0; e < ev.len; e++)
                if (evb[e].kind == DML_E_CHECK) ok[i] = evb[e].b;
            assert_true(ok[i] >= 0);
            single += prob[i] * ok[i];
        }
        double p = json_real_value(json_object_get(json_object_get(roll, "single"), "p"));
        assert_true(p > single - 1e-6 && p < single + 1e-6);
        double best = best_by_iteration(ok, dabo, prob);
        p = json_real_value(json_object_get(json_object_get(roll, "best_reroll"), "p"));
        assert_true(p > best - 1e-6 && p < best + 1e-6);
        json_decref(root);
    }
    /* the help of the Dabo! decision quotes the check */
    s->fr[fi].x = 8;
    dml_test_play(g, s, "roll 3 3");
    assert_int_equal(s->kind, DML_D_DABO);
    char help[2048];
    g->def->observe(g, s, 0, c);
    assert_true(cr_parts(g)->help(g, c, help, sizeof help) > 0);
    assert_non_null(strstr(help, "against 8"));
    assert_non_null(strstr(help, "(3,3) fails"));
    assert_non_null(strstr(help, "44.1%")); /* 15 of 34 */
    cr_free(s);
    cr_free(c);
    cr_game_free(g);
}

/* A Market decision with a Black Market: the visit roll against 7 and the
 * Visit control (a market named by its label). */
static void market_rolls_and_controls(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_alloc(sizeof *s);
    dml_test_load(g, s, "display_union.json");
    /* P0 is affected by Merchant Union (5 cards >= 5): no Visit, so no roll */
    json_t *root = obs_json(g, s, 0);
    assert_int_equal(json_array_size(display_of(root, "rolls")), 0);
    json_decref(root);
    s->affected = 0;
    root = obs_json(g, s, 2); /* any view sees the public Market roll */
    json_t *roll = json_array_get(display_of(root, "rolls"), 0);
    assert_non_null(roll);
    assert_string_equal(json_string_value(json_object_get(roll, "what")), "callback or visit");
    frac_is(roll, "single", 21, 36);
    frac_is(roll, "best_reroll", 21, 34);
    json_decref(root);
    char buf[512];
    g->def->action_to_json(g, s, DML_A_VISIT + 0, buf, sizeof buf);
    json_t *a = json_loads(buf, 0, NULL);
    assert_non_null(a);
    assert_string_equal(json_string_value(json_object_get(a, "group")), "visit");
    assert_string_equal(json_string_value(json_array_get(json_object_get(a, "objects"), 0)), "BM1");
    json_decref(a);
    cr_free(s);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_hated_people),
        cmocka_unit_test(values_merchant_union),
        cmocka_unit_test(commit_filter_fccc),
        cmocka_unit_test(roll_chances_exact),
        cmocka_unit_test(market_rolls_and_controls),
        cmocka_unit_test(random_games_controls_and_help),
        cmocka_unit_test(random_games_2015_controls_and_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
