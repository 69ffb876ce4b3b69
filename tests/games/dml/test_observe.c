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

#include "support/ctx.h"

#include "croupier/alloc.h"
#include "croupier/game.h"
#include "games/dml/dml_internal.h"
#include "games/dml/dml_test.h"

/* Which card a Thief took is seen by its two players only, so the feat of
 * taking a Joker (no-honor-among-thieves) is in its own seat's view and the
 * omniscient one, not in the others' or the public view; a public feat (the
 * roll-off's Woot!) is in every view. */
static void joker_thief_feat_is_private(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *a = cr_alloc(sizeof *a), *b = cr_alloc(sizeof *b);
    dml_state *oa = cr_alloc(sizeof *oa), *ob = cr_alloc(sizeof *ob);
    dml_test_load(g, a, "thief_gift.json");
    memcpy(b, a, sizeof *a);
    a->feat[0] = DML_FEAT_JOKER_THIEF | DML_FEAT_WOOT_ROLLOFF;
    b->feat[0] = DML_FEAT_WOOT_ROLLOFF;
    int views[] = {1, 2, 3, CR_SEAT_PUBLIC};
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
        g->def->observe(g, a, views[i], oa);
        g->def->observe(g, b, views[i], ob);
        assert_memory_equal(oa, ob, sizeof *oa);
        assert_int_equal(oa->feat[0], DML_FEAT_WOOT_ROLLOFF);
    }
    g->def->observe(g, a, 0, oa);
    assert_int_equal(oa->feat[0], DML_FEAT_JOKER_THIEF | DML_FEAT_WOOT_ROLLOFF);
    g->def->observe(g, a, CR_SEAT_OMNISCIENT, oa);
    assert_int_equal(oa->feat[0], DML_FEAT_JOKER_THIEF | DML_FEAT_WOOT_ROLLOFF);
    cr_free(a);
    cr_free(b);
    cr_free(oa);
    cr_free(ob);
    cr_game_free(g);
}

/* P0 plays the Thief in the Power Phase and gives P2 either 7S or 9C.
 * P1 and P3 must not be able to tell the two games apart at any point. */
static void thief_gift_hidden_from_others(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *a = cr_alloc(sizeof *a), *b = cr_alloc(sizeof *b);
    dml_state *oa = cr_alloc(sizeof *oa), *ob = cr_alloc(sizeof *ob);
    dml_test_load(g, a, "thief_gift.json");
    const char *prefix[] = {"power X1", "done", "give", "P2"};
    for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++) dml_test_play(g, a, prefix[i]);
    assert_int_equal(a->need, DML_NEED_DECISION);
    assert_int_equal(a->kind, DML_D_THIEF_CARD);
    memcpy(b, a, sizeof *a);
    dml_test_play(g, a, "7S");
    dml_test_play(g, b, "9C");
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
    cr_game *g = dml_test_game("full", 4);
    dml_state *a = cr_alloc(sizeof *a), *b = cr_alloc(sizeof *b);
    dml_state *oa = cr_alloc(sizeof *oa), *ob = cr_alloc(sizeof *ob);
    dml_test_load(g, a, "thief_gift.json");
    dml_test_play(g, a, "power X1"); /* P0 has chosen a card, not yet "done" */
    memcpy(b, a, sizeof *a);
    dml_test_play(g, b, "undo");
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

/* ---- review additions: differential checks ---- */

static void load_text(const cr_game *g, dml_state *s, const char *json)
{
    char err[512];
    if (g->def->deserialize(g, s, json, strlen(json), err, sizeof err) != CR_OK)
        fail_msg("position: %s", err);
}

/* Loading `text` must fail, with an error that contains every `msg`. */
static void expect_refused(const cr_game *g, const char *text, const char *msg, const char *msg2)
{
    static dml_state st;
    char err[512] = "";
    assert_int_not_equal(g->def->deserialize(g, &st, text, strlen(text), err, sizeof err), CR_OK);
    if (!strstr(err, msg) || (msg2 && !strstr(err, msg2)))
        fail_msg("'%s' lacks '%s'%s%s", err, msg, msg2 ? " or " : "", msg2 ? msg2 : "");
}

/* `text` with its first `from` replaced by `to`, written into buf. */
static const char *edited(const char *text, const char *from, const char *to, char *buf, size_t cap)
{
    const char *at = strstr(text, from);
    assert_non_null(at);
    snprintf(buf, cap, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return buf;
}

/* Two states that differ only in what `seat` cannot know give the same
 * observation, byte for byte, and the same JSON and text renderings. */
static void assert_same_view(const cr_game *g, const dml_state *a, const dml_state *b, int seat)
{
    dml_state *oa = cr_alloc(sizeof *oa), *ob = cr_alloc(sizeof *ob);
    g->def->observe(g, a, seat, oa);
    g->def->observe(g, b, seat, ob);
    static char ja[1 << 16], jb[1 << 16];
    g->def->obs_to_json(g, oa, ja, sizeof ja);
    g->def->obs_to_json(g, ob, jb, sizeof jb);
    size_t d = 0;
    while (ja[d] && ja[d] == jb[d]) d++;
    if (ja[d] || jb[d])
        fail_msg("seat %d: JSON observations differ at ...%.60s / ...%.60s", seat,
                 ja + (d > 30 ? d - 30 : 0), jb + (d > 30 ? d - 30 : 0));
    g->def->obs_to_text(g, oa, ja, sizeof ja);
    g->def->obs_to_text(g, ob, jb, sizeof jb);
    d = 0;
    while (ja[d] && ja[d] == jb[d]) d++;
    if (ja[d] || jb[d])
        fail_msg("seat %d: text observations differ at ...%.60s / ...%.60s", seat,
                 ja + (d > 30 ? d - 30 : 0), jb + (d > 30 ? d - 30 : 0));
    assert_memory_equal(oa, ob, sizeof *oa);
    cr_free(oa);
    cr_free(ob);
}

/* Monopoly position: P0 completes Iron 2-9 by buying 8S; P1 holds two
 * cards the others never saw (%s is filled with them; the Deck holds the
 * rest). */
static const char monopoly_fmt[] =
    "{\"game\":\"dml\",\"variant\":\"full\",\"players\":4,\"round\":2,\"dealer\":0,\"active\":0,"
    "\"phase\":\"market\",\"event\":{\"card\":\"JC\"},\"budget\":{\"actions\":2,\"minors\":1},"
    "\"deck\":[\"JS\",\"QS\",%s,\"4C\",\"7C\",\"8C\",\"9C\",\"TC\",\"QC\",\"2H\",\"3H\",\"4H\","
    "\"5H\","
    "\"6H\",\"7H\",\"8H\",\"9H\",\"TH\",\"JH\",\"QH\",\"5D\",\"6D\",\"7D\",\"8D\",\"9D\",\"TD\","
    "\"JD\",\"QD\","
    "\"X1\",\"X2\"],"
    "\"nest\":[\"AS\",\"AC\",\"AH\",\"AD\"],\"stocks\":{\"S\":[\"8S\",\"TS\"]},"
    "\"seats\":[{\"seat\":0,\"king\":\"KS\",\"hand\":[\"2S\",\"3S\",\"4S\",\"5S\",\"6S\",\"7S\","
    "\"9S\",\"2D\","
    "\"3D\",\"4D\"]},"
    "{\"seat\":1,\"king\":\"KC\",\"hand\":[%s]},{\"seat\":2,\"king\":\"KH\",\"hand\":[]},"
    "{\"seat\":3,\"king\":\"KD\",\"hand\":[]}]}";

/* Monopoly reveals only the winner's Hand (spec 2, 11.3): the final
 * observation must not carry Victory Points computed from the other seats'
 * hidden Hands and Kings. */
static void monopoly_end_hides_losers_vp(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *a = cr_alloc(sizeof *a), *b = cr_alloc(sizeof *b);
    static char ja[4096], jb[4096];
    snprintf(ja, sizeof ja, monopoly_fmt, "\"5C\",\"6C\"", "\"2C\",\"3C\"");
    snprintf(jb, sizeof jb, monopoly_fmt, "\"2C\",\"3C\"", "\"5C\",\"6C\"");
    load_text(g, a, ja);
    load_text(g, b, jb);
    const char *script[] = {"buy", "8S", "TS", "2D", "3D", "4D", "done", "pass"};
    for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) {
        for (int q = 0; q < 4; q++)
            if (q != 1) assert_same_view(g, a, b, q);
        dml_test_play(g, a, script[i]);
        dml_test_play(g, b, script[i]);
    }
    assert_int_equal(a->need, DML_NEED_CHANCE);
    dml_test_play(g, a, "roll 5 4");
    dml_test_play(g, b, "roll 5 4");
    assert_true(a->over && b->over);
    assert_int_equal(a->end_reason, DML_END_MONOPOLY);
    for (int q = 0; q < 4; q++)
        if (q != 1) assert_same_view(g, a, b, q);
    cr_free(a);
    cr_free(b);
    cr_game_free(g);
}

/* Exchanges cards c1 and c2 in every field that holds card ids, except in
 * the knowledge of `keep` (the observer, whose view must stay the same). */
static void swap_cards(dml_state *s, int c1, int c2, int keep)
{
    uint64_t b1 = dml_bit(c1), b2 = dml_bit(c2);
    for (int z = 0; z < DML_NZONES; z++) {
        uint64_t *m[9] = {&s->zone[z],   &s->pin[0][z], &s->pin[1][z], &s->pin[2][z], &s->pin[3][z],
                          &s->may[0][z], &s->may[1][z], &s->may[2][z], &s->may[3][z]};
        for (int i = 0; i < 9; i++) {
            if (i && (i - 1) % 4 == keep) continue;
            uint64_t v = *m[i], x1 = v & b1, x2 = v & b2;
            v &= ~(b1 | b2);
            if (x1) v |= b2;
            if (x2) v |= b1;
            *m[i] = v;
        }
    }
    uint8_t t = s->loc[c1];
    s->loc[c1] = s->loc[c2];
    s->loc[c2] = t;
    for (int i = 0; i < s->nest_top_n; i++)
        if (s->nest_top[i] == c1)
            s->nest_top[i] = (uint8_t)c2;
        else if (s->nest_top[i] == c2)
            s->nest_top[i] = (uint8_t)c1;
    for (int i = 0; i < s->sel_n; i++)
        if (s->sel[i] == c1)
            s->sel[i] = (uint8_t)c2;
        else if (s->sel[i] == c2)
            s->sel[i] = (uint8_t)c1;
}

/* Random games: at many points, for each seat, exchange two cards the seat
 * cannot place between two hidden zones it thinks possible for both.  The
 * seat's observation and its renderings must not change: no field
 * (orders, frames, the Nest's top, a composition) may carry a hidden card. */
static void hidden_cards_are_interchangeable(void **unused)
{
    (void)unused;
    const char *variants[] = {"full", "smackdown", "mayhem", "fire"};
    const int players[] = {4, 3, 4, 3};
    dml_state *s = cr_alloc(sizeof *s), *t = cr_alloc(sizeof *t), *o = cr_alloc(sizeof *o);
    int swaps = 0, hidden_events = 0, sampled = 0;
    for (int gi = 0; gi < 24; gi++) {
        cr_params p = {.num_players = players[gi % 4], .variant = variants[gi % 4]};
        char err[256];
        cr_game *g = cr_game_new(cr_registry_find("dml"), &p, err, sizeof err);
        assert_non_null(g);
        cr_rng rng;
        cr_rng_seed(&rng, 77, (uint64_t)gi);
        g->def->init(g, s);
        cr_action legal[DML_MAX_LEGAL];
        for (int step = 0; step < 20000; step++) {
            int who = g->def->current_player(g, s);
            if (step % 5 == 0 || who == CR_TERMINAL) {
                for (int q = 0; q < s->n; q++) {
                    g->def->observe(g, s, q, o);
                    int unk[DML_NCARDS], nu = 0;
                    for (int c = 0; c < DML_NCARDS; c++)
                        if (o->loc[c] == 0xfe) unk[nu++] = c;
                    for (int tries = 0; nu > 1 && tries < 6; tries++) {
                        int c1 = unk[cr_rng_below(&rng, (uint32_t)nu)],
                            c2 = unk[cr_rng_below(&rng, (uint32_t)nu)];
                        int z1 = s->loc[c1], z2 = s->loc[c2];
                        if (z1 == z2 || !(s->may[q][z2] & dml_bit(c1)) ||
                            !(s->may[q][z1] & dml_bit(c2)))
                            continue;
                        memcpy(t, s, sizeof *s);
                        swap_cards(t, c1, c2, q);
                        assert_same_view(g, s, t, q);
                        swaps++;
                    }
                }
            }
            if (who == CR_TERMINAL) break;
            if (who >= 0 && step % 3 == 0) {
                /* the seat to act has the same choices in any state the
                 * sampler draws from its observation */
                cr_action l1[DML_MAX_LEGAL], l2[DML_MAX_LEGAL];
                g->def->observe(g, s, who, o);
                assert_int_equal(g->def->sample(g, o, &rng, t, test_ctx(g)), CR_OK);
                int n1 = g->def->legal_actions(g, s, l1, NULL),
                    n2 = g->def->legal_actions(g, t, l2, NULL);
                assert_int_equal(n1, n2);
                assert_memory_equal(l1, l2, (size_t)n1 * sizeof l1[0]);
                sampled++;
            }
            cr_action a;
            if (who == CR_CHANCE) {
                a = cr_sample_chance(g, s, &rng);
            } else {
                int n = g->def->legal_actions(g, s, legal, NULL);
                assert_true(n > 0);
                a = legal[cr_rng_below(&rng, (uint32_t)n)];
            }
            cr_event evbuf[512];
            cr_events ev = {evbuf, 512, 0, 0};
            g->def->apply(g, s, a, &(cr_ctx){.ev = &ev});
            assert_int_equal(ev.dropped, 0);
            /* an event's card hidden from a seat: its text and JSON for
             * that seat are the same whatever the card was */
            for (int i = 0; i < ev.len; i++) {
                const cr_event *e = &evbuf[i];
                if (e->card < 0 || e->card >= DML_NCARDS) continue;
                for (int q = 0; q < s->n; q++) {
                    if (e->seen_by & (1u << q)) continue;
                    cr_event e2 = *e;
                    e2.card = (int16_t)((e->card + 1 + (int)cr_rng_below(&rng, DML_NCARDS - 1)) %
                                        DML_NCARDS);
                    if (e->kind == DML_E_DECISION && e->a < DML_A_VISIT)
                        e2.a = e->a - e->card + e2.card;
                    char t1[512], t2[512];
                    g->def->event_to_str(g, e, q, t1, sizeof t1);
                    g->def->event_to_str(g, &e2, q, t2, sizeof t2);
                    assert_string_equal(t1, t2);
                    g->def->event_to_json(g, e, q, t1, sizeof t1);
                    g->def->event_to_json(g, &e2, q, t2, sizeof t2);
                    assert_string_equal(t1, t2);
                    hidden_events++;
                }
            }
        }
        cr_game_free(g);
    }
    assert_true(swaps > 100);
    assert_true(hidden_events > 100);
    assert_true(sampled > 100);
    cr_free(s);
    cr_free(t);
    cr_free(o);
}

/* A position's knowledge must be sound: a seat cannot know a false fact,
 * and a card it has not pinned must be allowed where it lies.  Unsound
 * knowledge used to load, and the sampler then failed on every move. */
static void unsound_knowledge_is_refused(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *a = cr_alloc(sizeof *a), *b = cr_alloc(sizeof *b);
    static char base[4096], json[8192];
    snprintf(base, sizeof base, monopoly_fmt, "\"5C\",\"6C\"", "\"2C\",\"3C\"");
    size_t n = strlen(base);
    assert_true(n > 2 && base[n - 1] == '}');
    base[n - 1] = 0;
    load_text(g, a, strcat(strcpy(json, base), "}"));
    char err[512];
    /* P2 "knows" 2S is in P1's Hand; it is in P0's */
    snprintf(json, sizeof json, "%s,\"knowledge\":{\"P2\":{\"pin\":{\"hand P1\":[\"2S\"]}}}}",
             base);
    expect_refused(g, json, "knowledge.P2.pin.hand P1: card 2S is not there", NULL);
    /* P3 knows nothing at all: the Deck's cards are nowhere it thinks possible */
    snprintf(json, sizeof json, "%s,\"knowledge\":{\"P3\":{\"pin\":{\"hand P3\":[]}}}}", base);
    expect_refused(g, json, "knowledge.P3: card", "neither its pin nor its may");
    /* what serialize writes loads back, and samples */
    static char out[1 << 17];
    g->def->serialize(g, a, out, sizeof out);
    assert_int_equal(g->def->deserialize(g, b, out, strlen(out), err, sizeof err), CR_OK);
    assert_memory_equal(a, b, sizeof *a);
    cr_free(a);
    cr_free(b);
    cr_game_free(g);
}

/* A position's composition in progress must be one the decision builds card
 * by card (docs/rulings.md C3).  A Declaration whose first card was a commit
 * (sel_targets 0) used to load, and computing its value then shifted by a
 * negative suit (undefined behaviour). */
static void impossible_composition_is_refused(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *a = cr_alloc(sizeof *a), *b = cr_alloc(sizeof *b);
    static char json[4096], out[1 << 17], bad[1 << 17];
    snprintf(json, sizeof json, monopoly_fmt, "\"5C\",\"6C\"", "\"2C\",\"3C\"");
    load_text(g, a, json);
    dml_test_play(g, a, "buy");
    dml_test_play(g, a, "8S");
    g->def->serialize(g, a, out, sizeof out);
    assert_non_null(strstr(out, "\"sel\": [\"8S\"], \"sel_targets\": 1"));
    char err[512];
    const struct {
        const char *from, *to, *msg;
    } cases[] = {
        {"\"sel\": [\"8S\"], \"sel_targets\": 1", "\"sel\": [\"8S\"], \"sel_targets\": 0",
         "selection: sel_targets"},
        {"\"sel\": [\"8S\"], \"sel_targets\": 1", "\"sel\": [\"2D\"], \"sel_targets\": 0",
         "selection: sel[0] (2D)"},
        {"\"sel\": [\"8S\"], \"sel_targets\": 1", "\"sel\": [\"8S\",\"9S\"], \"sel_targets\": 2",
         "selection: sel[1] (9S)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_refused(g, edited(out, cases[i].from, cases[i].to, bad, sizeof bad), cases[i].msg,
                       NULL);
    assert_int_equal(g->def->deserialize(g, b, out, strlen(out), err, sizeof err), CR_OK);
    assert_memory_equal(a, b, sizeof *a);
    cr_free(a);
    cr_free(b);
    cr_game_free(g);
}

/* A position's frames must nest as the rules push them: a Buy frame left
 * below a Market frame (or anywhere but inside a Market) used to load, and
 * the Buy then ran with no declared suit (an out-of-bounds index). */
static void misnested_frames_are_refused(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *a = cr_alloc(sizeof *a), *b = cr_alloc(sizeof *b);
    static char json[4096], out[1 << 17], bad[1 << 17];
    snprintf(json, sizeof json, monopoly_fmt, "\"5C\",\"6C\"", "\"2C\",\"3C\"");
    load_text(g, a, json);
    g->def->serialize(g, a, out, sizeof out);
    char err[512];
    expect_refused(g, edited(out, "[\"turn\"", "[\"buy\"", bad, sizeof bad), "cannot run inside",
                   NULL);
    /* a Round whose turn offset is negative used to index seats with it */
    char *at = strstr(out, "[\"round\", ");
    if (!at) at = strstr(out, "[\"round\",");
    assert_non_null(at);
    char *comma = strchr(at, ','), *second = comma ? strchr(comma + 1, ',') : NULL;
    assert_non_null(second);
    snprintf(bad, sizeof bad, "%.*s, -6%s", (int)(second - out), out, strchr(second + 1, ','));
    expect_refused(g, bad, "seat offset -6 out of range", NULL);
    assert_int_equal(g->def->deserialize(g, b, out, strlen(out), err, sizeof err), CR_OK);
    cr_free(a);
    cr_free(b);
    cr_game_free(g);
}

/* A position in the middle of the Setup deal whose frame asks for more
 * cards than the pool holds used to deal from an empty pool (found by
 * fuzzing): the loader refuses it. */
static void setup_deal_beyond_the_pool_is_refused(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *a = cr_alloc(sizeof *a), *b = cr_alloc(sizeof *b);
    static char out[1 << 17];
    char err[512];
    cr_rng rng;
    cr_rng_seed(&rng, 5, 0);
    g->def->init(g, a);
    /* play chance and the roll-off until the 2s and 3s are half dealt */
    while (!(a->fr[0].step == 3 && a->fr[0].a == 2)) {
        cr_action legal[DML_MAX_LEGAL];
        cr_action x = cr_current_player(g, a) == CR_CHANCE
                          ? cr_sample_chance(g, a, &rng)
                          : legal[g->def->legal_actions(g, a, legal, NULL) - 1];
        g->def->apply(g, a, x, NULL);
        assert_true(a->n_applied < 100);
    }
    memcpy(b, a, sizeof *a);
    g->def->serialize(g, b, out, sizeof out);
    assert_int_equal(g->def->deserialize(g, b, out, strlen(out), err, sizeof err), CR_OK);
    memcpy(b, a, sizeof *a);
    b->fr[0].a = 0; /* as if nobody had been dealt yet: 4 seats, 2 pairs left */
    g->def->serialize(g, b, out, sizeof out);
    expect_refused(g, out, "the pool lacks cards", NULL);
    memcpy(b, a, sizeof *a);
    b->fr[0].b = -1;
    g->def->serialize(g, b, out, sizeof out);
    expect_refused(g, out, "deal half -1", NULL);
    cr_free(a);
    cr_free(b);
    cr_game_free(g);
}

/* An observation of a search state keeps no memory, so during the Setup
 * deal the sampler cannot know which ranks the pool still holds.  Found by
 * the benchmark: such a draw dealt from an empty pool.  The sampler now
 * refuses a draw the deal cannot finish; every draw it gives plays to the
 * end with a non-empty chance node at every step. */
static void sample_of_search_state_in_setup_plays_out(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *a = cr_alloc(sizeof *a), *o = cr_alloc(sizeof *o), *b = cr_alloc(sizeof *b);
    cr_action legal[DML_MAX_LEGAL], out[DML_MAX_CHANCE];
    cr_rng rng;
    cr_rng_seed(&rng, 8, 0);
    g->def->init(g, a);
    while (!(a->fr[0].step == 3 && a->fr[0].a == 1)) {
        cr_action x = cr_current_player(g, a) == CR_CHANCE
                          ? cr_sample_chance(g, a, &rng)
                          : legal[g->def->legal_actions(g, a, legal, NULL) - 1];
        g->def->apply(g, a, x, NULL);
    }
    for (int search = 0; search < 2; search++) {
        if (search) cr_for_search(g, a); /* the memory is gone from here on */
        g->def->observe(g, a, 2, o);
        int ok = 0;
        for (int i = 0; i < 100; i++) {
            if (g->def->sample(g, o, &rng, b, test_ctx(g)) != CR_OK) continue;
            ok++;
            for (long k = 0; cr_current_player(g, b) != CR_TERMINAL; k++) {
                assert_true(k < 100000);
                cr_action x;
                if (cr_current_player(g, b) == CR_CHANCE) {
                    assert_true(g->def->chance_outcomes(g, b, out, NULL) > 0);
                    x = cr_sample_chance(g, b, &rng);
                } else {
                    int n = g->def->legal_actions(g, b, legal, NULL);
                    assert_true(n > 0);
                    x = legal[cr_rng_below(&rng, (uint32_t)n)];
                }
                assert_true(x >= 0 && x < g->num_actions);
                g->def->apply(g, b, x, NULL);
            }
        }
        if (!search) assert_int_equal(ok, 100); /* with memory every draw is sound */
    }
    cr_free(a);
    cr_free(o);
    cr_free(b);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(thief_gift_hidden_from_others),
        cmocka_unit_test(joker_thief_feat_is_private),
        cmocka_unit_test(half_built_choice_is_private),
        cmocka_unit_test(monopoly_end_hides_losers_vp),
        cmocka_unit_test(hidden_cards_are_interchangeable),
        cmocka_unit_test(unsound_knowledge_is_refused),
        cmocka_unit_test(impossible_composition_is_refused),
        cmocka_unit_test(misnested_frames_are_refused),
        cmocka_unit_test(setup_deal_beyond_the_pool_is_refused),
        cmocka_unit_test(sample_of_search_state_in_setup_plays_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
