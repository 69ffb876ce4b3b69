/* conformance.c — DML's own checks for the conformance suite
 * (cr_game_parts.conformance, croupier/parts.h; docs/conformance.md).
 *
 * Card conservation: the cards over all zones are exactly the variant's
 * deck, each zone's count, loc[] and mask agree, and the ordered piles (the
 * Discard top, the Nest's known top, the Stack) match their zones.
 *
 * Hidden information.  From the event stream the watcher keeps, for each
 * seat and card, the zone where that seat has last seen the card (or
 * "unknown"): a MOVE whose seen_by has the seat's bit shows the destination;
 * a REVEAL shows the card where it is; an unseen move makes the card unknown
 * to the seat unless the zone it left held only that card and the seat knew
 * it (then the seat knows where it went).  Initially a seat knows the cards
 * of the public zones, of its own zones, and the Deck's and the Nest's
 * contents (public at setup).  Every card an observation places in another
 * seat's Hand, King or offer, in a Black Market, the Deck, the Nest or among
 * the face-down exiled Kings must be one the seat has last seen there: a
 * necessary condition of "nothing beyond what the rules reveal".  And the
 * observing seat's own Hand, King and offer are complete in its
 * observation, which holds no other seat's knowledge.
 *
 * At the end: the game is over and the returns give 1 to its winner.  The
 * suite reports the most card moves (DML_E_MOVE) one apply made. */
#include <stdio.h>
#include <string.h>

#include "croupier/parts.h"
#include "games/dml/dml_internal.h"

static uint64_t dml_variant_deck(int variant)
{
    if (variant != DML_V_MAYHEM) return DML_ALL_CARDS;
    return dml_commodity_mask() | dml_rank_mask[DML_K];
}

static int dml_is_hidden_zone(int z, int seat)
{
    if (z == DML_Z_DECK || z == DML_Z_NEST || z == DML_Z_XKING) return 1;
    if (z == DML_Z_PILES) return 1; /* DML-2015's face-down piles */
    if (z >= DML_Z_BM && z < DML_Z_BM + DML_MAX_BM) return 1;
    for (int base = DML_Z_HAND; base <= DML_Z_OFFER; base += 4) {
        if (base == DML_Z_FRONT) continue; /* Fronts are public */
        if (z >= base && z < base + 4 && z != base + seat) return 1;
    }
    return 0;
}

static int dml_is_own_zone(int z, int seat)
{
    return z == DML_Z_HAND + seat || z == DML_Z_KING + seat || z == DML_Z_OFFER + seat;
}

/* Public zones as the rules have them (Event, Discard, Stocks, Exile,
 * Stack, buying area, setup pool, Fronts). */
static int dml_is_public_zone(int z)
{
    return z == DML_Z_EVENT || z == DML_Z_DISCARD || z == DML_Z_STOCK || z == DML_Z_EXILE ||
           z == DML_Z_STACK || z == DML_Z_TARGET || z == DML_Z_COMMIT || z == DML_Z_POOL ||
           (z >= DML_Z_FRONT && z < DML_Z_FRONT + 4);
}

/* Returns NULL or what is wrong. */
static const char *dml_check_cards(const dml_state *s, char *why, size_t cap)
{
    uint64_t deck = dml_variant_deck(s->variant), all = 0;
    for (int z = 0; z < DML_NZONES; z++) {
        uint64_t m = s->zone[z];
        if (all & m) {
            snprintf(why, cap, "zone %d shares cards with another zone (mask %016llx)", z,
                     (unsigned long long)(all & m));
            return why;
        }
        all |= m;
        if (s->zone_count[z] != __builtin_popcountll(m)) {
            snprintf(why, cap, "zone %d: zone_count %d but %d cards", z, s->zone_count[z],
                     __builtin_popcountll(m));
            return why;
        }
        for (; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            if (s->loc[c] != z) {
                snprintf(why, cap, "card %s in zone %d but loc says %d", dml_card_code(c), z,
                         s->loc[c]);
                return why;
            }
        }
    }
    if (all != deck) {
        snprintf(why, cap,
                 "cards over all zones %016llx != the variant's deck %016llx (missing %016llx, "
                 "extra %016llx)",
                 (unsigned long long)all, (unsigned long long)deck,
                 (unsigned long long)(deck & ~all), (unsigned long long)(all & ~deck));
        return why;
    }
    for (int c = 0; c < DML_NCARDS; c++)
        if (!(deck & dml_bit(c)) && s->loc[c] < DML_NZONES) {
            snprintf(why, cap, "card %s is not in this variant but loc says %d", dml_card_code(c),
                     s->loc[c]);
            return why;
        }
    if (s->variant == DML_V_MAYHEM && (all & (dml_rank_mask[DML_J] | dml_rank_mask[DML_Q] |
                                              dml_rank_mask[DML_A] | dml_rank_mask[0]))) {
        snprintf(why, cap, "Market Mayhem holds a J, Q, A or Joker");
        return why;
    }
    if (s->discard_top >= 0 && s->loc[s->discard_top] != DML_Z_DISCARD) {
        snprintf(why, cap, "discard_top %s is not in the Discard Pile",
                 dml_card_code(s->discard_top));
        return why;
    }
    for (int i = 0; i < s->nest_top_n; i++)
        if (s->nest_top[i] >= DML_NCARDS || s->loc[s->nest_top[i]] != DML_Z_NEST) {
            snprintf(why, cap, "nest_top[%d] is not in the Nest", i);
            return why;
        }
    /* the Stack zone: the cards in the Stack's order, plus the Character
     * whose Power is resolving (it stays in the zone until it resolves) */
    uint64_t order = 0;
    for (int i = 0; i < s->stack_n; i++) {
        if (s->stack_card[i] >= DML_NCARDS || (order & dml_bit(s->stack_card[i]))) {
            snprintf(why, cap, "stack_card[%d] is not a card or is there twice", i);
            return why;
        }
        order |= dml_bit(s->stack_card[i]);
    }
    if (s->resolving >= 0 && s->resolving < DML_NCARDS && s->loc[s->resolving] == DML_Z_STACK)
        order |= dml_bit(s->resolving);
    if (order != s->zone[DML_Z_STACK]) {
        snprintf(why, cap,
                 "the Stack's order (%d cards, resolving %d) does not match its zone (%d cards)",
                 s->stack_n, s->resolving, s->zone_count[DML_Z_STACK]);
        return why;
    }
    return NULL;
}

/* poss[seat][card]: the zones (a bit set over DML_NZONES <= 128 zones)
 * where the seat may believe the card to be, kept from the event stream
 * alone.  A card is "known" to the seat when the set has one zone. */
typedef struct zset {
    uint64_t w[2];
} zset;

typedef struct tracker {
    zset poss[4][DML_NCARDS];
    int count[DML_NZONES]; /* zone sizes (public, R47), kept from the moves */
    int np;
    int wager; /* DML-2015's bm-wager: a lost wager puts unseen Hand cards, eggs too, in a BM */
} tracker;

static zset zs_one(int z)
{
    zset r = {{0, 0}};
    r.w[z >> 6] = (uint64_t)1 << (z & 63);
    return r;
}
static int zs_has(zset a, int z) { return (a.w[z >> 6] >> (z & 63)) & 1; }
static int zs_is_one(zset a, int z)
{
    zset o = zs_one(z);
    return a.w[0] == o.w[0] && a.w[1] == o.w[1];
}
static void zs_add(zset *a, int z) { a->w[z >> 6] |= (uint64_t)1 << (z & 63); }

static void tracker_init(tracker *k, const dml_state *s)
{
    memset(k->poss, 0, sizeof k->poss);
    k->np = s->n < 4 ? s->n : 4;
    k->wager = (s->sw & DML_SW_BM_WAGER) != 0;
    for (int z = 0; z < DML_NZONES; z++) k->count[z] = s->zone_count[z];
    for (int q = 0; q < k->np; q++) {
        zset hidden = {{0, 0}};
        for (int z = 0; z < DML_NZONES; z++)
            if (s->zone_count[z] && !(dml_is_public_zone(z) || dml_is_own_zone(z, q) ||
                                      z == DML_Z_DECK || z == DML_Z_NEST))
                zs_add(&hidden, z);
        for (int c = 0; c < DML_NCARDS; c++) {
            int z = s->loc[c];
            if (z >= DML_NZONES) continue;
            if (dml_is_public_zone(z) || dml_is_own_zone(z, q) || z == DML_Z_DECK ||
                z == DML_Z_NEST)
                k->poss[q][c] = zs_one(z);
            else
                k->poss[q][c] = hidden;
        }
    }
}

/* What everyone learns of an unseen card from the move itself (the rules
 * make it public): only eggs enter or leave the Nest, only Kings go among
 * the face-down exiled Kings, a deal from the setup pool (or a DML-2015
 * pile, one 2 and one 3) moves a known rank, and an unseen card put into a
 * Black Market is not an egg (bm-wager's lost wagers aside) nor a King. */
static uint64_t public_hint(const tracker *k, int card, int from, int to)
{
    if (to == DML_Z_NEST || from == DML_Z_NEST) return dml_rank_mask[DML_A];
    if (to == DML_Z_XKING) return dml_rank_mask[DML_K];
    if (from == DML_Z_POOL || from == DML_Z_PILES) return dml_rank_mask[dml_rank(card)];
    if (to >= DML_Z_BM && k->wager) return DML_ALL_CARDS & ~dml_rank_mask[DML_K];
    if (to >= DML_Z_BM) return DML_ALL_CARDS & ~dml_rank_mask[DML_A];
    return DML_ALL_CARDS;
}

/* Zone sizes are public: a zone whose cards the seat all knows (an empty
 * one too) holds no other card, and a card left with one possible zone is
 * known there (docs/rulings.md C7). */
static void tracker_close(tracker *k, int q)
{
    for (int changed = 1; changed;) {
        changed = 0;
        int known[DML_NZONES] = {0};
        for (int c = 0; c < DML_NCARDS; c++) {
            zset a = k->poss[q][c];
            if (__builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]) == 1)
                known[a.w[0] ? __builtin_ctzll(a.w[0]) : 64 + __builtin_ctzll(a.w[1])]++;
        }
        zset full = {{0, 0}};
        for (int z = 0; z < DML_NZONES; z++)
            if (known[z] >= k->count[z]) zs_add(&full, z);
        for (int c = 0; c < DML_NCARDS; c++) {
            zset *a = &k->poss[q][c];
            if (__builtin_popcountll(a->w[0]) + __builtin_popcountll(a->w[1]) < 2) continue;
            zset r = {{a->w[0] & ~full.w[0], a->w[1] & ~full.w[1]}};
            if (r.w[0] != a->w[0] || r.w[1] != a->w[1]) {
                *a = r;
                changed = 1;
            }
        }
    }
}

static void tracker_events(tracker *k, const cr_events *ev)
{
    for (int i = 0; i < ev->len; i++) {
        const cr_event *e = &ev->buf[i];
        if (e->card < 0 || e->card >= DML_NCARDS) continue;
        if (e->from < 0 || e->from >= DML_NZONES || e->to < 0 || e->to >= DML_NZONES) continue;
        int c = e->card;
        if (e->kind == DML_E_MOVE) {
            k->count[e->from]--;
            k->count[e->to]++;
            uint64_t hint = public_hint(k, c, e->from, e->to);
            for (int q = 0; q < k->np && q < 4; q++) {
                if (e->seen_by & (1u << q)) {
                    k->poss[q][c] = zs_one(e->to);
                    continue;
                }
                /* "a card went from `from` to `to`": any card that could be
                 * in `from` and fits the hint could be in `to` now */
                int cand[DML_NCARDS], nc = 0;
                for (uint64_t m = hint; m; m &= m - 1) {
                    int x = __builtin_ctzll(m);
                    if (zs_has(k->poss[q][x], e->from)) cand[nc++] = x;
                }
                if (nc == 1)
                    k->poss[q][cand[0]] = zs_one(e->to);
                else
                    for (int j = 0; j < nc; j++) zs_add(&k->poss[q][cand[j]], e->to);
            }
        } else if (e->kind == DML_E_REVEAL) {
            for (int q = 0; q < k->np && q < 4; q++)
                if (e->seen_by & (1u << q)) k->poss[q][c] = zs_one(e->to);
        } else {
            continue;
        }
        for (int q = 0; q < k->np && q < 4; q++) tracker_close(k, q);
    }
}

/* ------------------------------------------------------------ the hooks */

static int conf_start(const cr_game *g, void *watch, const void *st, char *err, size_t errcap)
{
    if (g->state_size != sizeof(dml_state)) {
        snprintf(err, errcap, "state_size %zu, not sizeof(dml_state) = %zu", g->state_size,
                 sizeof(dml_state));
        return 1;
    }
    tracker_init(watch, st);
    return 0;
}

static int conf_check_state(const cr_game *g, const void *st, char *err, size_t errcap)
{
    (void)g;
    return dml_check_cards(st, err, errcap) != NULL;
}

/* Follows the events; counts the card moves. */
static int conf_events(const cr_game *g, void *watch, const cr_events *ev)
{
    (void)g;
    int moves = 0;
    for (int i = 0; i < ev->len; i++) moves += ev->buf[i].kind == DML_E_MOVE;
    tracker_events(watch, ev);
    return moves;
}

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        snprintf(err, errcap, __VA_ARGS__);                                                        \
        return 1;                                                                                  \
    } while (0)

static int conf_check_observation(const cr_game *g, const void *watch, const void *st, int seat,
                                  const void *obs, char *err, size_t errcap)
{
    (void)g;
    const tracker *trk = watch;
    const dml_state *s = st, *o = obs;
    for (int z = 0; z < DML_NZONES; z++) {
        if (o->zone[z] & ~s->zone[z])
            FAIL("seat %d: observation puts cards in zone %d that are not there", seat, z);
        if (dml_is_own_zone(z, seat) && o->zone[z] != s->zone[z])
            FAIL("seat %d: its own zone %d is incomplete in its observation", seat, z);
        if (!dml_is_hidden_zone(z, seat)) continue;
        for (uint64_t m = o->zone[z]; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            if (!zs_is_one(trk->poss[seat][c], z))
                FAIL("seat %d: observation shows %s in hidden zone %d, where the seat has "
                     "neither seen it go nor can infer it from the events",
                     seat, dml_card_code(c), z);
        }
    }
    for (int q = 0; q < 4; q++)
        if (q != seat)
            for (int z = 0; z < DML_NZONES; z++)
                if (o->pin[q][z] != 0 || o->may[q][z] != 0)
                    FAIL("seat %d: observation holds seat %d's knowledge", seat, q);
    return 0;
}

static int conf_check_end(const cr_game *g, const void *st, const double *ret, char *err,
                          size_t errcap)
{
    const dml_state *s = st;
    if (!s->over) FAIL("terminal but not over");
    for (int p = 0; p < g->num_players; p++)
        if (ret[p] != (s->winner == p ? 1.0 : 0.0))
            FAIL("returns[%d] = %g but the winner is %d", p, ret[p], s->winner);
    return 0;
}

const cr_conformance dml_conformance = {
    .watch_size = sizeof(tracker),
    .start = conf_start,
    .check_state = conf_check_state,
    .events = conf_events,
    .counted = "moves",
    .check_observation = conf_check_observation,
    .check_end = conf_check_end,
};
