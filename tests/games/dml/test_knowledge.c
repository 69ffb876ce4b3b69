/* test_knowledge.c — what each seat knows, against an independent tracker.
 *
 * The engine keeps, per seat, pin[s][z] (cards s knows to be in zone z) and
 * may[s][z] (cards that might be there); observations, the display and the
 * bots' sampler read them (docs/rulings.md C7).  This file checks them
 * against a tracker written from the rules alone: for every seat it keeps,
 * per card, the set of zones the card could be in, built only from the
 * events as that seat receives them (cr_event from/to/card/seen_by: the card
 * of an event not seen by the seat is never read) and from the public
 * Setup.  Its reasoning, from the spec (section 2, R47, R63, R64) and
 * docs/rulings.md C2/C7:
 *
 *   - a move the seat sees, or a reveal shown to it, puts the card in one zone;
 *   - an unseen move "a card went from A to B" lets every card that could be
 *     in A and could make that move be in B too; when only one card could,
 *     the seat knows it was that one.  What the rules tell of an unseen card:
 *     only Kings enter King slots and the face-down Exile, only eggs enter
 *     the Nest, the Setup deal gives each seat a 2 and then a 3 (C2), and a
 *     card lost by Hustled! into a Black Market is not an egg (R64);
 *   - zone sizes are public (R47): a zone whose cards are all known (an
 *     empty one included) holds no other card, and a card left with one
 *     possible zone is known there.
 *
 * After every action, for every seat and card: (a) what the engine pins is
 * true; (b) what the tracker knows the engine pins (no forgetting); (c) a
 * card the engine does not pin has may bits in exactly the zones the tracker
 * thinks possible (every zone it could be in, and no stale one).
 *
 * Two scripted positions show the defects this test was written for: the
 * Hand seen in a Siege that a Seize offer made the others forget, and the
 * Black Market made in a dead market's slot that inherited its "may". */
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

/* ------------------------------------------------------------ the tracker */

_Static_assert(DML_NZONES <= 128, "a zone set is two words");

typedef struct zset {
    uint64_t w[2];
} zset;

static zset zs_one(int z)
{
    zset s = {{0, 0}};
    s.w[z >> 6] = (uint64_t)1 << (z & 63);
    return s;
}
static int zs_has(zset s, int z) { return (int)((s.w[z >> 6] >> (z & 63)) & 1); }
static void zs_add(zset *s, int z) { s->w[z >> 6] |= (uint64_t)1 << (z & 63); }
static void zs_del(zset *s, int z) { s->w[z >> 6] &= ~((uint64_t)1 << (z & 63)); }
static int zs_size(zset s) { return __builtin_popcountll(s.w[0]) + __builtin_popcountll(s.w[1]); }
static int zs_first(zset s)
{
    return s.w[0] ? __builtin_ctzll(s.w[0]) : 64 + __builtin_ctzll(s.w[1]);
}

typedef struct tracker {
    int n;
    uint64_t present;         /* cards in this variant */
    int count[DML_NZONES];    /* public zone sizes, kept from the events */
    int dealt[4];             /* Setup: cards dealt from the pool into each Hand */
    zset poss[4][DML_NCARDS]; /* per seat: where each card could be */
} tracker;

static int card_rank(int c) { return c >= 52 ? 0 : c % 13 + 2; }

static int is_hand(int z) { return z >= DML_Z_HAND && z < DML_Z_HAND + 4; }
static int is_king_slot(int z) { return z >= DML_Z_KING && z < DML_Z_KING + 4; }
static int is_bm(int z) { return z >= DML_Z_BM && z < DML_NZONES; }

/* The Setup as the rules lay it out (4, R45, R51): Kings, 2s and 3s wait to
 * be dealt, the eggs are in the Nest, the rest is the Deck; Market Mayhem
 * plays without Jacks, Queens, eggs and Jokers.  All of it is public. */
static void tracker_init(tracker *t, int n, int variant)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    for (int c = 0; c < DML_NCARDS; c++) {
        int r = card_rank(c), z;
        if (variant == DML_V_MAYHEM && (r == 0 || r == DML_J || r == DML_Q || r == DML_A)) continue;
        if (r == DML_K || r == 2 || r == 3)
            z = DML_Z_POOL;
        else if (r == DML_A)
            z = DML_Z_NEST;
        else
            z = DML_Z_DECK;
        t->present |= (uint64_t)1 << c;
        t->count[z]++;
        for (int q = 0; q < n; q++) t->poss[q][c] = zs_one(z);
    }
}

/* Could card c have made the unseen move from -> to?  (what the rules say
 * of a card nobody showed) */
static int could_move(const tracker *t, int c, int from, int to)
{
    int r = card_rank(c);
    if (is_king_slot(to) || to == DML_Z_XKING) return r == DML_K;
    if (to == DML_Z_NEST) return r == DML_A;
    if (from == DML_Z_POOL && is_hand(to)) return r == (t->dealt[to - DML_Z_HAND] == 0 ? 2 : 3);
    if (is_hand(from) && is_bm(to)) return r != DML_A; /* Hustled! (R64) */
    return 1;
}

/* Zone sizes are public: a zone whose cards are all known holds no other. */
static void tracker_close(tracker *t, int q)
{
    for (int changed = 1; changed;) {
        changed = 0;
        int known[DML_NZONES] = {0};
        for (uint64_t m = t->present; m; m &= m - 1) {
            zset p = t->poss[q][__builtin_ctzll(m)];
            if (zs_size(p) == 1) known[zs_first(p)]++;
        }
        for (uint64_t m = t->present; m; m &= m - 1) {
            zset *p = &t->poss[q][__builtin_ctzll(m)];
            if (zs_size(*p) < 2) continue;
            for (int z = 0; z < DML_NZONES; z++) {
                if (zs_has(*p, z) && known[z] >= t->count[z]) {
                    zs_del(p, z);
                    changed = 1;
                }
            }
        }
    }
}

/* Feeds one event to every seat's model; returns 0, or -1 with why[] set
 * when the events contradict the tracker's own knowledge. */
static int tracker_event(tracker *t, const cr_event *e, char *why, size_t cap)
{
    if (e->kind == DML_E_MOVE) {
        t->count[e->from]--;
        t->count[e->to]++;
        for (int q = 0; q < t->n; q++) {
            if ((e->seen_by >> q) & 1) {
                t->poss[q][e->card] = zs_one(e->to);
                continue;
            }
            int cand[DML_NCARDS], nc = 0; /* e->card is not read: q did not see it */
            for (uint64_t m = t->present; m; m &= m - 1) {
                int c = __builtin_ctzll(m);
                if (zs_has(t->poss[q][c], e->from) && could_move(t, c, e->from, e->to))
                    cand[nc++] = c;
            }
            if (nc == 0) {
                snprintf(why, cap, "P%d: no card could have moved from zone %d to %d", q, e->from,
                         e->to);
                return -1;
            }
            if (nc == 1)
                t->poss[q][cand[0]] = zs_one(e->to);
            else
                for (int i = 0; i < nc; i++) zs_add(&t->poss[q][cand[i]], e->to);
        }
        if (e->from == DML_Z_POOL && is_hand(e->to)) t->dealt[e->to - DML_Z_HAND]++;
    } else if (e->kind == DML_E_REVEAL) {
        for (int q = 0; q < t->n; q++)
            if ((e->seen_by >> q) & 1) t->poss[q][e->card] = zs_one(e->from);
    } else {
        return 0;
    }
    for (int q = 0; q < t->n; q++) tracker_close(t, q);
    return 0;
}

/* ----------------------------------------------------- engine vs tracker */

enum { V_UNSOUND, V_FORGOT, V_MAY_MISSING, V_MAY_STALE, V_TRACKER, V_KINDS };
static const char *const v_names[V_KINDS] = {
    "(a) engine pins a card where it is not",    "(b) engine forgot a card the seat knows",
    "(c) may lacks a zone the card could be in", "(c) may holds a zone the card cannot be in",
    "tracker inconsistent with the true state",
};

typedef struct tally {
    long n[V_KINDS];
    char first[V_KINDS][256];
    long games, actions, checks;
    long beyond; /* cards the engine pins and the tracker does not know (sound) */
} tally;

static void note(tally *ty, int kind, const char *fmt, ...)
{
    if (ty->n[kind]++) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ty->first[kind], sizeof ty->first[kind], fmt, ap);
    va_end(ap);
}

static const char *zn(int z, char *buf) { return dml_zone_name(z, buf, 32); }

/* Compares the engine's masks with the tracker; returns the violations. */
static int compare(const tracker *t, const dml_state *s, tally *ty, const char *where)
{
    int bad = 0;
    char b1[32], b2[32];
    for (int z = 0; z < DML_NZONES; z++) {
        if (t->count[z] != s->zone_count[z]) {
            note(ty, V_TRACKER, "%s: zone %s holds %d, tracker counted %d", where, zn(z, b1),
                 s->zone_count[z], t->count[z]);
            return 1;
        }
    }
    for (int q = 0; q < t->n; q++) {
        int8_t epin[DML_NCARDS];
        zset emay[DML_NCARDS];
        memset(epin, -1, sizeof epin);
        memset(emay, 0, sizeof emay);
        for (int z = 0; z < DML_NZONES; z++) {
            for (uint64_t m = s->pin[q][z]; m; m &= m - 1) {
                int c = __builtin_ctzll(m);
                if (epin[c] >= 0) {
                    note(ty, V_UNSOUND, "%s: P%d pins %s in %s and %s", where, q, dml_card_code(c),
                         zn(epin[c], b1), zn(z, b2));
                    bad++;
                }
                epin[c] = (int8_t)z;
            }
            for (uint64_t m = s->may[q][z]; m; m &= m - 1) zs_add(&emay[__builtin_ctzll(m)], z);
        }
        for (uint64_t m = t->present; m; m &= m - 1) {
            int c = __builtin_ctzll(m), loc = s->loc[c];
            zset p = t->poss[q][c];
            ty->checks++;
            if (!zs_has(p, loc)) {
                note(ty, V_TRACKER, "%s: P%d's tracker rules %s out of %s, where it lies", where, q,
                     dml_card_code(c), zn(loc, b1));
                bad++;
                continue;
            }
            if (epin[c] >= 0 && epin[c] != loc) {
                note(ty, V_UNSOUND, "%s: P%d pins %s in %s; it lies in %s", where, q,
                     dml_card_code(c), zn(epin[c], b1), zn(loc, b2));
                bad++;
                continue;
            }
            if (zs_size(p) == 1 && epin[c] != loc) {
                note(ty, V_FORGOT, "%s: P%d knows %s lies in %s; the engine does not pin it", where,
                     q, dml_card_code(c), zn(loc, b1));
                bad++;
                continue;
            }
            if (epin[c] >= 0) { /* pinned, and true */
                ty->beyond += zs_size(p) > 1;
                continue;
            }
            for (int z = 0; z < DML_NZONES; z++) {
                if (zs_has(p, z) && !zs_has(emay[c], z)) {
                    note(ty, V_MAY_MISSING, "%s: P%d: %s could be in %s; may[%s] lacks it", where,
                         q, dml_card_code(c), zn(z, b1), zn(z, b2));
                    bad++;
                    break;
                }
                if (!zs_has(p, z) && zs_has(emay[c], z)) {
                    note(ty, V_MAY_STALE,
                         "%s: P%d: may[%s] holds %s, which cannot be there (zone holds %d)", where,
                         q, zn(z, b1), dml_card_code(c), s->zone_count[z]);
                    bad++;
                    break;
                }
            }
        }
    }
    return bad;
}

/* A random legal action; `undo` only when nothing else is legal, so that
 * compositions end. */
static cr_action pick(const cr_game *g, const void *st, cr_rng *rng)
{
    if (cr_current_player(g, st) == CR_CHANCE) return cr_sample_chance(g, st, rng);
    cr_action legal[DML_MAX_LEGAL], keep[DML_MAX_LEGAL];
    int n = g->def->legal_actions(g, st, legal, NULL), k = 0;
    assert_true(n > 0);
    for (int i = 0; i < n; i++)
        if (legal[i] != DML_A_UNDO) keep[k++] = legal[i];
    if (!k) return legal[cr_rng_below(rng, (uint32_t)n)];
    return keep[cr_rng_below(rng, (uint32_t)k)];
}

enum { MAX_ACTIONS = 4000, EV_CAP = 1024 };

static void play_games(const char *variant, int players, int games, uint64_t seed, tally *ty)
{
    cr_params par = {.num_players = players, .variant = variant};
    char err[256], where[96];
    cr_game *g = cr_game_new(cr_registry_find("dml"), &par, err, sizeof err);
    if (!g) fail_msg("%s/%d: %s", variant, players, err);
    dml_state *s = cr_alloc(sizeof *s);
    tracker *t = cr_alloc(sizeof *t);
    static cr_event evbuf[EV_CAP];
    cr_rng rng;
    for (int gi = 0; gi < games; gi++) {
        cr_rng_seed(&rng, seed, (uint64_t)gi);
        g->def->init(g, s);
        tracker_init(t, players, s->variant);
        snprintf(where, sizeof where, "%s/%dp game %d start", variant, players, gi);
        if (compare(t, s, ty, where)) break;
        ty->games++;
        for (int i = 0; i < MAX_ACTIONS && !cr_is_terminal(g, s); i++) {
            cr_events ev = {evbuf, EV_CAP, 0, 0};
            cr_action a = pick(g, s, &rng);
            g->def->apply(g, s, a, &(cr_ctx){.ev = &ev});
            assert_int_equal(ev.dropped, 0);
            ty->actions++;
            snprintf(where, sizeof where, "%s/%dp game %d action %d", variant, players, gi, i);
            int broken = 0;
            for (int k = 0; k < ev.len && !broken; k++) {
                char why[160];
                if (tracker_event(t, &ev.buf[k], why, sizeof why)) {
                    note(ty, V_TRACKER, "%s: %s", where, why);
                    broken = 1;
                }
            }
            if (broken) break; /* the tracker lost track: nothing more to compare */
            compare(t, s, ty, where);
        }
    }
    cr_free(t);
    cr_free(s);
    cr_game_free(g);
}

static int report(const tally *ty)
{
    long total = 0;
    for (int k = 0; k < V_KINDS; k++) {
        total += ty->n[k];
        if (ty->n[k]) printf("  %ld x %s; first: %s\n", ty->n[k], v_names[k], ty->first[k]);
    }
    printf(
        "  %ld games, %ld actions, %ld card checks; the engine pinned %ld more than the tracker\n",
        ty->games, ty->actions, ty->checks, ty->beyond);
    return total != 0;
}

/* Random games of every variant and player count. */
static void random_games_match_tracker(void **unused)
{
    (void)unused;
    static const struct {
        const char *variant;
        int players;
    } tables[] = {{"full", 4},   {"smackdown", 3}, {"mayhem", 3},
                  {"mayhem", 4}, {"fire", 3},      {"fire", 4}};
    tally ty;
    memset(&ty, 0, sizeof ty);
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        play_games(tables[i].variant, tables[i].players, 400, 0x6b6e6f77ull + i, &ty);
    if (report(&ty)) fail_msg("knowledge differs from the tracker (see above)");
    assert_true(ty.games >= 2400);
}

/* ----------------------------------------------------- scripted positions */

static uint64_t cards(const char *a, const char *b, const char *c)
{
    uint64_t m = dml_bit(dml_parse_card(a)) | dml_bit(dml_parse_card(b));
    return c ? m | dml_bit(dml_parse_card(c)) : m;
}

/* P0's Dragon Empress starts a Siege in P0's Play Action: every Hand is
 * shown, so all seats see P1's Hand 7C 8H 5D (no eggs: nothing is lost).
 * P0 then buys 9S; P1 places 7C face-down (a bluff: Spice counts) and P2
 * passes.  At the reveal 7C goes back to P1's Hand.  Every seat has seen
 * all three cards and none could have left unseen: they know the Hand,
 * after the offer as before it. */
static void siege_hand_survives_a_seize_offer(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_alloc(sizeof *s);
    dml_test_load(g, s, "siege_then_seize.json");
    const uint64_t p1 = cards("7C", "8H", "5D");
    for (int q = 0; q < 4; q++)
        if (q != 1) assert_int_equal(s->pin[q][DML_Z_HAND + 1], 0); /* not shown yet */
    dml_test_play(g, s, "play");
    dml_test_play(g, s, "power QS");
    dml_test_play(g, s, "done");
    assert_int_equal(s->loc[dml_parse_card("QS")], DML_Z_EXILE); /* the Siege is over */
    for (int q = 0; q < 4; q++) assert_true(s->pin[q][DML_Z_HAND + 1] == p1);
    dml_test_play(g, s, "buy");
    dml_test_play(g, s, "9S");
    dml_test_play(g, s, "done");
    assert_int_equal(s->actor, 1);
    dml_test_play(g, s, "7C");
    dml_test_play(g, s, "done");
    /* while the offer is face-down, the others know the three cards are in
     * P1's Hand or offer, and not which is where */
    uint64_t off = s->zone[DML_Z_OFFER + 1];
    assert_true(off == dml_bit(dml_parse_card("7C")));
    for (int q = 0; q < 4; q++) {
        if (q == 1) continue;
        assert_true(((s->pin[q][DML_Z_HAND + 1] | s->may[q][DML_Z_HAND + 1]) & p1) == p1);
        assert_true((s->pin[q][DML_Z_HAND + 1] & ~s->zone[DML_Z_HAND + 1]) == 0);
    }
    dml_test_play(g, s, "done");                /* P2 passes; P3's empty Hand passes by itself */
    assert_int_equal(s->need, DML_NEED_CHANCE); /* no Seize: the roll */
    assert_true(s->zone[DML_Z_HAND + 1] == p1);
    for (int q = 0; q < 4; q++) {
        if (s->pin[q][DML_Z_HAND + 1] != p1)
            fail_msg("P%d pins %d of P1's 3 cards after the reveal", q,
                     __builtin_popcountll(s->pin[q][DML_Z_HAND + 1] & p1));
        assert_true(s->may[q][DML_Z_OFFER + 1] == 0);
        assert_true((s->may[q][DML_Z_HAND + 1] & p1) == 0);
    }
    cr_free(s);
    cr_game_free(g);
}

/* P0's Prime Counsellor takes the only card of BM1 (slot 0): BM1 ceases to
 * exist.  The Foreign Merchant of Round 3 opens BM4 in the free slot 0 with
 * X1, JC and the top egg AD, in everyone's view.  Nobody may think that a
 * card they cannot place lies in BM4: its content is known. */
static void new_market_in_reused_slot_starts_clean(void **unused)
{
    (void)unused;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_alloc(sizeof *s);
    dml_test_load(g, s, "bm_reused_slot.json");
    for (int q = 1; q < 4; q++) assert_true(s->may[q][DML_Z_BM + 0] != 0); /* BM1's 5S is hidden */
    dml_test_play(g, s, "power JH");
    dml_test_play(g, s, "done");
    dml_test_play(g, s, "search BM1");
    assert_int_equal(s->zone_count[DML_Z_BM + 0], 0);
    for (int q = 0; q < 4; q++) {
        assert_true(s->may[q][DML_Z_BM + 0] == 0); /* a dead market holds nothing */
        assert_true(s->pin[q][DML_Z_BM + 0] == 0);
    }
    dml_test_play(g, s, "draw X1");
    assert_int_equal(s->bm_label[0], 4);
    const uint64_t bm4 = cards("X1", "JC", "AD");
    assert_true(s->zone[DML_Z_BM + 0] == bm4);
    for (int q = 0; q < 4; q++) {
        assert_true(s->pin[q][DML_Z_BM + 0] == bm4);
        if (s->may[q][DML_Z_BM + 0])
            fail_msg("P%d: may[BM4] holds %d cards it cannot hold", q,
                     __builtin_popcountll(s->may[q][DML_Z_BM + 0]));
    }
    cr_free(s);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(siege_hand_survives_a_seize_offer),
        cmocka_unit_test(new_market_in_reused_slot_starts_clean),
        cmocka_unit_test(random_games_match_tracker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
