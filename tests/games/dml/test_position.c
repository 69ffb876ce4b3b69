/* test_position.c — the DML position loader refuses what play cannot reach.
 *
 * The reproducers of tests/fixtures/dml-positions/repro/ (inputs the loader
 * once accepted: frames waiting for something else than need/kind, an
 * explicit discard_top that skipped every check, a resolving card that is
 * not the Stack's loose card, a result contradicting the phase, a NUL byte)
 * must each be refused with the key that is wrong, and leave the caller's
 * state untouched.  Positions that play reaches load, pass
 * dml_check_invariants and round-trip.  A bounded mutation test feeds the
 * loader damaged positions: whatever it accepts must pass the invariants,
 * and so must the state after each of its legal actions or chance outcomes.
 */
#include <dirent.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/game.h"
#include "croupier/rng.h"
#include "games/dml/dml_internal.h"
#include "games/dml/dml_test.h"

#ifndef CR_TEST_FIXTURES_DIR
#define CR_TEST_FIXTURES_DIR "tests/fixtures"
#endif

enum { TEXT_CAP = 1 << 17 };

/* Loading text must fail with an error holding `msg`, and leave st as it was. */
static void expect_refused_len(const cr_game *g, const char *text, size_t len, const char *msg)
{
    static dml_state st, before;
    memset(&st, 0x5a, sizeof st);
    memcpy(&before, &st, sizeof st);
    char err[512] = "";
    cr_status rc = g->def->deserialize(g, &st, text, len, err, sizeof err);
    if (rc == CR_OK) fail_msg("accepted; expected an error with '%s'", msg);
    if (!strstr(err, msg)) fail_msg("'%s' lacks '%s'", err, msg);
    assert_memory_equal(&st, &before, sizeof st);
}

static void expect_refused(const cr_game *g, const char *text, const char *msg)
{
    expect_refused_len(g, text, strlen(text), msg);
}

static void load_ok(const cr_game *g, dml_state *s, const char *text)
{
    char err[512];
    if (g->def->deserialize(g, s, text, strlen(text), err, sizeof err) != CR_OK)
        fail_msg("position refused: %s", err);
    if (dml_check_invariants(g, s, err, sizeof err)) fail_msg("loaded, but unsound: %s", err);
}

/* text with its first `from` replaced by `to` */
static const char *edited(const char *text, const char *from, const char *to)
{
    static char buf[TEXT_CAP];
    const char *at = strstr(text, from);
    if (!at) fail_msg("'%s' not in the text", from);
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return buf;
}

static const char *repro(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/dml-positions/repro/%s", CR_TEST_FIXTURES_DIR, name);
    return dml_test_read(path, len);
}

/* ------------------------------------------------------ the reproducers */

/* The top frame deals Kings (a pool draw) but the position waits for a roll:
 * the roll was taken as card -21 and written to loc[-21]. */
static void game_step_mismatch_is_refused(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("mayhem", 3);
    size_t len;
    const char *t = repro("pos-game-step-mismatch.json", &len);
    expect_refused_len(g, t, len, "need/kind: chance \"roll\", but the top frame");
    cr_game_free(g);
}

/* The Dice frame waits for a roll but the position for a Dabo! decision:
 * "keep" was read as dice past the table.  The repro also nests a Round in
 * the Setup deal; with that mended the mismatch itself is refused. */
static void dice_step_mismatch_is_refused(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    size_t len;
    const char *t = repro("pos-dice-step-mismatch.json", &len);
    expect_refused_len(g, t, len, "round cannot run inside frame 0 (game at step 3)");
    expect_refused(
        g, edited(t, "[\"game\", 3, 4, 0, 0]", "[\"game\", 6, 4, 0, 0]"),
        "need/kind: decision \"dabo\", but the top frame (procedure[6], dice at step 1)");
    cr_game_free(g);
}

/* The Buy frame is at its Declaration while the position waits for P3's
 * offer: "pass" became a Declaration of value 0 (a negative shift). */
static void buy_step_mismatch_is_refused(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("fire", 4);
    size_t len;
    const char *t = repro("pos-buy-step-mismatch.json", &len);
    expect_refused_len(g, t, len, "need/kind: decision \"offer\", but the top frame");
    /* the same frames at the offer step load, and the offer can be made */
    dml_state *s = cr_alloc(sizeof *s);
    load_ok(g, s, edited(t, "[\"buy\", 1, 1, 3, 0]", "[\"buy\", 3, 1, 3, 0]"));
    assert_int_equal(s->actor, 3);
    cr_free(s);
    cr_game_free(g);
}

static void discard_top_is_checked(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    size_t len;
    const char *t = repro("pos-discard_top-127.json", &len);
    expect_refused_len(g, t, len, "discard_top: expected a card code");
    t = repro("pos-discard_top-not-in-discard.json", &len);
    expect_refused_len(g, t, len,
                       "discard_top: card 4S is not in the Discard Pile (it lies in deck)");
    expect_refused(g, edited(t, "\"discard_top\": \"4S\"", "\"discard_top\": -1"),
                   "discard_top: expected a card code");
    expect_refused(g, edited(t, "\"discard_top\": \"4S\"", "\"discard_top\": null"),
                   "discard_top: null, but the Discard Pile is not empty");
    /* a card of the Discard Pile may be named the top: it loads and is kept */
    static char buf[TEXT_CAP];
    snprintf(buf, sizeof buf, "%s", edited(t, "\"JS\", ", ""));
    snprintf(buf, sizeof buf, "%s",
             edited(buf, "\"discard\": [\"JD\"]", "\"discard\": [\"JD\", \"JS\"]"));
    dml_state *s = cr_alloc(sizeof *s);
    load_ok(g, s, edited(buf, "\"discard_top\": \"4S\"", "\"discard_top\": \"JD\""));
    assert_int_equal(s->discard_top, dml_parse_card("JD"));
    cr_free(s);
    cr_game_free(g);
}

static void resolving_mismatch_is_refused(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    size_t len;
    const char *t = repro("pos-resolving-mismatch.json", &len);
    expect_refused_len(g, t, len, "resolving: X1 lies in the Stack outside its order");
    cr_game_free(g);
}

static void over_contradicting_the_phase_is_refused(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    size_t len;
    const char *t = repro("pos-over-with-market-phase.json", &len);
    expect_refused_len(g, t, len, "over: a finished game has no phase to start from");
    static char buf[TEXT_CAP];
    snprintf(buf, sizeof buf, "%s", edited(t, "\"over\": true", "\"over\": false"));
    expect_refused(g, buf, "end_reason: set, but the game is not over");
    cr_game_free(g);
}

static void nul_byte_is_refused(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    size_t len;
    const char *t = repro("pos-nul-byte-accepted.json", &len);
    const char *nul = memchr(t, 0, len);
    assert_non_null(nul);
    char msg[64];
    snprintf(msg, sizeof msg, "NUL byte at offset %zu", (size_t)(nul - t));
    expect_refused_len(g, t, len, msg);
    cr_game_free(g);
}

/* ------------------------------------------------- states of real play */

typedef struct table {
    const char *variant;
    int players;
} table;
static const table tables[] = {{"full", 4},   {"smackdown", 3}, {"mayhem", 3},
                               {"mayhem", 4}, {"fire", 3},      {"fire", 4}};

/* The next action of a random game: a chance outcome or a legal action. */
static cr_action random_action(const cr_game *g, const dml_state *s, cr_rng *rng)
{
    if (cr_current_player(g, s) == CR_CHANCE) return cr_sample_chance(g, s, rng);
    cr_action legal[DML_MAX_LEGAL];
    int n = g->def->legal_actions(g, s, legal, NULL);
    assert_true(n >= 1);
    return legal[cr_rng_below(rng, (uint32_t)n)];
}

/* Every state of random games, serialized, loads back into the same bytes;
 * over-states among them (each game's end) included. */
static void played_states_load_and_round_trip(void **unused)
{
    (void)unused;
    static char text[TEXT_CAP];
    char err[512];
    for (size_t ti = 0; ti < sizeof tables / sizeof tables[0]; ti++) {
        cr_game *g = dml_test_game(tables[ti].variant, tables[ti].players);
        dml_state *s = cr_alloc(sizeof *s), *t = cr_alloc(sizeof *t);
        cr_rng rng;
        cr_rng_seed(&rng, 7 + ti, 1);
        for (int game = 0; game < 3; game++) {
            g->def->init(g, s);
            for (int step = 0;; step++) {
                if (step % 7 == 0 || s->over) {
                    size_t n = g->def->serialize(g, s, text, sizeof text);
                    assert_true(n < sizeof text);
                    if (g->def->deserialize(g, t, text, n, err, sizeof err) != CR_OK)
                        fail_msg("%s/%d step %d: %s", tables[ti].variant, tables[ti].players, step,
                                 err);
                    assert_memory_equal(s, t, sizeof *s);
                }
                if (s->over) break;
                g->def->apply(g, s, random_action(g, s, &rng), NULL);
            }
        }
        cr_free(s);
        cr_free(t);
        cr_game_free(g);
    }
}

/* An over-state whose result is edited is refused with the key. */
static void contradicting_results_are_refused(void **unused)
{
    (void)unused;
    static char text[TEXT_CAP];
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_alloc(sizeof *s);
    cr_rng rng;
    cr_rng_seed(&rng, 3, 3);
    g->def->init(g, s);
    while (!s->over) g->def->apply(g, s, random_action(g, s, &rng), NULL);
    g->def->serialize(g, s, text, sizeof text);
    load_ok(g, s, text);
    expect_refused(g, edited(text, "\"need\": \"over\"", "\"need\": \"chance\""),
                   "need: the game is over");
    char reason[64];
    snprintf(reason, sizeof reason, "\"end_reason\": \"%s\"",
             s->end_reason == DML_END_VP         ? "vp"
             : s->end_reason == DML_END_MONOPOLY ? "monopoly"
                                                 : "father");
    expect_refused(g, edited(text, reason, "\"end_reason\": \"none\""),
                   "end_reason: the game is over, but for no reason");
    expect_refused(g, edited(text, reason, "\"end_reason\": \"last\""), "end_reason: \"last\"");
    cr_free(s);
    cr_game_free(g);
}

/* -------------------------------------------------------------- mutation */

/* Seeds: the hand-written positions of tests/fixtures/dml-positions and the
 * rule fixtures' positions (between "position" and "end"), with the table
 * each is for. */
typedef struct seed {
    char *text;
    char variant[16];
    int players;
} seed;

static int add_seed(seed *seeds, int n, const char *json)
{
    json_error_t jerr;
    json_t *root = json_loads(json, 0, &jerr);
    if (!root) return n;
    const char *v = json_string_value(json_object_get(root, "variant"));
    json_t *pl = json_object_get(root, "players");
    snprintf(seeds[n].variant, sizeof seeds[n].variant, "%s", v ? v : "full");
    seeds[n].players = pl ? (int)json_integer_value(pl) : 4;
    seeds[n].text = strdup(json);
    json_decref(root);
    return n + 1;
}

static int load_seeds(seed *seeds, int cap)
{
    int n = 0;
    size_t len;
    n = add_seed(seeds, n,
                 dml_test_read(CR_TEST_FIXTURES_DIR "/dml-positions/thief_gift.json", &len));
    DIR *d = opendir(CR_TEST_FIXTURES_DIR "/dml");
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d)) && n < cap) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 4, ".txt")) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/dml/%s", CR_TEST_FIXTURES_DIR, de->d_name);
        char *t = dml_test_read(path, &len);
        char *a = strstr(t, "\nposition\n"), *b = a ? strstr(a, "\nend\n") : NULL;
        if (!a || !b) continue;
        *b = 0;
        n = add_seed(seeds, n, a + strlen("\nposition\n"));
    }
    closedir(d);
    return n;
}

/* One random change to a JSON value tree: a number nudged or replaced, a
 * card code swapped for another, a list entry dropped or doubled, a boolean
 * flipped, a key dropped.  Walks to a random node first. */
static void mutate(json_t *v, cr_rng *rng)
{
    static const char *const words[] = {"decision", "chance", "over", "run",   "market",
                                        "offer",    "roll",   "pool", "power", "null"};
    size_t n;
    if (json_is_object(v) && (n = json_object_size(v)) > 0) {
        size_t k = cr_rng_below(rng, (uint32_t)n), i = 0;
        const char *key;
        json_t *c;
        json_object_foreach(v, key, c)
        {
            if (i++ != k) continue;
            if (cr_rng_below(rng, 12) == 0)
                json_object_del(v, key);
            else if (json_is_boolean(c)) /* true and false are shared: set the flip */
                json_object_set_new(v, key, json_boolean(!json_is_true(c)));
            else
                mutate(c, rng);
            return;
        }
    } else if (json_is_array(v) && (n = json_array_size(v)) > 0) {
        size_t k = cr_rng_below(rng, (uint32_t)n);
        uint32_t r = cr_rng_below(rng, 10);
        if (r == 0)
            json_array_remove(v, k);
        else if (r == 1)
            json_array_append(v, json_array_get(v, k));
        else
            mutate(json_array_get(v, k), rng);
    } else if (json_is_integer(v)) {
        json_int_t x = json_integer_value(v);
        uint32_t r = cr_rng_below(rng, 4);
        json_integer_set(v, r == 0   ? x + 1
                            : r == 1 ? x - 1
                            : r == 2 ? (json_int_t)cr_rng_below(rng, 12)
                                     : (json_int_t)cr_rng_below(rng, 300) - 140);
    } else if (json_is_string(v)) {
        if (dml_parse_card(json_string_value(v)) >= 0 || cr_rng_below(rng, 2))
            json_string_set(v, dml_card_code((int)cr_rng_below(rng, DML_NCARDS)));
        else
            json_string_set(v, words[cr_rng_below(rng, sizeof words / sizeof words[0])]);
    }
}

/* Every state the loader accepts passes the invariants, and so does the
 * state after each of its legal actions (or chance outcomes). */
static long survive_all_moves(const cr_game *g, const dml_state *s, const char *what)
{
    static dml_state t;
    cr_action acts[DML_MAX_LEGAL > DML_MAX_CHANCE ? DML_MAX_LEGAL : DML_MAX_CHANCE];
    double prob[DML_MAX_CHANCE];
    char err[512];
    if (dml_check_invariants(g, s, err, sizeof err)) fail_msg("%s: accepted but %s", what, err);
    if (s->over) return 0;
    int n = cr_current_player(g, s) == CR_CHANCE ? g->def->chance_outcomes(g, s, acts, prob)
                                                 : g->def->legal_actions(g, s, acts, NULL);
    if (n < 1) fail_msg("%s: accepted, but nothing can be played", what);
    for (int i = 0; i < n; i++) {
        memcpy(&t, s, sizeof t);
        g->def->apply(g, &t, acts[i], NULL);
        if (dml_check_invariants(g, &t, err, sizeof err))
            fail_msg("%s: action %d breaks an invariant: %s", what, acts[i], err);
    }
    return n;
}

static long mutation_rounds(void)
{
    const char *e = getenv("CR_MUTATIONS");
    long v = e ? strtol(e, NULL, 10) : 0;
    return v > 0 ? v : 4000;
}

static void mutated_positions_keep_the_invariants(void **unused)
{
    (void)unused;
    static seed seeds[256];
    int ns = load_seeds(seeds, 256);
    assert_true(ns >= 10);
    cr_rng rng;
    cr_rng_seed(&rng, 2026, 7);
    dml_state *s = cr_alloc(sizeof *s);
    long rounds = mutation_rounds(), accepted = 0, moves = 0;
    char err[512], what[128];
    for (long r = 0; r < rounds; r++) {
        const seed *sd = &seeds[r % ns];
        cr_game *g = dml_test_game(sd->variant, sd->players);
        json_error_t jerr;
        json_t *root = json_loads(sd->text, 0, &jerr);
        assert_non_null(root);
        /* a serialized (complete) position mutates into subtler damage */
        if (r % 2 &&
            g->def->deserialize(g, s, sd->text, strlen(sd->text), err, sizeof err) == CR_OK) {
            static char text[TEXT_CAP];
            size_t n = g->def->serialize(g, s, text, sizeof text);
            json_decref(root);
            root = json_loadb(text, n, 0, &jerr);
            assert_non_null(root);
        }
        int k = 1 + (int)cr_rng_below(&rng, 3);
        for (int i = 0; i < k; i++) mutate(root, &rng);
        char *text = json_dumps(root, JSON_COMPACT);
        json_decref(root);
        size_t len = strlen(text);
        if (r % 16 == 0 && len) text[cr_rng_below(&rng, (uint32_t)len)] ^= 0x20; /* a raw byte */
        snprintf(what, sizeof what, "mutation %ld of seed %d", r, (int)(r % ns));
        if (g->def->deserialize(g, s, text, len, err, sizeof err) == CR_OK) {
            accepted++;
            moves += survive_all_moves(g, s, what);
        }
        free(text);
        cr_game_free(g);
    }
    printf("mutations: %ld, accepted %ld, moves checked %ld\n", rounds, accepted, moves);
    assert_true(accepted > rounds / 20); /* the test reaches the play, not only the parser */
    for (int i = 0; i < ns; i++) free(seeds[i].text);
    cr_free(s);
}

/* DML-2015 (issue 16): a Setup position with its piles loads and round-trips;
 * a pile that is not one 2 and one 3, the piles in another variant, a
 * switch of another variant and a reversed Wheel without its switch are
 * refused with the key. */
static void dml_2015_positions(void **unused)
{
    (void)unused;
    char err[256];
    cr_params p = {.num_players = 4, .variant = "dml-2015"};
    cr_game *g = cr_game_new(cr_registry_find("dml"), &p, err, sizeof err);
    assert_non_null(g);
    size_t len;
    char *text =
        dml_test_read(CR_TEST_FIXTURES_DIR "/dml-positions/dml2015_setup_piles.json", &len);
    static dml_state s, again;
    load_ok(g, &s, text);
    assert_int_equal(s.kind, DML_D_PILE);
    assert_int_equal(s.pile[1][0], dml_card(DML_SUIT_S, 2) + 1);
    assert_int_equal(s.pile[1][1], dml_card(DML_SUIT_S, 3) + 1);
    static char out[TEXT_CAP];
    size_t n = g->def->serialize(g, &s, out, sizeof out);
    assert_true(n > 0 && n < sizeof out);
    load_ok(g, &again, out);
    assert_memory_equal(&s, &again, sizeof s);
    expect_refused(
        g,
        edited(text, "[[\"2C\", \"3H\"], [\"2S\", \"3S\"]", "[[\"2C\", \"2S\"], [\"3H\", \"3S\"]"),
        "piles[0]: a pile is one 2 and one 3");
    expect_refused(g, edited(text, "[\"2H\", \"3D\"]", "[\"2H\", \"3H\"]"), "appears twice");
    expect_refused(g, edited(text, "\"round\"", "\"wheel_reversed\": true, \"round\""),
                   "wheel_reversed: only cards-2015-06's Greed Vizier");
    cr_game_free(g);

    /* piles, wheel and switches belong to dml-2015 */
    cr_params full = {.num_players = 4, .variant = "full"};
    cr_game *g16 = cr_game_new(cr_registry_find("dml"), &full, err, sizeof err);
    assert_non_null(g16);
    text = dml_test_read(CR_TEST_FIXTURES_DIR "/dml-positions/dml2015_setup_piles.json", &len);
    expect_refused(g16, edited(text, "\"dml-2015\"", "\"full\""), "piles: only DML-2015");
    cr_game_free(g16);
    cr_params sw = {.num_players = 4, .variant = "full"};
    cr_params_set(&sw, "bm-wager", "yes");
    assert_null(cr_game_new(cr_registry_find("dml"), &sw, err, sizeof err));
    assert_non_null(strstr(err, "option bm-wager belongs to variant dml-2015, not full"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(game_step_mismatch_is_refused),
        cmocka_unit_test(dice_step_mismatch_is_refused),
        cmocka_unit_test(buy_step_mismatch_is_refused),
        cmocka_unit_test(discard_top_is_checked),
        cmocka_unit_test(resolving_mismatch_is_refused),
        cmocka_unit_test(over_contradicting_the_phase_is_refused),
        cmocka_unit_test(nul_byte_is_refused),
        cmocka_unit_test(played_states_load_and_round_trip),
        cmocka_unit_test(contradicting_results_are_refused),
        cmocka_unit_test(mutated_positions_keep_the_invariants),
        cmocka_unit_test(dml_2015_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
